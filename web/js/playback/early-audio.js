// A station link's first sound, made ready before the app has loaded.
// early-station.js, once it has the station's timeline, asks here for the
// song playing: the page's AudioContext is made now (so it is running, or
// waiting for the listener's tap, by the time the station screen tunes in)
// and the seconds around the play position are fetched as a byte range
// (range-start.js) and decoded on it. The Web Audio player then takes the
// context (takeContext) and, tuning in, the decoded piece (takePiece)
// synchronously: its first reconcile can schedule the first sound at once,
// without waiting for a fetch or a decode behind the station screen's own
// work. Only the player's mode (`?audio=basic` asks for the <audio>
// element) and a browser without Web Audio skip it.

import { rangePiece, rangeFormat } from "./range-start.js";

/** The player the page asks for (`?audio=` in the address's query or its hash's), or null. */
export function requestedMode() {
  const fromSearch = new URLSearchParams(location.search).get("audio");
  const hashQuery = location.hash.includes("?") ? location.hash.slice(location.hash.indexOf("?") + 1) : "";
  const fromHash = new URLSearchParams(hashQuery).get("audio");
  return fromSearch || fromHash || window.__wavelengthAudioMode || null;
}

// Pieces decoded ahead and not taken are let go after this long (the
// position has moved on by then).
const KEEP_MS = 20_000;

let context = null;
let taken = false;
// url → {ctx, promise, piece: {start, buffer, decodedAt, timing} once decoded}
const pieces = new Map();

/**
 * The page's AudioContext, made now if it isn't yet (null without Web Audio,
 * or when the page asks for the <audio> element). A station link makes it
 * as the page opens, while its first requests are out: making one can take
 * a while, and its output starts running meanwhile.
 */
export function prepareContext() {
  return contextNow();
}

function contextNow() {
  if (context || taken) return context;
  if (typeof window === "undefined" || requestedMode() === "basic") return null;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  try {
    context = new Ctor({ latencyHint: "interactive" });
    // Made now so decoding can start, but not sounding until the player
    // resumes it: an output started while the page loads reported
    // timestamps several ms off for its first seconds, which put two
    // listeners 4-10 ms apart at first (bench/audio_spread.py, p95).
    context.suspend().catch(() => {});
  } catch {
    context = null;
  }
  return context;
}

/**
 * The page's AudioContext for the player, once: the one made ahead, or made
 * now (so a piece still being decoded ahead is on it), or null.
 */
export function takeContext() {
  if (taken) return null;
  const ctx = contextNow();
  taken = true;
  return ctx;
}

/**
 * Fetches and decodes ahead the piece of the file at `url` (format
 * `format`, `duration` s) from a little before file second `at` to
 * `seconds` past it (false when it can't: the format isn't cut, or no
 * Web Audio). Errors are ignored: the player asks on its own.
 */
export function preparePiece(url, format, duration, at, seconds) {
  // The context either way: made now, it runs by the time the player starts.
  const ctx = contextNow();
  if (!ctx || !(duration > 0)) return false;
  if (!rangeFormat(format)) return prepareWhole(url, ctx, duration, at, seconds);
  const entry = { ctx, piece: null, promise: null };
  pieces.set(url, entry);
  const forget = () => {
    if (pieces.get(url) === entry) pieces.delete(url);
  };
  entry.promise = rangePiece(url, format, duration, at, seconds)
    .then((got) => {
      if (!got || got.whole || !got.bytes) return forget();
      return ctx.decodeAudioData(got.bytes.buffer).then((buffer) => {
        entry.piece = { start: got.start, buffer, decodedAt: performance.now(), timing: got.timing };
        setTimeout(forget, KEEP_MS);
      });
    })
    .catch(forget);
  return true;
}

// Formats not cut into ranges (WAV, AIFF): the whole file is
// fetched, and its start, up to `seconds` past `at`, is decoded as soon as
// it is here (as the player's own "prefix" quick start). The whole
// file's bytes are kept for the player (takeWhole): it decodes them behind
// the piece, without fetching them again. A prefix that would be most of
// the file, or one that doesn't decode, leaves the whole file decoded as the
// piece (complete).
const PREFIX_MAX_SHARE = 0.7;

function prepareWhole(url, ctx, duration, at, seconds) {
  const entry = { ctx, piece: null, promise: null, whole: null };
  pieces.set(url, entry);
  const forget = () => {
    if (pieces.get(url) === entry) pieces.delete(url);
  };
  const share = (at + seconds) / duration;
  let prefix = null; // the prefix's decode, once asked
  let announce;
  entry.promise = new Promise((resolve) => (announce = resolve));
  const decodePrefix = (bytes) =>
    ctx.decodeAudioData(bytes.buffer).then(
      (buffer) => {
        if (buffer.duration < Math.min(duration, at + seconds) - 1) return false;
        entry.piece = { start: 0, buffer, complete: false, decodedAt: performance.now(), timing: null };
        announce();
        return true;
      },
      () => false,
    );
  // Read whole (not chunk by chunk: each chunk would wait its turn on a
  // main thread busy loading the app), then the prefix cut from it.
  entry.whole = (async () => {
    const response = await fetch(url, { priority: "high" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const enough = Math.ceil(Math.min(bytes.length, bytes.length * share * 1.1 + 32768));
    if (share <= PREFIX_MAX_SHARE && enough < bytes.length) prefix = decodePrefix(bytes.slice(0, enough));
    return bytes;
  })();
  entry.whole
    .then(async (bytes) => {
      if (prefix && (await prefix)) return;
      // No piece from the start: the whole file is the piece.
      entry.whole = null;
      const buffer = await ctx.decodeAudioData(bytes.buffer.byteLength === bytes.length ? bytes.buffer : bytes.slice().buffer);
      entry.piece = { start: 0, buffer, complete: true, decodedAt: performance.now(), timing: null };
    })
    .then(() => setTimeout(forget, KEEP_MS))
    .catch(forget)
    .finally(announce);
  return true;
}

/**
 * The whole file's bytes of `url` fetched ahead behind a piece from its
 * start (a promise; it rejects when the fetch failed), once; or null.
 */
export function takeWhole(url) {
  const entry = pieces.get(url);
  if (!entry || !entry.whole || !entry.taken) return null;
  const whole = entry.whole;
  pieces.delete(url);
  return whole;
}

/**
 * The piece of `url` decoded ahead on `ctx`, if it covers file seconds
 * `at` to `at + ahead`: {start, buffer, decodedAt, complete (the whole
 * file)}, once; else null.
 */
export function takePiece(url, ctx, at, ahead) {
  const entry = pieces.get(url);
  const piece = entry && entry.ctx === ctx && !entry.taken ? entry.piece : null;
  if (!piece || piece.start > at || piece.start + piece.buffer.duration < at + ahead) return null;
  // Kept while the whole file's bytes are still the player's to take.
  if (entry.whole && !piece.complete) entry.taken = true;
  else pieces.delete(url);
  return piece;
}

/** takePiece, once the piece being decoded ahead for `url` (if any) is done. */
export async function waitPiece(url, ctx, at, ahead) {
  const entry = pieces.get(url);
  if (entry && entry.ctx === ctx && !entry.piece && !entry.taken) await entry.promise;
  return takePiece(url, ctx, at, ahead);
}
