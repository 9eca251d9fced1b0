// The server's clock, estimated NTP-style from ping/pong round trips:
// offset ≈ serverTime − (t0 + t1) / 2, taking the sample with the lowest
// round-trip time among the recent ones. Local time is monotonic
// (performance.now), so a device clock that jumps doesn't move playback.

const WINDOW = 24;

function localNow() {
  return performance.timeOrigin + performance.now();
}

export class ServerClock {
  constructor() {
    this.samples = [];
    this.offset = 0;
    this.rtt = Infinity;
    this.synced = false;
    this.rough = false;
  }

  /** Server time now, in epoch milliseconds. */
  now() {
    return localNow() + this.offset;
  }

  localNow() {
    return localNow();
  }

  /** A one-way hint (no round trip), used only until a ping is answered. */
  hint(serverTime) {
    if (this.synced || !Number.isFinite(serverTime)) return;
    this.offset = serverTime - localNow();
    this.rough = true;
  }

  /**
   * One round trip. t0: local send time, t1: local receive time; the server's
   * stamps are `received` and `sent` (the middle two NTP timestamps), or one
   * `serverTime` from servers that give only that.
   */
  addSample(t0, t1, { serverTime, received, sent } = {}) {
    if (t1 < t0) return;
    let rtt;
    let offset;
    if (Number.isFinite(received) && Number.isFinite(sent) && sent >= received) {
      rtt = t1 - t0 - (sent - received);
      offset = (received - t0 + (sent - t1)) / 2;
    } else if (Number.isFinite(serverTime)) {
      rtt = t1 - t0;
      offset = serverTime - (t0 + t1) / 2;
    } else {
      return;
    }
    this.samples.push({ rtt, offset });
    if (this.samples.length > WINDOW) this.samples.shift();
    const best = this.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
    this.offset = best.offset;
    this.rtt = best.rtt;
    this.synced = true;
  }
}
