// A room calibration, as this device takes part in it: the *meter* (this
// phone calls the room, records, measures and sends the figures) or a
// *speaker* (it answers a call, plays its chirps in its slot and takes its
// figure). The station passes the messages only between the call's devices
// (RoomSignal, RoomCalls): the caller's own, signed in as the same person,
// are asked; any other joins with the six-digit code the meter shows. The
// recording never leaves the meter.
//
// The meter's plan: its own chirps first, then each device's slot, each
// REPS chirps SPACING_S apart, with MAX_DELAY_S after a slot's last chirp
// so a late device's sound never runs into the next slot.

import { CHIRP, chirp } from "./chirp.js";
import { MAX_DELAY_S, measureRoom } from "./arrivals.js";
import { openMeter } from "./meter.js";
import { applyResidual, delayFor, loadBook, routeKey, saveBook } from "./route-delays.js";

export const REPS = 4;
export const SPACING_S = 0.25;
/** How long the meter waits for devices to join before it gives up (the server keeps a call 5 min). */
export const CALL_MS = 4 * 60 * 1000;
const LEAD_MS = 1500;
const SLOT_MS = Math.round((REPS - 1) * SPACING_S * 1000 + CHIRP.seconds * 1000 + MAX_DELAY_S * 1000 + 300);
/** A speaker gives up on a meter that sent no figures this long after its plan ended. */
const RESULT_PATIENCE_MS = 15000;
const DEVICE_KEY = "wavelength.roomDevice";
const ROUTE_MOVE_S = 0.03;
const NAME_KEY = "wavelength.roomDeviceName";

