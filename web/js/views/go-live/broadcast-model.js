// Going live from the browser (the booth's "Go live" panel), apart from the
// DOM, the microphone and the socket: what MediaRecorder is asked for, the
// broadcast socket's address and messages, the server's answers read into
// plain objects, the show's title, cutting a recorder chunk into frames the
// server takes, the level meter's numbers, and when the music bed ducks
// under the DJ's voice. Plain data and pure functions, unit-tested in
// e2e/js/broadcast.test.js (with what the panel shows in each state);
// broadcast-panel.js, broadcast-audio.js and
// broadcast-link.js do the rest.

import { ErrorCode } from "../../api/error-codes.js";

/** What the server decodes: Opus in WebM, as Chromium and Firefox record it. */
export const MIME_TYPE = "audio/webm;codecs=opus";
/** The encoder's bitrate: music-grade, under the server's cap. */
export const BITS_PER_SECOND = 128_000;
/** How often the recorder hands over a chunk (ms). */
export const TIMESLICE_MS = 250;
/** The largest binary message the server takes (64 KiB). */
export const MAX_FRAME_BYTES = 64 * 1024;
/** The longest title the server takes. */
export const TITLE_MAX = 200;
/** Unsent audio past this (about 16 s at 128 kbps) means the uplink can't keep up. */
export const SLOW_UPLINK_BYTES = 256 * 1024;

/** Talk-over: the voice level that lowers the music, how low, and for how long after the voice stops. */
export const DUCK = Object.freeze({
  thresholdDb: -38,
  level: 0.2,
  holdMs: 600,
  /** setTargetAtTime's time constants (s): down quickly, back up gently. */
  attack: 0.04,
  release: 0.3,
});

/** The meter: its floor (dBFS, shown as 0) and how often a screen reader hears a new value. */
export const METER = Object.freeze({ floorDb: -60, announceMs: 1000, fallPerSecond: 60, peakHoldMs: 1200 });

/**
 * MIME_TYPE when `isSupported(type)` (pass MediaRecorder.isTypeSupported)
 * accepts it, else null: the server reads nothing else, so there is no
 * second choice.
 */
export function chooseBroadcastType(isSupported) {
  if (typeof isSupported !== "function") return null;
  try {
    return isSupported(MIME_TYPE) ? MIME_TYPE : null;
  } catch {
    return null;
  }
}

