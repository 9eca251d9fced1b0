// A station's live WebSocket (the LiveConnection class): snapshot, updates,
// listener counts and DJ commands, with pings for the clock and reconnection
// with backoff that resumes from the last revision seen (`since`). Every
// server message carries `seq` (1, 2, 3, … per connection); a gap asks the
// server for a `resync`.
// The upgrade is authenticated by the session cookie; the server says our
// role (`access`), when someone is removed (`removed`) and when the host ends
// the session (`ended`). Being removed, the end, and access refusals are
// final: the connection never reconnects after them.

// A station link's socket is opened before the app has loaded
// (early-live.js): the first connection takes it over, with the messages
// and probes it has had meanwhile.

import { api, ApiError } from "../api/api.js";
import { randomID } from "../ui/dom.js";
import { liveURL, probeDelay, probeNonce, takeEarlyLive } from "./early-live.js";
import { fillTracks, knownTracks } from "./known-tracks.js";
import { isStaleTimeline, readSequence } from "./live-sequence.js";
import { ErrorCode } from "../api/error-codes.js";

/**
 * The live protocol version this client speaks (`?v=`): 2, where updates
 * name the tracks it holds by id alone (known-tracks.js).
 */
export { PROTOCOL_VERSION } from "./early-live.js";

// Reconnecting: a short backoff capped at 2 s, so a server that comes back
// is heard from within a couple of seconds (it used to grow to 8–10 s and
// clients took 6–10 s to return). Each delay is jittered (50–100 %) so a
// room of listeners doesn't knock at the same instant; the "online" and
// "visible again" events retry at once (retryNow).
const BACKOFF_MS = [250, 500, 1000, 2000];
const BACKOFF_CAP_MS = 2000;
const SILENCE_LIMIT_MS = 12000;
// Refusals that reconnecting cannot fix (PEOPLE-API.md, station access).
const DENIED = new Set([ErrorCode.signInRequired, ErrorCode.notAMember, ErrorCode.banned, ErrorCode.stationFull]);
const ACK_TIMEOUT_MS = 4000;
// The room's refusals (chat, reactions, moderation): said beside the chat
// or the reactions, never as a stray toast. A reaction carries no id, so
// its refusals come with none. (The server says too many mutes as
// `conflict`, answering the moderator's command by its id.)
const ROOM_CODES = new Set([
  ErrorCode.chatOff, ErrorCode.chatNotAllowed, ErrorCode.emptyMessage, ErrorCode.tooLong, ErrorCode.controlCharacters, ErrorCode.muted, ErrorCode.slowMode,
  ErrorCode.tooFast, ErrorCode.invalidMute, ErrorCode.invalidSettings, ErrorCode.cannotMute, ErrorCode.unknownReaction, ErrorCode.notCurrent,
]);

export class LiveConnection extends EventTarget {
  /**
   * @param {{stationID: string, clock: import("../playback/clock.js").ServerClock, selfID?: () => string|null}} options
   * selfID answers the signed-in person's id, to tell a `removed` about us
   * from one about someone else.
   */
  constructor({ stationID, clock, selfID = () => null }) {
    super();
    this.stationID = stationID;
    this.clock = clock;
    this.selfID = selfID;
    this.access = null; // "owner" | "codj" | "listener", as the server last said
    this.revision = null;
    // The tracks of the last window taken, which updates may name by id.
    this.tracks = new Map();
    this.state = "connecting"; // connecting | live | reconnecting | outdated | removed | ended | denied | closed
    this.seq = 0;
    this.attempt = 0;
    this.ws = null;
    this.closed = false;
    this.pending = new Map(); // command id → {resolve, reject, timer, command, viaHTTP, waiting}
    this.reconnectTimer = null;
    this.pings = new Map(); // nonce → local send time
    this.role = null; // "dj" | "listener", as the server last said
    this.epoch = null; // the DJ epoch last heard; stamped on commands
    this.connectedAt = 0;
    this.timers = new Set();
    this.lastMessageAt = 0;
    /** Ids of the chat messages and moderators' actions sent, whose refusals are the room's. */
    this.roomIDs = new Set();
    /** Counts the sockets opened: a chat message sent on one and unanswered is lost with it. */
    this.connectionNumber = 0;
  }