function storedKey() {
  try {
    let key = localStorage.getItem(DEVICE_KEY);
    if (!key || !/^[A-Za-z0-9-]{8,64}$/.test(key)) {
      key = crypto.randomUUID ? crypto.randomUUID() : `d-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
      localStorage.setItem(DEVICE_KEY, key);
    }
    return key;
  } catch {
    return `d-${Math.random().toString(36).slice(2, 12)}`;
  }
}

export function storedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

function session() {
  return `cal-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * One device's part. `send(signal)` passes a signal to the station,
 * `serverNow()` reads the shared clock (ms), `onChange(state)` redraws.
 * state: {phase, message, progress, results, call, own}.
 */
export class RoomCalibration {
  constructor({ player, send, serverNow, onChange }) {
    this.player = player;
    this.send = send;
    this.serverNow = serverNow;
    this.onChange = onChange;
    this.device = storedKey();
    this.book = loadBook();
    this.state = { phase: "idle", message: "", progress: null, results: [], call: null, own: null, code: null, joinedCount: 0 };
    this.timers = new Set();
    /** Who sent each call seen (session → the server's `sender`): a plan,
     * figures or cancel count only from the connection that called. */
    this.callers = new Map();
    this.joinedSender = null;
    this.route = this.currentRoute();
    this.applyRoute();
  }

  get supported() {
    return Boolean(this.player && typeof this.player.playChirps === "function");
  }

  set(changes) {
    Object.assign(this.state, changes);
    this.onChange(this.state);
  }

  later(fn, ms) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  // --- The route ------------------------------------------------------------

  /**
   * The output route: the sink the context plays to, and the latency it
   * reports, which moves by a few ms on its own but by tens when the
   * output changes; under ROUTE_MOVE_S of movement it is the same route.
   */
  currentRoute() {
    const ctx = this.player && this.player.ctx;
    const latency = ctx ? ctx.outputLatency || 0 : 0;
    if (this.routeLatencyS == null || Math.abs(latency - this.routeLatencyS) > ROUTE_MOVE_S) this.routeLatencyS = latency;
    return routeKey({ sinkId: (ctx && typeof ctx.sinkId === "string" && ctx.sinkId) || "", outputLatencyS: this.routeLatencyS });
  }

  /** The route's stored correction into the player. */
  applyRoute() {
    const delay = delayFor(this.book, this.route);
    if (this.player && this.player.setOutputDelay) this.player.setOutputDelay(delay);
    this.set({ own: { route: this.route, delayMs: delay, measured: Boolean(this.book[this.route]) } });
  }

  /** A devicechange, or a moved outputLatency: another route, its own delay. */
  checkRoute() {
    const route = this.currentRoute();
    if (route === this.route) return false;
    this.route = route;
    this.applyRoute();
    if (!this.book[route]) this.set({ message: "Your sound output changed: calibrate the room again so this device stays in step." });
    return true;
  }

  // --- The meter --------------------------------------------------------------

  async startMeter({ name = "", distanceM = 0 } = {}) {
    if (this.state.phase !== "idle" && this.state.phase !== "done") return;
    if (!this.supported) return this.set({ phase: "done", message: "This device plays in basic mode: room calibration needs Web Audio." });
    const ctx = this.player.ensureContext();
    this.set({ phase: "opening", message: "Opening the microphone…", results: [], progress: null });
    let meter;
    try {
      meter = await openMeter(ctx);
    } catch (error) {
      return this.set({ phase: "done", message: `${error.message} Nothing was changed.` });
    }
    this.meter = meter;
    this.session = session();
    this.joined = new Map();
    this.distanceM = Math.max(0, Math.min(50, Number(distanceM) || 0));
    const called = { kind: "call", session: this.session };
    const given = String(name || storedName() || "").trim().slice(0, 40);
    if (given) called.name = given;
    this.send(called);
    this.set({ phase: "calling", code: null, joinedCount: 0, message: "Asking the station for this calibration's code…", progress: null });
    this.later(() => {
      if (this.state.phase !== "calling") return;
      this.cancel();
      this.set({ phase: "done", code: null, message: "No one started the measuring, so the calibration ended. Calibrate again when the devices are ready." });
    }, CALL_MS);
  }

  /** "Start measuring": the devices that joined get their slots. */
  plan() {
    if (this.state.phase !== "calling") return;
    const devices = [...this.joined.entries()].map(([device, name]) => ({ device, name }));
    if (!devices.length) {
      return this.set({ message: "No device has joined yet: type the code on the other devices first." });
    }
    const t0 = Math.round(this.serverNow() + LEAD_MS);
    const slots = [{ device: this.device, at: t0 }, ...devices.map((d, i) => ({ device: d.device, at: t0 + (i + 1) * SLOT_MS }))];
    this.planned = { t0, slots, devices, end: t0 + slots.length * SLOT_MS };
    this.meter.begin();
    this.send({ kind: "plan", session: this.session, slots });
    const own = this.chirpTimes(t0);
    this.player.playChirps(chirp(this.player.ctx.sampleRate), own, this.planned.end);
    this.set({ phase: "measuring", code: null, message: `Measuring ${devices.length} device${devices.length === 1 ? "" : "s"}: keep the room quiet for ${Math.ceil((this.planned.end - this.serverNow()) / 1000)} s.`, progress: 0 });
    this.tick();
  }

  tick() {
    if (this.state.phase !== "measuring") return;
    const { t0, end } = this.planned;
    const now = this.serverNow();
    if (now >= end + 300) return this.finish();
    this.set({ progress: Math.max(0, Math.min(1, (now - t0) / (end - t0))) });
    this.later(() => this.tick(), 250);
  }

  chirpTimes(at) {
    return Array.from({ length: REPS }, (_, r) => at + r * SPACING_S * 1000);
  }

  async finish() {
    this.set({ phase: "analysing", message: "Working out each device's delay…", progress: 1 });
    const recording = await this.meter.stop();
    const { slots, devices } = this.planned;
    const index = (serverMs) => Math.round((this.player.ctxAtServer(serverMs) - recording.startFrame / recording.rate) * recording.rate);
    const measured = measureRoom({
      recording: recording.samples,
      rate: recording.rate,
      template: chirp(recording.rate),
      meter: this.chirpTimes(slots[0].at).map(index),
      devices: slots.slice(1).map((slot) => ({ device: slot.device, expected: this.chirpTimes(slot.at).map(index) })),
      distanceM: this.distanceM,
    });
    const nameOf = (device) => String((devices.find((d) => d.device === device) || {}).name || "A device").slice(0, 40);
    const results = measured.results.map((r) =>
      r.problem ? { device: r.device, name: nameOf(r.device), problem: r.problem } : { device: r.device, name: nameOf(r.device), delayMs: Math.round(r.delayMs * 100) / 100 },
    );
    this.send({ kind: "result", session: this.session, results });
    const named = results;
    const heard = results.filter((r) => r.delayMs != null).length;
    this.set({
      phase: "done",
      results: named,
      message: recording.gaps ? "The recording had gaps: the figures may be off. Calibrate again if the sound is not together." : `Done: ${heard} of ${results.length} measured.`,
    });
  }

  /** The meter stops (the screen closed): the devices stop waiting. */
  cancel() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.meter && ["calling", "measuring", "analysing"].includes(this.state.phase)) {
      this.meter.close();
      this.send({ kind: "cancel", session: this.session });
    }
    if (this.player && this.player.unduck) this.player.unduck();
  }

  // --- Every device: what others send ----------------------------------------

  receive(signal) {
    if (!signal || typeof signal !== "object") return;
    switch (signal.kind) {
      case "call":
        if (signal.session === this.session && ["calling", "measuring", "analysing"].includes(this.state.phase)) {
          // This meter's own call, back from the station with its code.
          if (signal.code && this.state.phase === "calling") {
            this.set({ code: signal.code, message: "On each other device, open this station and take part with this code. Your own signed-in devices are asked already." });
          }
          return;
        }
        if (signal.code && signal.code === this.pendingCode) {
          // Let in with the code: whose call this is, and from which connection its plan comes.
          this.pendingCode = null;
          this.callers.set(signal.session, signal.sender);
          this.joinedSession = signal.session;
          this.joinedSender = signal.sender;
          this.waitForPlan(signal.session);
          return this.set({ phase: "waiting", call: null, message: `Taking part: ${signal.from || "The measuring phone"} will play this device's chirp when it starts measuring.` });
        }
        // Asked as one of the caller's own devices. The first caller of a
        // session keeps it: another can't take it over.
        if (this.callers.has(signal.session)) return;
        this.callers.set(signal.session, signal.sender);
        if (this.callers.size > 16) this.callers.delete(this.callers.keys().next().value);
        this.set({ call: { session: signal.session, sender: signal.sender, from: signal.from || "Someone", name: signal.name || "" }, message: "" });
        break;
      case "join":
        if (this.state.phase === "calling" && signal.session === this.session && signal.device && this.joined.size < 12) {
          this.joined.set(signal.device, signal.name || signal.from || "A device");
          this.set({ joinedCount: this.joined.size, message: `${this.joined.size} device${this.joined.size === 1 ? "" : "s"} taking part. Start measuring when all are in.` });
        }
        break;
      case "plan":
        if (this.joinedSession === signal.session && signal.sender === this.joinedSender) this.playSlot(signal);
        break;
      case "result":
        // Figures count only from the connection that called (the server
        // says who sent what): another listener can't forge a figure.
        if (this.callers.has(signal.session) && this.callers.get(signal.session) === signal.sender) this.takeResult(signal);
        break;
      case "cancel":
        if (!this.callers.has(signal.session) || this.callers.get(signal.session) !== signal.sender) return;
        if (this.joinedSession === signal.session) {
          this.joinedSession = null;
          if (this.player.unduck) this.player.unduck();
          this.set({ phase: "idle", call: null, message: "The measuring phone stopped: your correction stays as it was." });
        } else if (this.state.call && this.state.call.session === signal.session) {
          this.set({ call: null });
        }
        break;
      default:
        break;
    }
  }

  /** "Take part": this device answers the call. */
  join(name) {
    const call = this.state.call;
    if (!call) return;
    if (!this.supported) return this.set({ call: null, message: "This device plays in basic mode: room calibration needs Web Audio." });
    const clean = this.keepName(name);
    this.player.ensureContext();
    this.joinedSession = call.session;
    this.joinedSender = call.sender;
    this.send({ kind: "join", session: call.session, device: this.device, name: clean || "A device" });
    this.set({ phase: "waiting", call: null, message: `Taking part: ${call.from}'s phone will play this device's chirp when it starts measuring.` });
    this.waitForPlan(call.session);
  }

  /**
   * Takes part in the calibration whose phone shows `code` (six digits;
   * spaces are fine): the station lets this device in and says whose call
   * it is (`receive`), or refuses (`refused`).
   */
  joinWithCode(code, name) {
    if (!this.supported) return this.set({ message: "This device plays in basic mode: room calibration needs Web Audio." });
    const digits = String(code || "").replace(/\s+/g, "");
    if (!/^[0-9]{6}$/.test(digits)) return this.set({ message: "A calibration's code is six digits: it shows on the measuring phone." });
    const clean = this.keepName(name);
    this.player.ensureContext();
    this.pendingCode = digits;
    this.send({ kind: "join", session: "by-code", code: digits, device: this.device, name: clean || "A device" });
    this.set({ phase: "joining", call: null, message: "Joining the calibration…" });
  }

  /** The station refused a signal (a wrong code, a call that ended). */
  refused(error) {
    if (this.state.phase !== "joining") return;
    this.pendingCode = null;
    this.set({ phase: "idle", message: (error && error.message) || "The station refused that code." });
  }

  keepName(name) {
    const clean = String(name || "").trim().slice(0, 40);
    try {
      if (clean) localStorage.setItem(NAME_KEY, clean);
    } catch {
      // The name is only a convenience.
    }
    return clean;
  }

  /** A meter that never sends its plan (it left): stop waiting. Only for
   * this call: a later calibration has timers of its own. */
  waitForPlan(session) {
    this.later(() => {
      if (this.state.phase === "waiting" && this.joinedSession === session) {
        this.joinedSession = null;
        this.set({ phase: "idle", message: "The measuring phone never started: your correction stays as it was." });
      }
    }, CALL_MS + 10000);
  }

  dismissCall() {
    this.set({ call: null });
  }

  playSlot(plan) {
    const slot = (plan.slots || []).find((s) => s.device === this.device);
    if (!slot) return;
    const end = Math.max(...plan.slots.map((s) => s.at)) + SLOT_MS;
    const late = this.player.playChirps(chirp(this.player.ctx.sampleRate), this.chirpTimes(slot.at), end);
    this.set({ phase: "playing", message: late ? "This device was too late for some of its chirps: the phone may not hear it." : "Playing this device's chirp in its turn…" });
    const session = plan.session;
    this.later(() => {
      if (this.state.phase === "playing" && this.joinedSession === session) {
        this.joinedSession = null;
        this.player.unduck();
        this.set({ phase: "idle", message: "The measuring phone left before it sent the figures: your correction stays as it was." });
      }
    }, end - this.serverNow() + RESULT_PATIENCE_MS);
  }

  takeResult(signal) {
    const results = (signal.results || []).slice(0, 12);
    // Every device that took part sees the room's figures.
    const shown = results.map((r) => ({ ...r, name: r.device === this.device ? "This device" : r.name || "A device" }));
    this.set({ results: shown, resultsFrom: signal.from || "" });
    const mine = results.find((r) => r.device === this.device);
    if (!mine || this.joinedSession !== signal.session) return;
    this.joinedSession = null;
    if (mine.problem != null || typeof mine.delayMs !== "number") {
      return this.set({ phase: "done", message: `${mine.problem || "The phone could not measure this device."} Your correction stays as it was.` });
    }
    const applied = applyResidual(this.book, this.route, mine.delayMs, Date.now());
    if (applied.error) return this.set({ phase: "done", message: applied.error });
    this.book = applied.book;
    saveBook(this.book);
    this.applyRoute();
    const change = Math.abs(mine.delayMs) < 0.5 ? "already in step" : `${mine.delayMs > 0 ? "late" : "early"} by ${Math.abs(mine.delayMs).toFixed(1)} ms`;
    // Songs are scheduled seconds ahead, so each still starts on time; only
    // where there is no "ahead" (tuning in, a skip) the device starts that
    // much further into the song.
    const far = applied.delayMs > 100 ? " After a skip or on tuning in, it joins the song that much further in, so the room stays together." : "";
    this.set({ phase: "done", message: `This device was ${change}: it now starts ${applied.delayMs.toFixed(1)} ms early, for this output.${far}` });
  }

  destroy() {
    this.cancel();
  }
}
