// The server's clock, estimated NTP-style from four-timestamp probes, as the
// Swift SDK does it (Sources/WavelengthCore/ClockEstimator.swift):
//
// - each probe gives offset = ((t1 − t0) + (t2 − t3)) / 2 and
//   round trip = (t3 − t0) − (t2 − t1), t0/t3 local, t1/t2 the server's stamps;
// - the estimator keeps the last minute of probes and answers the median
//   offset of the quarter with the smallest error bound, a probe's bound
//   being half its round trip plus its age × 100 ppm (old probes drift);
// - playback follows a slewed copy: while something plays, corrections move
//   the applied offset at most 0.5 ms per second (they step beyond 100 ms).
//
// Local time is monotonic (performance.timeOrigin + performance.now()), so a
// device clock that is set or jumps doesn't move playback. Benchmarks and
// tests can inject an offset and a skew into this local clock
// (window.__wavelengthClockFault = {offsetMs, skewPpm}, set before the app
// loads): every process on one machine shares the kernel clock, and without
// injected error an estimator that always answered 0 would look perfect.

const MAX_AGE_MS = 60_000;
const CAPACITY = 64;
const MAX_SKEW = 100e-6;
const MAX_SLEW_RATE = 0.0005; // ms of offset per ms of local time
const STEP_THRESHOLD_MS = 100;

/** One probe: `sent`/`received` local ms, `serverReceived`/`serverSent` server ms. */
export function probeOffset(s) {
  return (s.serverReceived - s.sent + (s.serverSent - s.received)) / 2;
}

export function probeRoundTrip(s) {
  return s.received - s.sent - (s.serverSent - s.serverReceived);
}

/** A port of the SDK's ClockEstimator (pure: no clock of its own). */
export class ClockEstimator {
  constructor({ capacity = CAPACITY, maxAge = MAX_AGE_MS, maxSkew = MAX_SKEW } = {}) {
    this.capacity = capacity;
    this.maxAge = maxAge;
    this.maxSkew = maxSkew;
    this.samples = [];
  }

  add(sample) {
    const rtt = probeRoundTrip(sample);
    const offset = probeOffset(sample);
    if (!(rtt >= 0) || !Number.isFinite(rtt) || !Number.isFinite(offset)) return false;
    const s = { ...sample, rtt, offset, midpoint: (sample.sent + sample.received) / 2 };
    this.samples.push(s);
    const newest = s.received;
    this.samples = this.samples.filter((x) => newest - x.received <= this.maxAge);
    if (this.samples.length > this.capacity) this.samples.splice(0, this.samples.length - this.capacity);
    return true;
  }

  reset() {
    this.samples = [];
  }

  errorBound(sample, now) {
    return sample.rtt / 2 + (now - sample.midpoint) * this.maxSkew;
  }

  /**
   * The probes the estimate is the median of: the quarter of the window (at
   * least three) with the smallest error bounds, smallest first. Equal
   * bounds keep their arrival order (Array.prototype.sort is stable), as in
   * the Swift estimator; Tests/Fixtures/clock-estimator.json checks both.
   */
  selected() {
    const n = this.samples.length;
    if (!n) return [];
    const now = this.samples[n - 1].received;
    const byBound = [...this.samples].sort((a, b) => this.errorBound(a, now) - this.errorBound(b, now));
    return byBound.slice(0, Math.max(Math.min(3, n), Math.floor(n / 4)));
  }

  /** {offset, bestRoundTrip, sampleCount, bound} or null. */
  get estimate() {
    const best = this.selected();
    if (!best.length) return null;
    const now = this.samples[this.samples.length - 1].received;
    const offsets = best.map((s) => s.offset).sort((a, b) => a - b);
    const mid = offsets.length >> 1;
    const offset = offsets.length % 2 ? offsets[mid] : (offsets[mid - 1] + offsets[mid]) / 2;
    return {
      offset,
      bestRoundTrip: Math.min(...this.samples.map((s) => s.rtt)),
      sampleCount: this.samples.length,
      bound: this.errorBound(best[0], now),
    };
  }
}

/** A port of the SDK's SlewedClock. */
export class SlewedClock {
  constructor({ maxSlewRate = MAX_SLEW_RATE, stepThreshold = STEP_THRESHOLD_MS } = {}) {
    this.maxSlewRate = maxSlewRate;
    this.stepThreshold = stepThreshold;
    this.applied = null;
    this.lastUpdate = 0;
  }

