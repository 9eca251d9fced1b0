// One station, live: its view, timeline, listener count, connection state
// and your role there (owner, co-DJ or listener), kept from the WebSocket.
// Views read it; DJ commands go through it.
//
// Events: "change" ({reason}: snapshot | timeline | listeners | connection |
// role | party (requests, votes, the ballot, standing) | thumbs | sound), "removed" ({person, reason, self}), "ended", "denied"
// ({code, message}), "override" ({kind, trackID, requesterName}: the host
// moved, vetoed or played a request now), "clip" ({clip}: a listener's
// voice clip waits for the host's approval; to the owner and co-DJs),
// "servererror", and the room's
// "room" ({type: "room" | "chat" | "deleted" | "reactions" | "error", …}:
// the chat and the emoji reactions, kept by views/station/chat.js).

import { request } from "../api/api.js";
import { LiveConnection } from "./live-connection.js";
import { ErrorCode } from "../api/error-codes.js";

const BOOTH_ROLES = new Set(["owner", "codj"]);

/** Whether a role may use the DJ booth (search and add, skip, delete, reorder, hold, seek). */
export function canDJ(role) {
  return BOOTH_ROLES.has(role);
}

/** GET /api/stations/{id}/access: {role, canListen, reason}. */
export function fetchAccess(stationID, { signal } = {}) {
  return request(`/api/stations/${encodeURIComponent(stationID)}/access`, { signal });
}

export class StationSession extends EventTarget {
  /**
   * @param {{station: object, clock: object, selfID?: () => string|null, role?: string|null}} options
   */
  constructor({ station, clock, selfID = () => null, role = null }) {
    super();
    this.station = station;
    this.stationID = station.id;
    this.clock = clock;
    this.selfID = selfID;
    this.role = role;
    this.timeline = null;
    this.listeners = station.listeners || 0;
    this.connection = "connecting";
    this.live = null;
    this.final = null; // "removed" | "ended" | "denied" once the station is over for us
    this.checkingAccess = false;
    /** The party (mode, rules, requests, skip vote), once the server sends it. */
    this.party = null;
    /** Your own votes, by request id. */
    this.myVotes = {};
    /** Your standing in a lobby: {ballotID, vote, weight, explanation}. */
    this.standing = null;
    /** The room's thumbs on the song playing ({entryID, up, down}), for the DJ. */
    this.thumbs = null;
  }

  get canDJ() {
    return canDJ(this.role);
  }

