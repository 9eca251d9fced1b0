// One station, live: its view, timeline, listener count and connection
// state, kept from the WebSocket. Views read it; DJ commands go through it.

import { LiveConnection } from "./live.js";

export class StationSession extends EventTarget {
  constructor({ station, key, clock }) {
    super();
    this.station = station;
    this.stationID = station.id;
    this.key = key || null;
    this.clock = clock;
    this.timeline = null;
    this.listeners = station.listeners || 0;
    this.connection = "connecting";
    this.live = null;
  }

  get isOwner() {
    return Boolean(this.key);
  }

  start() {
    const live = new LiveConnection({ stationID: this.stationID, key: this.key, clock: this.clock });
    this.live = live;
    live.addEventListener("state", (e) => this.set({ connection: e.detail.state }, "connection"));
    live.addEventListener("snapshot", (e) => {
      const { station, timeline, listeners } = e.detail;
      this.set({ station, timeline, listeners }, "snapshot");
    });
    live.addEventListener("resumed", (e) => this.set({ listeners: e.detail.listeners }, "listeners"));
    live.addEventListener("timeline", (e) => this.set({ timeline: e.detail.timeline }, "timeline"));
    live.addEventListener("listeners", (e) => this.set({ listeners: e.detail.count }, "listeners"));
    live.addEventListener("servererror", (e) => this.emit("servererror", e.detail));
    this.onOnline = () => live.retryNow();
    window.addEventListener("online", this.onOnline);
    live.start();
    return this;
  }

  set(changes, reason) {
    Object.assign(this, changes);
    this.emit("change", { reason });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /** A DJ command; resolves with the ack. */
  command(command) {
    return this.live.command(command);
  }

  close() {
    window.removeEventListener("online", this.onOnline);
    if (this.live) this.live.close();
    this.live = null;
  }
}
