// A voice clip's recorder, in words and numbers (no DOM, no microphone):
// the state machine the booth's "Voice clip" and a listener's "Send a
// shout-out" share, the countdown and what it announces, the note, the
// level bars and the recorded clip's waveform. Unit-tested in
// e2e/js/clips.test.js; recorder.js (with recorder-take.js and
// recorder-view.js) drives it with the clock and the
// microphone's events.
//
//   idle ─record─▶ asking ─micOpen─▶ recording ─stop / tick at 30 s─▶ stopping ─stopped─▶ recorded
//     ▲              │ micFailed                                                          │ send
//     │              ▼                                                                    ▼
//     └──────── (back where it was) ◀─────────── failed (the recording kept) ◀──────── sending ─sent─▶ sent
//
// "record" again from recorded (Re-record) or sent starts over; a
// recording is kept until a new one has really been made.

import { ErrorCode } from "../../api/error-codes.js";

/** The longest a clip may be (the server refuses longer: 400 too_long). */
export const CLIP_MAX_MS = 30_000;
/** The shortest the server takes (400 bad_audio under half a second). */
export const CLIP_MIN_MS = 500;
/** A clip's note: one line of at most 120 characters. */
export const NOTE_MAX = 120;
/** Seconds left at which the countdown is said aloud (politely), once each. */
export const ANNOUNCE_AT = Object.freeze([20, 10, 5]);

export function initialRecorder() {
  return {
    status: "idle", // idle | asking | recording | stopping | recorded | sending | sent
    startedAt: null,
    elapsedMs: 0,
    /** The recording kept: {blob, durationMs}, or null. */
    recording: null,
    /** Stopped by the 30 s cap rather than by the person. */
    capped: false,
    /** What the polite live region should say now ("" for nothing new). */
    announce: "",
    error: "",
    /** The server's ClipView once sent. */
    sent: null,
  };
}

/** Whole seconds left to record, counted up (30 … 1), never below 0. */
export function secondsLeft(elapsedMs, maxMs = CLIP_MAX_MS) {
  return Math.max(0, Math.ceil(((Number(maxMs) || 0) - (Number(elapsedMs) || 0)) / 1000));
}