  update(target, local, playing) {
    const last = this.lastUpdate;
    this.lastUpdate = local;
    if (this.applied === null || !playing) {
      this.applied = target;
      return;
    }
    const gap = target - this.applied;
    if (Math.abs(gap) > this.stepThreshold) {
      this.applied = target;
      return;
    }
    const allowed = Math.max(0, local - last) * this.maxSlewRate;
    this.applied += Math.min(Math.max(gap, -allowed), allowed);
  }
}

function readFault() {
  const fault = (typeof window !== "undefined" && window.__wavelengthClockFault) || null;
  const offsetMs = fault && Number.isFinite(fault.offsetMs) ? fault.offsetMs : 0;
  const skewPpm = fault && Number.isFinite(fault.skewPpm) ? fault.skewPpm : 0;
  return { offsetMs, skew: skewPpm * 1e-6 };
}

export class ServerClock extends EventTarget {
  constructor() {
    super();
    this.estimator = new ClockEstimator();
    this.slewed = new SlewedClock();
    this.fault = readFault();
    this.origin = performance.timeOrigin;
    this.playing = false;
    // Before the first probe: a one-way hint from a snapshot's serverTime.
    this.hinted = null;
    this.synced = false;
    this.firstProbeAt = null; // performance time of the first answered probe
  }

  /** Local time (ms, epoch-like, monotonic) at performance time `perf`. */
  localAt(perf) {
    return this.origin + perf + this.fault.offsetMs + perf * this.fault.skew;
  }

  /** The performance time at which local time reads `local`. */
  perfAtLocal(local) {
    return (local - this.origin - this.fault.offsetMs) / (1 + this.fault.skew);
  }

  localNow() {
    return this.localAt(performance.now());
  }

  /** The offset playback uses (server − local), slewed while playing. */
  get offset() {
    if (this.slewed.applied !== null) return this.slewed.applied;
    return this.hinted ?? 0;
  }

  /** The estimator's unslewed answer, or null. */
  get estimate() {
    return this.estimator.estimate;
  }

  get rtt() {
    const e = this.estimator.estimate;
    return e ? e.bestRoundTrip : Infinity;
  }

  get sampleCount() {
    return this.estimator.samples.length;
  }

  /** Server time (epoch ms) at performance time `perf`. */
  serverAt(perf) {
    this.advance(perf);
    return this.localAt(perf) + this.offset;
  }

  /** The performance time at which the server clock reads `server`. */
  perfAtServer(server) {
    return this.perfAtLocal(server - this.offset);
  }

  /** Server time now, in epoch milliseconds. */
  now() {
    return this.serverAt(performance.now());
  }

  /** Moves the slewed offset toward the estimate (called often while playing). */
  advance(perf = performance.now()) {
    const e = this.estimator.estimate;
    if (!e) return;
    const local = this.localAt(perf);
    if (local - this.slewed.lastUpdate < 1 && this.slewed.applied !== null) return;
    this.slewed.update(e.offset, local, this.playing);
  }

  /** Playback tells the clock when it plays, so corrections slew. */
  setPlaying(playing) {
    if (playing === this.playing) return;
    this.advance();
    this.playing = playing;
  }

  /** A one-way hint (no round trip), used only until a probe is answered. */
  hint(serverTime) {
    if (this.synced || !Number.isFinite(serverTime)) return;
    this.hinted = serverTime - this.localNow();
  }

  /**
   * One probe. `sent`/`received` are local times (localAt/localNow); the
   * server's stamps are `serverReceived` and `serverSent`. Servers that give
   * only `serverTime` are treated as stamping both at once.
   */
  addProbe({ sent, received, serverReceived, serverSent, serverTime }) {
    if (!(Number.isFinite(serverReceived) && Number.isFinite(serverSent) && serverSent >= serverReceived)) {
      if (!Number.isFinite(serverTime)) return;
      serverReceived = serverSent = serverTime;
    }
    if (!this.estimator.add({ sent, received, serverReceived, serverSent })) return;
    if (this.firstProbeAt === null) this.firstProbeAt = performance.now();
    this.synced = true;
    this.slewed.update(this.estimator.estimate.offset, received, this.playing);
    this.dispatchEvent(new CustomEvent("sync", { detail: this.estimator.estimate }));
  }

  /** Kept for older callers: t0/t1 local send/receive times. */
  addSample(t0, t1, { serverTime, received, sent } = {}) {
    this.addProbe({ sent: t0, received: t1, serverReceived: received, serverSent: sent, serverTime });
  }
}