/** ws(s)://host/api/stations/ID/broadcast for the page at `where` ({protocol, host}, e.g. location). */
export function broadcastURL(where, stationID) {
  const scheme = where && where.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${where.host}/api/stations/${encodeURIComponent(stationID)}/broadcast`;
}

/**
 * The title as sent: control characters out, runs of space as one, trimmed,
 * at most TITLE_MAX UTF-16 units (so at most that many characters however
 * the server counts them), never half a surrogate pair. "" for none.
 */
export function cleanTitle(value, max = TITLE_MAX) {
  if (typeof value !== "string") return "";
  let text = value.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();
  if (text.length > max) {
    text = text.slice(0, max);
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) text = text.slice(0, -1);
    text = text.trimEnd();
  }
  return text;
}

/** The first text message: {"type":"start","mimeType":…,"title":…} (no title when there is none). */
export function startMessage({ mimeType = MIME_TYPE, title = "" } = {}) {
  const message = { type: "start", mimeType };
  const clean = cleanTitle(title);
  if (clean) message.title = clean;
  return JSON.stringify(message);
}

/** A new title while live: {"type":"title","title":…}. */
export function titleMessage(title) {
  return JSON.stringify({ type: "title", title: cleanTitle(title) });
}

/**
 * One of the server's text messages, read: {type: "onAir", stationID},
 * {type: "error", code, message}, {type: "other", name} for a type this
 * page doesn't know (ignored), or null for something that isn't a message.
 */
export function readServerMessage(text) {
  if (typeof text !== "string") return null;
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value) || typeof value.type !== "string") return null;
  if (value.type === "onAir") return { type: "onAir", stationID: typeof value.stationID === "string" ? value.stationID : null };
  if (value.type === "error") {
    return {
      type: "error",
      code: typeof value.code === "string" ? value.code : "",
      message: typeof value.message === "string" ? value.message : "",
    };
  }
  return { type: "other", name: value.type };
}

const CODE_WORDS = {
  [ErrorCode.forbidden]: "Only the station's owner, or a host of the show on the air now, may go live here.",
  [ErrorCode.liveSourceBusy]: "Someone is already live on this station.",
  [ErrorCode.notFound]: "This station doesn't exist any more.",
  [ErrorCode.badMessage]: "The server didn't understand this page.",
  [ErrorCode.rateLimited]: "Too many tries: wait a moment and try again.",
  [ErrorCode.signInRequired]: "Sign in to go live.",
};

/**
 * What the page shows for the server's error: its own message, word for
 * word; words of our own only when it sent none.
 */
export function errorText(error) {
  if (error && typeof error.message === "string" && error.message.trim()) return error.message;
  const code = error && error.code;
  return CODE_WORDS[code] || "The server ended the broadcast.";
}

/**
 * Why the socket closed when the server said nothing first (a close
 * without an error message): `live` says whether we were on the air.
 */
export function closeText(code, live) {
  if (live) return "The connection to the server was lost: you're off the air.";
  if (code === 1006 || !code) return "Couldn't reach the server to go live. Check the connection and try again.";
  return `The server closed the connection (${code}) before you went on the air.`;
}

/** [start, end) byte ranges that cut a chunk of `size` bytes into frames of at most `max`. */
export function frameRanges(size, max = MAX_FRAME_BYTES) {
  const total = Math.max(0, Math.floor(Number(size) || 0));
  const step = Math.max(1, Math.floor(Number(max) || MAX_FRAME_BYTES));
  const ranges = [];
  for (let start = 0; start < total; start += step) ranges.push([start, Math.min(total, start + step)]);
  return ranges;
}

/** Whether this much audio waiting to go out means the uplink can't keep up. */
export function uplinkSlow(bufferedAmount) {
  return Number(bufferedAmount) > SLOW_UPLINK_BYTES;
}

// ------------------------------------------------------------- levels

/** {rms, peak} of samples in −1…1 (an AnalyserNode's time-domain data). */
export function levelsOf(samples) {
  let sum = 0;
  let peak = 0;
  const n = samples ? samples.length : 0;
  for (let i = 0; i < n; i++) {
    const s = samples[i];
    sum += s * s;
    const a = Math.abs(s);
    if (a > peak) peak = a;
  }
  return { rms: n ? Math.sqrt(sum / n) : 0, peak };
}

/** Amplitude → dBFS (−Infinity for silence). */
export function toDb(amplitude) {
  const a = Number(amplitude);
  return a > 0 ? 20 * Math.log10(a) : -Infinity;
}

/** dBFS → the meter's 0…100: the floor and below are 0, full scale is 100, whole numbers. */
export function meterValue(db, floorDb = METER.floorDb) {
  if (!Number.isFinite(db)) return db === Infinity ? 100 : 0;
  const value = Math.round(((db - floorDb) / -floorDb) * 100);
  return Math.min(100, Math.max(0, value));
}

/** The meter's words for a screen reader: "Silent", "−18 dB", "0 dB, too loud". */
export function meterText(value, floorDb = METER.floorDb) {
  const v = Math.min(100, Math.max(0, Number(value) || 0));
  if (v <= 0) return "Silent";
  const db = Math.round(floorDb + (v / 100) * -floorDb);
  if (db >= -1) return "0 dB, too loud";
  return `${db < 0 ? "−" : ""}${Math.abs(db)} dB`;
}

/**
 * The bar shown after `dtMs`: it jumps up to a louder `next` at once and
 * falls back by `fallPerSecond` units a second, as a studio meter does.
 */
export function meterFall(shown, next, dtMs, fallPerSecond = METER.fallPerSecond) {
  const now = Math.max(0, Number(next) || 0);
  const before = Math.max(0, Number(shown) || 0);
  if (now >= before) return now;
  return Math.max(now, before - (fallPerSecond * Math.max(0, Number(dtMs) || 0)) / 1000);
}

/**
 * The peak marker: {value, at}. A higher peak takes over; an old one is
 * held for `holdMs`, then follows the level down.
 */
export function peakHold(held, value, now, holdMs = METER.peakHoldMs) {
  if (!held || value >= held.value || now - held.at > holdMs) return { value, at: now };
  return held;
}

/**
 * Whether aria-valuenow should take `value` now: it changed, and a screen
 * reader last heard one at least `everyMs` ago (the bar itself moves at
 * animation rate). Going silent, or leaving silence, is said at once.
 */
export function shouldAnnounce(last, value, now, everyMs = METER.announceMs) {
  if (!last) return true;
  if (value === last.value) return false;
  if ((value === 0) !== (last.value === 0)) return true;
  return now - last.at >= everyMs;
}

// ------------------------------------------------------------ talk-over

/**
 * The talk-over decision, one step: `state` is {ducked, loudAt} (null at
 * first), `voiceDb` the microphone's level now. The music goes down as soon
 * as the voice is over the threshold, and back up once it has been quiet
 * for `holdMs`. Off, it never ducks.
 */
export function duckStep(state, voiceDb, now, { enabled = true, thresholdDb = DUCK.thresholdDb, holdMs = DUCK.holdMs } = {}) {
  const before = state || { ducked: false, loudAt: -Infinity };
  if (!enabled) return { ducked: false, loudAt: -Infinity };
  if (Number.isFinite(voiceDb) && voiceDb >= thresholdDb) return { ducked: true, loudAt: now };
  if (before.ducked && now - before.loudAt < holdMs) return { ducked: true, loudAt: before.loudAt };
  return { ducked: false, loudAt: before.loudAt };
}

/** The music's talk-over gain and the time constant to glide there: {gain, timeConstant}. */
export function duckTarget(ducked, { level = DUCK.level, attack = DUCK.attack, release = DUCK.release } = {}) {
  return ducked ? { gain: level, timeConstant: attack } : { gain: 1, timeConstant: release };
}

/** A fader's 0…100 as a gain (a gentle curve: half way is about −12 dB). */
export function faderGain(value) {
  const v = Math.min(100, Math.max(0, Number(value) || 0)) / 100;
  return v * v;
}

// ------------------------------------------------------------ the panel

/** 83_400 → "1:23", 3_723_000 → "1:02:03" (whole seconds gone by). */
export function elapsedText(ms) {
  const total = Math.max(0, Math.floor((Number(ms) || 0) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * The microphones to choose from, from enumerateDevices(): [{id, label}],
 * audio inputs only, each once, named "Microphone 2" when the browser
 * hides names (before permission).
 */
export function microphoneChoices(devices) {
  const seen = new Set();
  const choices = [];
  for (const device of Array.isArray(devices) ? devices : []) {
    if (!device || device.kind !== "audioinput" || typeof device.deviceId !== "string" || seen.has(device.deviceId)) continue;
    seen.add(device.deviceId);
    const label = typeof device.label === "string" && device.label.trim() ? device.label.trim() : `Microphone ${choices.length + 1}`;
    choices.push({ id: device.deviceId, label });
  }
  return choices;
}

/** The panel's states in which a broadcast is under way (it can't close, leaving ends it). */
export const ACTIVE = new Set(["connecting", "live", "stopping"]);

/**
 * What the Go live panel shows in `state` ("closed", "opening", "ready",
 * "failed", "connecting", "live", "stopping", "ended"), with or without an
 * open desk and a chosen music file: which buttons, the lamp's words, and
 * what is disabled.
 */
export function panelLook(state, { hasDesk = false, hasBed = false } = {}) {
  const open = state !== "closed";
  const active = ACTIVE.has(state);
  const onAir = state === "live" || state === "stopping";
  return {
    open,
    active,
    onAir,
    startDisabled: state === "opening",
    stopDisabled: state === "stopping",
    stopLabel: state === "connecting" ? "Cancel" : "Stop",
    titleSend: state === "live",
    lampText: onAir ? "On the air" : state === "connecting" ? "Standing by" : "Off the air",
    micDisabled: !hasDesk,
    bedPlayDisabled: !hasDesk || !hasBed,
  };
}
