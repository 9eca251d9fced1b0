// "What's this song?": the pure parts (no DOM, no microphone), unit-tested
// in e2e/js/identify.test.js. How long to listen, which recording format
// to ask MediaRecorder for, the countdown, "about 1:23 in", reading the
// server's answer, and what to say when the microphone or the server says no.

import { ErrorCode } from "../../api/error-codes.js";

/** How long the microphone listens: the server hears 5 to 30 s. */
export const CLIP_MS = 10_000;

/**
 * What MediaRecorder is asked for, best first: Opus in WebM (Chromium,
 * Firefox), MP4/AAC (Safari), Ogg. FFmpeg on the server reads them all.
 */
export const MIME_TYPES = ["audio/webm;codecs=opus", "audio/webm", "audio/mp4", "audio/ogg;codecs=opus", "audio/ogg"];

/**
 * The first of MIME_TYPES that `isSupported(type)` accepts (pass
 * MediaRecorder.isTypeSupported), or "" to let the browser choose.
 */
export function chooseMimeType(isSupported, types = MIME_TYPES) {
  if (typeof isSupported !== "function") return "";
  for (const type of types) {
    try {
      if (isSupported(type)) return type;
    } catch {
      // A browser that throws on a type it doesn't know: try the next.
    }
  }
  return "";
}

/** Whole seconds still to listen, counted up (10 … 1), never below 0. */
export function secondsLeft(elapsedMs, totalMs = CLIP_MS) {
  const left = (Number(totalMs) || 0) - (Number(elapsedMs) || 0);
  return Math.max(0, Math.ceil(left / 1000));
}

/** How far the countdown's arc has gone round, 0 to 1. */
export function listenedShare(elapsedMs, totalMs = CLIP_MS) {
  if (!(totalMs > 0)) return 1;
  return Math.min(1, Math.max(0, (Number(elapsedMs) || 0) / totalMs));
}

/** 83_400 → "1:23", 3_723_000 → "1:02:03" (rounded to the nearest second). */
export function clockText(ms) {
  const total = Math.max(0, Math.round((Number(ms) || 0) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** Where in the song the clip was: "about 1:23 in", or "" when unknown. */
export function offsetText(offsetMs) {
  if (offsetMs === null || offsetMs === undefined || offsetMs === "" || !Number.isFinite(Number(offsetMs))) return "";
  const ms = Number(offsetMs);
  if (ms < 1000) return "from the very start";
  return `about ${clockText(ms)} in`;
}

/**
 * The server's answer as {state: "found", track, offsetMs, similarity} or
 * {state: "none"} ("not in this library": `match` null, or left out).
 */
export function readAnswer(payload) {
  const match = payload && typeof payload === "object" ? payload.match : null;
  if (!match || typeof match !== "object" || !match.track || typeof match.track !== "object") return { state: "none" };
  const offset = Number(match.offsetMs);
  const similarity = Number(match.similarity);
  return {
    state: "found",
    track: match.track,
    offsetMs: Number.isFinite(offset) ? offset : null,
    similarity: Number.isFinite(similarity) ? similarity : null,
  };
}

/**
 * What to say when the microphone can't be used, from getUserMedia's or
 * MediaRecorder's error (a DOMException by name): {code, title, text}.
 * `unsupported` is for a browser without getUserMedia or MediaRecorder.
 */
export function micProblem(error) {
  const name = (error && error.name) || "";
  if (name === "NotAllowedError" || name === "PermissionDeniedError" || name === "SecurityError") {
    return {
      code: "denied",
      title: "No permission to listen",
      text: "The browser didn't let Wavelength use the microphone. Allow it for this site in the browser's settings, then try again.",
    };
  }
  if (name === "NotFoundError" || name === "DevicesNotFoundError" || name === "OverconstrainedError") {
    return { code: "no_mic", title: "No microphone", text: "This device has no microphone Wavelength can use." };
  }
  if (name === "NotReadableError" || name === "TrackStartError" || name === "AbortError") {
    return {
      code: "mic_busy",
      title: "The microphone is busy",
      text: "Another app may be using the microphone. Close it and try again.",
    };
  }
  if (name === "NotSupportedError" || name === "unsupported") {
    return {
      code: "unsupported",
      title: "Can't record here",
      text: "This browser can't record audio for Wavelength (it needs a secure https:// address and a recent browser).",
    };
  }
  return { code: "mic_error", title: "Couldn't record", text: "Recording didn't work. Try again." };
}

/**
 * What to say when the server didn't answer with a song or "none", from an
 * ApiError ({status, code, message, retryAfter}): {code, title, text}.
 */
export function answerProblem(error) {
  const status = (error && error.status) || 0;
  const code = (error && error.code) || "";
  if (status === 401 || code === ErrorCode.signInRequired) {
    return { code: "sign_in", title: "Sign in to ask", text: "Sign in, or join a station as a guest, to ask what a song is." };
  }
  if (status === 429 || code === ErrorCode.busy) {
    const wait = error && Number.isFinite(error.retryAfter) && error.retryAfter > 0 ? ` Try again in ${error.retryAfter} s.` : " Try again in a moment.";
    return { code: ErrorCode.busy, title: "Lots of people are asking", text: `The song finder is busy.${wait}` };
  }
  if (status === 413 || code === ErrorCode.tooLarge) {
    return { code: ErrorCode.tooLarge, title: "That recording is too big", text: "Try again: a shorter recording fits." };
  }
  if (code === ErrorCode.badAudio) {
    return {
      code: ErrorCode.badAudio,
      title: "Couldn't hear enough",
      text: "The recording was too short or couldn't be read. Hold the phone nearer the music and try again.",
    };
  }
  if (code === "network") {
    return { code: "network", title: "Can't reach the server", text: "Check the connection and try again." };
  }
  return { code: "error", title: "Something went wrong", text: (error && error.message) || "The server couldn't answer. Try again." };
}

/** The panel's states while it works (the microphone or the server): asking, listening, matching. */
export function isBusyState(state) {
  return state === "asking" || state === "listening" || state === "matching";
}

/** A found song's card in words: {title, by ("Artist · Album" or ""), where ("about 1:23 in" or ""), alt}. */
export function foundWords(answer) {
  const { track } = answer;
  return {
    title: track.title || "Untitled",
    by: [track.artist, track.album].filter(Boolean).join(" · "),
    where: offsetText(answer.offsetMs),
    alt: track.album ? `Cover of ${track.album}` : "",
  };
}