  start() {
    this.connect();
    return this;
  }

  close(state = "closed") {
    this.closed = true;
    this.setState(state);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.dropSocket("leaving");
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new ApiError("Left the station.", { code: "closed" }));
    }
    this.pending.clear();
  }

  /**
   * Sends a DJ command; resolves with its ack, rejects with an ApiError.
   * Pressed while the connection is down, the command is kept (a
   * "commandwaiting" event says so) and sent on reconnect; its id makes a
   * resend safe, as the server applies an id at most once.
   */
  command(command, { onWaiting = null } = {}) {
    const id = randomID("c");
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, command, timer: null, viaHTTP: false, waiting: false, onWaiting };
      this.pending.set(id, entry);
      if (this.isOpen()) {
        this.ws.send(JSON.stringify(this.commandMessage(id, command)));
        entry.timer = this.later(() => this.commandOverHTTP(id), ACK_TIMEOUT_MS);
      } else {
        this.commandOverHTTP(id);
      }
    });
  }

  /** How many commands wait for the connection to come back. */
  get waitingCommands() {
    let count = 0;
    for (const [, entry] of this.pending) if (entry.waiting) count += 1;
    return count;
  }

  // The server can't be reached (the WebSocket is down and HTTP failed on
  // the network): keep the command for the reconnect instead of dropping it.
  keepForReconnect(id) {
    const entry = this.pending.get(id);
    if (!entry || this.closed) return false;
    entry.viaHTTP = false;
    entry.waiting = true;
    clearTimeout(entry.timer);
    entry.timer = null;
    if (entry.onWaiting) entry.onWaiting();
    this.emit("commandwaiting", { id, command: entry.command, waiting: this.waitingCommands });
    return true;
  }

  commandMessage(id, command) {
    const message = { type: "command", id, command };
    if (Number.isInteger(this.epoch)) message.epoch = this.epoch;
    return message;
  }

  // The same id over HTTP: the server applies a command id at most once,
  // so this is safe even if the WebSocket copy arrived.
  async commandOverHTTP(id) {
    const entry = this.pending.get(id);
    if (!entry || entry.viaHTTP) return;
    entry.viaHTTP = true;
    try {
      // Stamped with the DJ epoch like the WebSocket copy, so a command
      // from a DJ who lost the booth is refused (stale_epoch) here too.
      const epoch = Number.isInteger(this.epoch) ? this.epoch : undefined;
      const ack = await api.command(this.stationID, id, entry.command, epoch);
      this.settle(id, ack, null);
    } catch (error) {
      if (error && error.code === "network" && this.keepForReconnect(id)) return;
      this.settle(id, null, error);
    }
  }

  settle(id, ack, error) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    if (error) entry.reject(error);
    else entry.resolve(ack);
  }

  isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * A chat message (`{"type":"chat","id","text"}`); false when the socket
   * isn't open (nothing was sent). The server answers the author's copy
   * with `ref` = id, or an error with the id.
   */
  sendChat(id, text) {
    return this.sendRoom({ type: "chat", id, text }, id);
  }

  /** A reaction to the entry playing; a refusal comes back with the id. */
  react(id, entryID, emoji) {
    return this.sendRoom({ type: "react", id, entryID, emoji }, id);
  }

  /** A moderator's action: `{"type":"moderate","id","action",…}`. */
  moderate(id, action) {
    return this.sendRoom({ type: "moderate", id, ...action }, id);
  }

  /** A room calibration's message to the station's other listeners. */
  sendCalibration(signal) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify({ type: "room", signal }));
    return true;
  }

  sendRoom(message, id) {
    if (!this.isOpen()) return false;
    if (id) {
      this.roomIDs.add(id);
      if (this.roomIDs.size > 200) this.roomIDs.delete(this.roomIDs.values().next().value);
    }
    this.ws.send(JSON.stringify(message));
    return true;
  }

  later(fn, ms) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.emit("state", { state, attempt: this.attempt });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  url() {
    return liveURL(this.stationID, this.revision);
  }

  connect() {
    if (this.closed) return;
    // The first connection of a station link: the socket the page opened
    // as it loaded, if it is still there.
    const early = this.connectionNumber === 0 ? takeEarlyLive(this.stationID) : null;
    let ws;
    try {
      ws = early ? early.ws : new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.seq = 0;
    this.opened = false;
    this.connectionNumber += 1;
    ws.onopen = () => {
      this.opened = true;
      performance.clearMarks("wavelength:open");
      performance.mark("wavelength:open");
      this.lastMessageAt = performance.now();
      this.startPinging();
    };
    ws.onmessage = (event) => {
      // Stamped first thing: a pong's receive time (t3) for the clock.
      const at = performance.now();
      if (this.backlog) {
        // The early socket's messages are read first, in order.
        this.backlog.push({ data: event.data, at });
        return;
      }
      this.read(event.data, at);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.backlog = null;
      clearTimeout(this.pingTimer);
      clearInterval(this.watchdog);
      // Refused before the upgrade (the browser is told nothing more): the
      // station session checks access over HTTP when it sees this.
      if (!this.opened) this.emit("refused", {});
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      // A close event follows; reconnection happens there.
    };
    if (early) this.adopt(early);
  }

  /** One message from the server, which arrived at performance time `at`. */
  read(data, at) {
    this.lastMessageAt = performance.now();
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (!message || typeof message !== "object") return;
    try {
      this.handle(message, this.clock.localAt(at), at);
    } catch (error) {
      // A malformed message: ignore it rather than break the connection.
      console.warn("wavelength: ignored a malformed message", error);
    }
  }

  /**
   * Takes over the socket early-live.js opened as the page loaded: its
   * probes are this connection's, its messages are read in a task of their
   * own (as they would have come: never inside the caller's start()), and
   * anything arriving meanwhile waits behind them.
   */
  adopt(early) {
    const { ws } = early;
    for (const [nonce, at] of early.pings) this.pings.set(nonce, this.clock.localAt(at));
    // The probes answered meanwhile go to the clock now, so the player finds
    // it ready as it starts; read again in order below, they only count.
    for (const { data, at } of early.messages) {
      if (!data.includes('"pong"')) continue;
      try {
        const message = JSON.parse(data);
        if (message && message.type === "pong") this.probe(message, this.clock.localAt(at));
      } catch {}
    }
    if (ws.readyState === WebSocket.OPEN) {
      this.opened = true;
      this.lastMessageAt = performance.now();
      this.startPinging({ sent: early.sent, connectedAt: early.openedAt, lastPingAt: early.lastPingAt });
    }
    this.backlog = [...early.messages];
    setTimeout(() => {
      const backlog = this.backlog || [];
      this.backlog = null;
      for (const { data, at } of backlog) {
        if (this.ws !== ws) return;
        this.read(data, at);
      }
    }, 0);
  }

  scheduleReconnect() {
    if (this.closed) return;
    this.setState("reconnecting");
    const delay = Math.min(BACKOFF_CAP_MS, BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]);
    const jittered = delay * (0.5 + Math.random() * 0.5);
    this.attempt += 1;
    this.emit("retry", { attempt: this.attempt, delay: jittered });
    this.clearReconnect();
    this.reconnectTimer = this.later(() => {
      this.reconnectTimer = null;
      this.connect();
    }, jittered);
  }

  clearReconnect() {
    if (this.reconnectTimer === null) return;
    clearTimeout(this.reconnectTimer);
    this.timers.delete(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  /**
   * Reconnect at once (the browser came back online, or the page became
   * visible again) instead of waiting out the backoff. Only the reconnect
   * timer is cancelled: commands' ack timers keep running.
   */
  retryNow() {
    if (this.closed || this.ws) return;
    this.clearReconnect();
    this.attempt = 0;
    this.connect();
  }

  /** Lets the socket go without hearing from it again, and stops its pings. */
  dropSocket(reason) {
    clearTimeout(this.pingTimer);
    clearInterval(this.watchdog);
    this.backlog = null;
    if (!this.ws) return;
    this.ws.onopen = this.ws.onmessage = this.ws.onclose = this.ws.onerror = null;
    try {
      this.ws.close(1000, reason);
    } catch {}
    this.ws = null;
  }

  /**
   * Opens a fresh connection now (resuming from the last revision): the
   * upgrade carries the session cookie, so a listener who just became a
   * guest is known by name from then on.
   */
  reconnect() {
    if (this.closed) return;
    this.dropSocket("reconnecting");
    this.clearReconnect();
    this.attempt = 0;
    this.connect();
  }

  /** Probes on the schedule; an adopted socket's carry on from where it was. */
  startPinging({ sent = 0, connectedAt = performance.now(), lastPingAt = null } = {}) {
    clearTimeout(this.pingTimer);
    clearInterval(this.watchdog);
    this.connectedAt = connectedAt;
    if (!sent) this.pings.clear();
    const next = () => {
      if (!this.ws) return;
      this.ping();
      sent += 1;
      this.pingTimer = setTimeout(next, probeDelay(sent, performance.now() - this.connectedAt));
    };
    if (sent && lastPingAt !== null) {
      this.pingTimer = setTimeout(next, Math.max(0, lastPingAt + probeDelay(sent, lastPingAt - connectedAt) - performance.now()));
    } else {
      next();
    }
    // A connection that has gone silent (no pong, no update) is dead even
    // if the browser hasn't noticed: drop it and reconnect.
    this.watchdog = setInterval(() => {
      if (this.ws && performance.now() - this.lastMessageAt > SILENCE_LIMIT_MS) {
        const ws = this.ws;
        this.ws = null;
        ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
        try {
          ws.close();
        } catch {}
        clearTimeout(this.pingTimer);
        clearInterval(this.watchdog);
        this.scheduleReconnect();
      }
    }, 2000);
  }

  ping() {
    if (!this.isOpen()) return;
    const nonce = probeNonce();
    const text = JSON.stringify({ type: "ping", nonce });
    if (this.pings.size >= 32) this.pings.delete(this.pings.keys().next().value);
    // Stamped the instant before it goes to the socket (t0).
    this.pings.set(nonce, this.clock.localNow());
    this.ws.send(text);
  }

  /** `received`: the local time it arrived (a pong's t3); `at`: the same as performance time. */
  handle(message, received = this.clock.localNow(), at = performance.now()) {
    const sequence = readSequence(this.seq, message);
    this.seq = sequence.seq;
    if (sequence.resync && this.isOpen()) {
      // Missed messages on this connection: ask for the whole state again.
      this.ws.send(JSON.stringify({ type: "resync" }));
    }
    switch (message.type) {
      case "snapshot": {
        const { station, timeline, listeners } = message.snapshot;
        performance.clearMarks("wavelength:snapshot");
        performance.mark("wavelength:snapshot", { startTime: at });
        this.clock.hint(timeline.serverTime);
        this.revision = timeline.revision;
        this.tracks = knownTracks(timeline);
        this.attempt = 0;
        this.setState("live");
        this.emit("snapshot", { station, timeline, listeners });
        this.resendPending();
        break;
      }
      case "resumed":
        this.clock.hint(message.serverTime);
        this.attempt = 0;
        this.setState("live");
        this.emit("resumed", { revision: message.revision, listeners: message.listeners });
        this.resendPending();
        break;
      case "update": {
        if (isStaleTimeline(this.revision, message.timeline.revision)) break;
        const timeline = fillTracks(message.timeline, this.tracks || new Map());
        if (!timeline) {
          // It named a track this page doesn't hold: start afresh.
          if (this.isOpen()) this.ws.send(JSON.stringify({ type: "resync" }));
          break;
        }
        this.revision = timeline.revision;
        this.tracks = knownTracks(timeline);
        this.emit("timeline", { timeline });
        break;
      }
      case "listeners":
        this.emit("listeners", { count: message.count });
        break;
      case "role":
        this.role = message.role;
        if (Number.isInteger(message.epoch)) this.epoch = message.epoch;
        this.emit("role", { role: message.role, epoch: message.epoch });
        break;
      case "dj":
        if (Number.isInteger(message.epoch)) this.epoch = message.epoch;
        this.emit("dj", { epoch: message.epoch, present: message.present, name: typeof message.name === "string" ? message.name : null });
        break;
      case "access":
        this.access = message.role;
        this.emit("access", { role: message.role });
        break;
      case "removed": {
        const person = message.person || {};
        const self = this.selfID();
        const isSelf = Boolean(self && person.id === self);
        // Told before anything else so that the page can say why; then
        // the connection ends for good (the server closes it anyway).
        this.emit("removed", { person, reason: message.reason, self: isSelf });
        if (isSelf) this.finish("removed");
        break;
      }
      case "ended":
        this.emit("ended", {});
        this.finish("ended");
        break;
      case "party":
        this.emit("party", { party: message.party });
        break;
      case "votes":
        this.emit("votes", { votes: message.votes || {} });
        break;
      case "standing":
        this.emit("standing", { standing: message.standing });
        break;
      case "sound":
        this.emit("sound", { sound: message.sound });
        break;
      case "thumbs":
        this.emit("thumbs", { entryID: message.entryID, up: message.up, down: message.down });
        break;
      case "chatRoom":
        this.emit("chatroom", { room: message.room, connection: this.connectionNumber });
        break;
      case "chat":
        if (message.ref) this.roomIDs.delete(message.ref);
        this.emit("chat", { message: message.message, ref: message.ref || null });
        break;
      case "chatDeleted":
        this.emit("chatdeleted", { messageIDs: message.messageIDs || [], person: message.person || null, all: Boolean(message.all) });
        break;
      case "reactions":
        this.emit("reactions", { reactions: message.reactions });
        break;
      case "room":
        // Another device's room calibration message (room/calibration.js).
        this.emit("calibration", { signal: message.signal });
        break;
      case "clipWaiting":
        // A listener's voice clip waits for approval (the owner and co-DJs only).
        this.emit("clipwaiting", { clip: message.clip });
        break;
      case "hostOverride":
        this.emit("override", { kind: message.kind, trackID: message.trackID, requesterName: message.requesterName });
        break;
      case "ack":
        this.settle(message.ack.id, message.ack, null);
        break;
      case "error":
        if (message.code === ErrorCode.unsupportedVersion) {
          // This page is older than the server: reconnecting won't help.
          this.closed = true;
          this.setState("outdated");
          this.emit("servererror", { code: message.code, message: message.message });
          if (this.ws) this.ws.close();
          break;
        }
        if (!message.id && DENIED.has(message.code)) {
          // Not allowed to listen here (any more): say why and stop.
          this.emit("denied", { code: message.code, message: message.message });
          this.finish("denied");
          break;
        }
        if (message.id && this.pending.has(message.id)) {
          this.settle(message.id, null, new ApiError(message.message, { code: message.code, status: 400 }));
        } else if (message.code === ErrorCode.calibrationRefused) {
          // A room calibration's signal refused (a wrong code, say): the calibration says why.
          this.emit("calibration", { error: { code: message.code, message: message.message } });
        } else if (message.id ? this.roomIDs.has(message.id) : ROOM_CODES.has(message.code)) {
          if (message.id) this.roomIDs.delete(message.id);
          this.emit("roomerror", { id: message.id || null, code: message.code, message: message.message });
        } else {
          this.emit("servererror", { code: message.code, message: message.message });
        }
        break;
      case "pong":
        this.probe(message, received);
        break;
      default:
        break;
    }
  }

  /** A pong received at local time `received`: a probe for the clock, once. */
  probe(message, received) {
    const sent = this.pings.get(message.nonce);
    if (sent === undefined) return;
    this.pings.delete(message.nonce);
    this.clock.addProbe({
      sent,
      received,
      serverReceived: message.serverReceived,
      serverSent: message.serverSent,
      serverTime: message.serverTime,
    });
    this.emit("clock", { rtt: received - sent });
  }

  /** Ends the connection for good with a final state (removed, ended, denied). */
  finish(state) {
    if (this.closed && this.state === state) return;
    this.close(state);
  }

  // Commands sent on a socket that died before their ack: send again with
  // the same id (applied at most once by the server).
  resendPending() {
    for (const [id, entry] of this.pending) {
      if (entry.viaHTTP || !this.isOpen()) continue;
      clearTimeout(entry.timer);
      entry.waiting = false;
      this.ws.send(JSON.stringify(this.commandMessage(id, entry.command)));
      entry.timer = this.later(() => this.commandOverHTTP(id), ACK_TIMEOUT_MS);
    }
  }
}