  start() {
    const live = new LiveConnection({ stationID: this.stationID, clock: this.clock, selfID: this.selfID });
    this.live = live;
    live.addEventListener("state", (e) => this.set({ connection: e.detail.state }, "connection"));
    live.addEventListener("snapshot", (e) => {
      const { station, timeline, listeners } = e.detail;
      this.set({ station: { ...this.station, ...station }, timeline, listeners }, "snapshot");
    });
    live.addEventListener("resumed", (e) => this.set({ listeners: e.detail.listeners }, "listeners"));
    live.addEventListener("timeline", (e) => this.set({ timeline: e.detail.timeline }, "timeline"));
    live.addEventListener("listeners", (e) => this.set({ listeners: e.detail.count }, "listeners"));
    live.addEventListener("access", (e) => this.setRole(e.detail.role));
    live.addEventListener("party", (e) => {
      const { party } = e.detail;
      const change = { party };
      if (party.myVotes) change.myVotes = party.myVotes;
      if (party.standing) change.standing = party.standing;
      this.set(change, "party");
    });
    live.addEventListener("votes", (e) => this.set({ myVotes: e.detail.votes }, "party"));
    live.addEventListener("standing", (e) => this.set({ standing: e.detail.standing }, "party"));
    live.addEventListener("sound", (e) => this.set({ station: { ...this.station, sound: e.detail.sound } }, "sound"));
    live.addEventListener("override", (e) => this.emit("override", e.detail));
    // The booth changed hands: who has it now (null while the grace runs).
    live.addEventListener("dj", (e) => this.emit("handover", e.detail));
    live.addEventListener("clipwaiting", (e) => this.emit("clip", e.detail));
    live.addEventListener("calibration", (e) => this.emit("calibration", e.detail));
    live.addEventListener("thumbs", (e) => this.set({ thumbs: e.detail }, "thumbs"));
    live.addEventListener("chatroom", (e) => this.emit("room", { type: "room", ...e.detail }));
    live.addEventListener("chat", (e) => this.emit("room", { type: "chat", ...e.detail }));
    live.addEventListener("chatdeleted", (e) => this.emit("room", { type: "deleted", ...e.detail }));
    live.addEventListener("reactions", (e) => this.emit("room", { type: "reactions", ...e.detail }));
    live.addEventListener("roomerror", (e) => this.emit("room", { type: "error", ...e.detail }));
    live.addEventListener("removed", (e) => {
      if (e.detail.self) this.final = "removed";
      this.emit("removed", e.detail);
    });
    live.addEventListener("ended", () => {
      this.final = "ended";
      this.emit("ended", {});
    });
    live.addEventListener("denied", (e) => this.deny(e.detail));
    live.addEventListener("refused", () => this.checkAccess());
    live.addEventListener("servererror", (e) => this.emit("servererror", e.detail));
    // Back online, or the page is shown again (a phone unlocked): try at
    // once rather than wait out the backoff.
    this.onOnline = () => live.retryNow();
    this.onVisible = () => {
      if (document.visibilityState === "visible") live.retryNow();
    };
    window.addEventListener("online", this.onOnline);
    document.addEventListener("visibilitychange", this.onVisible);
    live.start();
    return this;
  }

  setRole(role) {
    if (!role || role === this.role) return;
    this.set({ role }, "role");
  }

  deny({ code, message }) {
    if (this.final) return;
    this.final = "denied";
    if (this.live) this.live.finish("denied");
    this.emit("denied", { code, message });
  }

  // The upgrade was refused without a word (an HTTP answer before the
  // WebSocket opened, or the server is down): ask over HTTP whether we may
  // still listen. A network error means the server is away; keep retrying.
  async checkAccess() {
    if (this.checkingAccess || this.final || !this.live) return;
    this.checkingAccess = true;
    try {
      const access = await fetchAccess(this.stationID);
      if (access) this.setRole(access.role === "none" ? null : access.role);
      if (access && access.canListen === false) {
        this.deny({ code: access.reason || ErrorCode.notAMember, message: "" });
      }
    } catch (error) {
      if (error && (error.code === ErrorCode.signInRequired || error.code === ErrorCode.notAMember || error.code === ErrorCode.banned)) {
        this.deny({ code: error.code, message: error.message });
      }
    } finally {
      this.checkingAccess = false;
    }
  }

  set(changes, reason) {
    Object.assign(this, changes);
    this.emit("change", { reason });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /**
   * A DJ command; resolves with the ack. Pressed while the connection is
   * down it is kept and sent on reconnect; `onWaiting` is called then, so
   * the button can show it is pending.
   */
  command(command, { onWaiting = null } = {}) {
    return this.live.command(command, { onWaiting });
  }

  /** The chat, reactions and moderation over the live socket (live-connection.js); false when it is down. */
  sendChat(id, text) {
    return Boolean(this.live && this.live.sendChat(id, text));
  }

  react(id, entryID, emoji) {
    return Boolean(this.live && this.live.react(id, entryID, emoji));
  }

  sendCalibration(signal) {
    return Boolean(this.live && this.live.sendCalibration(signal));
  }

  moderate(id, action) {
    return Boolean(this.live && this.live.moderate(id, action));
  }

  /** The live socket's number (counts reconnects). */
  get connectionNumber() {
    return this.live ? this.live.connectionNumber : 0;
  }

  /** A fresh connection now: after becoming a guest, to be known by name. */
  reconnect() {
    if (this.live) this.live.reconnect();
  }

  close() {
    window.removeEventListener("online", this.onOnline);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.live) this.live.close();
    this.live = null;
  }
}