/** 27_000 → "0:27" (whole seconds, rounded down). */
export function clockText(ms) {
  const total = Math.max(0, Math.floor((Number(ms) || 0) / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** A clip's length in words for a screen reader and a row: "3 seconds", "1 second", "0:31" past a minute. */
export function lengthText(ms) {
  const seconds = Math.max(0, Math.round((Number(ms) || 0) / 1000));
  if (seconds >= 60) return clockText(seconds * 1000);
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

/**
 * What the countdown says between `beforeMs` and `afterMs` recorded: "20
 * seconds left" when it crossed 20 s left (likewise 10 and 5), else "".
 * The nearest to the end wins when a slow tick crossed two.
 */
export function countdownAnnouncement(beforeMs, afterMs, maxMs = CLIP_MAX_MS) {
  const leftBefore = maxMs - beforeMs;
  const leftAfter = maxMs - afterMs;
  let said = "";
  for (const seconds of ANNOUNCE_AT) {
    const at = seconds * 1000;
    if (leftBefore > at && leftAfter <= at) said = `${seconds} seconds left`;
  }
  return said;
}

/** Takes one event; returns the next state (never changes `state`). */
export function recorderStep(state, event, { maxMs = CLIP_MAX_MS, minMs = CLIP_MIN_MS } = {}) {
  const s = state || initialRecorder();
  const type = event && event.type;
  switch (type) {
    case "record":
      if (s.status === "asking" || s.status === "recording" || s.status === "stopping" || s.status === "sending") return s;
      return { ...s, status: "asking", startedAt: null, elapsedMs: 0, capped: false, announce: "", error: "", sent: s.status === "sent" ? null : s.sent };
    case "micOpen":
      if (s.status !== "asking") return s;
      return { ...s, status: "recording", startedAt: event.at, elapsedMs: 0, announce: `Recording. ${secondsLeft(0, maxMs)} seconds at most.` };
    case "micFailed":
      if (s.status !== "asking") return s;
      return { ...s, status: s.recording ? "recorded" : "idle", startedAt: null, announce: "", error: event.message || "The microphone didn't open." };
    case "tick": {
      if (s.status !== "recording") return s;
      const elapsedMs = Math.min(maxMs, Math.max(s.elapsedMs, event.at - s.startedAt));
      const said = countdownAnnouncement(s.elapsedMs, elapsedMs, maxMs);
      if (elapsedMs >= maxMs) {
        return { ...s, status: "stopping", elapsedMs: maxMs, capped: true, announce: `Stopped at ${maxMs / 1000} seconds, the longest a clip can be.` };
      }
      return { ...s, elapsedMs, announce: said };
    }
    case "stop": {
      if (s.status !== "recording") return s;
      const at = Number.isFinite(event.at) ? event.at - s.startedAt : s.elapsedMs;
      return { ...s, status: "stopping", elapsedMs: Math.min(maxMs, Math.max(s.elapsedMs, at)), announce: "" };
    }
    case "stopped": {
      if (s.status !== "stopping" && s.status !== "recording") return s;
      const durationMs = s.elapsedMs;
      if (!event.blob || !event.blob.size || durationMs < minMs) {
        return {
          ...s, status: s.recording ? "recorded" : "idle", startedAt: null, announce: "",
          error: "That was too short: record at least half a second.",
        };
      }
      return {
        ...s, status: "recorded", startedAt: null, recording: { blob: event.blob, durationMs },
        announce: s.capped ? s.announce || `Recorded ${lengthText(durationMs)}.` : `Recorded ${lengthText(durationMs)}.`, error: "",
      };
    }
    case "send":
      if (!canSend(s)) return s;
      return { ...s, status: "sending", announce: "Sending…", error: "" };
    case "sent":
      if (s.status !== "sending") return s;
      return { ...s, status: "sent", recording: null, sent: event.clip || null, announce: event.text || "Sent.", error: "" };
    case "failed":
      if (s.status !== "sending") return s;
      // The recording stays, so it can go again.
      return { ...s, status: "recorded", announce: "", error: event.message || "It didn't send. Your recording is still here: try again." };
    case "discard":
      if (s.status === "sending") return s;
      return initialRecorder();
    default:
      return s;
  }
}

/** Whether there is a recording that may be sent now. */
export function canSend(state) {
  return Boolean(state && state.status === "recorded" && state.recording && state.recording.durationMs >= CLIP_MIN_MS);
}

/** Which controls show and how (the DOM follows this): {record, stop, preview, rerecord, send, note}. */
export function recorderControls(state) {
  const s = state || initialRecorder();
  const recording = s.status === "recording";
  const has = Boolean(s.recording) && (s.status === "recorded" || s.status === "sending");
  return {
    record: { shown: !has, pressed: recording || s.status === "stopping", disabled: s.status === "asking" || s.status === "stopping" },
    stop: { shown: recording || s.status === "stopping", disabled: s.status === "stopping" },
    preview: { shown: has, disabled: s.status === "sending" },
    rerecord: { shown: has, disabled: s.status === "sending" },
    send: { shown: has, disabled: !canSend(s), busy: s.status === "sending" },
    clock: { left: secondsLeft(s.elapsedMs), text: clockText(secondsLeft(s.elapsedMs) * 1000) },
  };
}

/**
 * A note as the server takes it: one line (control characters and the
 * direction overrides out, runs of space as one), trimmed, at most
 * NOTE_MAX characters.
 */
export function cleanNote(value, max = NOTE_MAX) {
  if (typeof value !== "string") return "";
  const line = value
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return Array.from(line).slice(0, max).join("").trim();
}

// ---------------------------------------------------------------- levels

/** The loudest sample's size in `samples` (Float32Array of −1…1), 0…1. */
export function peakOf(samples) {
  let peak = 0;
  const n = samples ? samples.length : 0;
  for (let i = 0; i < n; i++) {
    const a = Math.abs(samples[i]);
    if (a > peak) peak = a;
  }
  return Math.min(1, peak);
}

/** A peak (0…1) as a bar's height 0…1 on a −48 dBFS … 0 dB scale (a voice shows, hiss doesn't). */
export function barHeight(peak, floorDb = -48) {
  const p = Number(peak);
  if (!(p > 0)) return 0;
  const db = 20 * Math.log10(Math.min(1, p));
  return Math.min(1, Math.max(0, 1 - db / floorDb));
}

/** The level history with `value` added, at most `keep` long (the oldest go first). */
export function pushLevel(history, value, keep = 64) {
  const next = [...(history || []), Math.min(1, Math.max(0, Number(value) || 0))];
  return next.length > keep ? next.slice(next.length - keep) : next;
}

/**
 * A clip's waveform as `bars` heights 0…1 across the whole strip: `levels`
 * (one per look at the microphone while recording) cut into `bars` runs,
 * each as loud as its loudest; fewer levels than bars are stretched, each
 * over the bars that fall on it.
 */
export function downsample(levels, bars) {
  const list = (levels || []).map((v) => Math.min(1, Math.max(0, Number(v) || 0)));
  const count = Math.max(0, Math.floor(Number(bars) || 0));
  if (!count || !list.length) return [];
  if (list.length <= count) return Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]);
  const out = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * list.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * list.length) / count));
    let peak = 0;
    for (let j = from; j < to; j++) if (list[j] > peak) peak = list[j];
    out.push(peak);
  }
  return out;
}

