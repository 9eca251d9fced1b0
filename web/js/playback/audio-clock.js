// Maps AudioContext time to performance.now() time, for what is *heard*.
//
// `getOutputTimestamp()` answers which context time the output device is
// playing at a given performance time: output latency is already in it. We
// keep k = contextTime − performanceTime / 1000 from recent readings and use
// their median, so the odd late callback doesn't move the schedule. Browsers
// without it (or before the device has started) fall back to currentTime
// minus the latencies the context reports.

const KEEP = 15;

export class AudioClock {
  constructor(ctx) {
    this.ctx = ctx;
    this.readings = [];
    this.lastContextTime = -1;
    this.source = "none"; // "output-timestamp" | "latency"
    // What the output route adds after the platform's own figures (s): a
    // Bluetooth speaker's delay, measured by a room calibration
    // (room/route-delays.js). What is heard is that much later.
    this.extra = 0;
  }

  /** Takes a reading; cheap, call often. */
  sample() {
    const ctx = this.ctx;
    if (ctx.state !== "running") return;
    if (typeof ctx.getOutputTimestamp === "function") {
      const ts = ctx.getOutputTimestamp();
      if (ts && ts.contextTime > 0 && ts.performanceTime > 0) {
        if (ts.contextTime !== this.lastContextTime) {
          this.lastContextTime = ts.contextTime;
          this.push(ts.contextTime - ts.performanceTime / 1000, "output-timestamp");
        }
        return;
      }
    }
    if (this.source === "output-timestamp") return;
    const latency = (ctx.baseLatency || 0) + (ctx.outputLatency || 0);
    this.push(ctx.currentTime - performance.now() / 1000 - latency, "latency");
  }

  push(k, source) {
    if (source !== this.source) {
      this.readings = [];
      this.source = source;
    }
    this.readings.push(k);
    if (this.readings.length > KEEP) this.readings.shift();
    this.cached = null;
  }

  get ready() {
    return this.readings.length > 0;
  }

  /** Context seconds minus performance seconds, for the audible output. */
  get k() {
    if (this.cached != null) return this.cached;
    if (!this.readings.length) {
      const latency = (this.ctx.baseLatency || 0) + (this.ctx.outputLatency || 0);
      return this.ctx.currentTime - performance.now() / 1000 - latency - this.extra;
    }
    const sorted = [...this.readings].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    this.cached = (sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2) - this.extra;
    return this.cached;
  }

  /** The context time heard at performance time `perf` (ms). */
  ctxAt(perf) {
    return perf / 1000 + this.k;
  }

  /** The performance time (ms) at which context time `t` is heard. */
  perfAt(t) {
    return (t - this.k) * 1000;
  }

  /** How far ahead of what's heard the render clock runs (s). */
  get lead() {
    return this.ctx.currentTime - this.ctxAt(performance.now());
  }
}