// ---------------------------------------------------------------- errors

const CODE_WORDS = {
  network: "Can't reach the Wavelength server.",
  [ErrorCode.badAudio]: "The server couldn't read that recording.",
  [ErrorCode.tooLong]: "That clip is longer than 30 seconds.",
  [ErrorCode.tooLarge]: "That recording is too big to send.",
  [ErrorCode.clipQuota]: "This station's clips are full: the host needs to delete some.",
  [ErrorCode.pendingClips]: "You have three shout-outs waiting already: wait for the host.",
  [ErrorCode.notOnAir]: "Nobody is listening right now, so a clip has nowhere to play.",
  [ErrorCode.clipsClosed]: "The host isn't taking shout-outs right now.",
  [ErrorCode.busy]: "The server is busy with other clips: try again in a moment.",
  [ErrorCode.signInRequired]: "Sign in, or join with a name, to send a clip.",
};

/** What to show when sending failed: the server's own words, ours only when it sent none. */
export function sendErrorText(error) {
  if (error && typeof error.message === "string" && error.message.trim() && error.code !== "network") return error.message.trim();
  return CODE_WORDS[error && error.code] || "The clip didn't send.";
}

/** Whether the microphone is taking (recording, or stopping at the end of a take). */
export function isTaking(state) {
  return Boolean(state) && (state.status === "recording" || state.status === "stopping");
}

/** The panel's clock: the time left while asking or taking, then the recording's length, else the whole 0:30. */
export function clockLabel(state, maxMs = CLIP_MAX_MS) {
  const s = state || initialRecorder();
  if (isTaking(s) || s.status === "asking") return `${clockText(secondsLeft(s.elapsedMs, maxMs) * 1000)} left`;
  return s.recording ? lengthText(s.recording.durationMs) : "0:30";
}

/** The level meter's words for a screen reader. */
export function levelText(percent) {
  return percent === 0 ? "Silent" : `${percent} percent`;
}

/**
 * Whether the meter's aria-valuenow changes now: at most once every
 * `everyMs`, except that silence is said at once (`shown` is the value said last).
 */
export function shouldSayLevel(percent, now, saidAt, shown, everyMs = 1000) {
  return now - saidAt >= everyMs || (percent === 0 && shown !== "0");
}
