// Synced lyrics on the station screen, the pure part: the server's answer
// read into lines (GET /api/tracks/{id}/lyrics.json: the server parses LRC
// and applies its offset, so `timeMs` is the position in the file), which
// line is sung at a position and when the next one starts, what the panel
// shows, the host's switch, the listener's own preference, and a small
// cache of answers by track id. No DOM here; lyrics.js draws the panel.

import { isHeld, isLive, positionIn, timelineNow } from "../../playback/timeline.js";

/** At most this many lines are shown (the server caps a file at 2,000 too). */
export const MAX_LINES = 2000;

/**
 * The server's answer as {synced, lines: [{timeMs?, text}]}, or null when
 * it holds no lines. Synced only when the server says so and every line has
 * a time; the lines are then in time order (equal times keep their order).
 * Text is always a string (it is shown as text, never markup).
 */
export function readLyrics(answer) {
  if (!answer || typeof answer !== "object" || !Array.isArray(answer.lines)) return null;
  const raw = answer.lines.filter((line) => line && typeof line === "object").slice(0, MAX_LINES);
  if (!raw.length) return null;
  const text = (line) => (typeof line.text === "string" ? line.text : line.text == null ? "" : String(line.text));
  const timed = raw.every((line) => typeof line.timeMs === "number" && Number.isFinite(line.timeMs));
  if (answer.synced === true && timed) {
    const lines = raw
      .map((line, order) => ({ timeMs: Math.max(0, line.timeMs), text: text(line), order }))
      .sort((a, b) => a.timeMs - b.timeMs || a.order - b.order)
      .map(({ timeMs, text }) => ({ timeMs, text }));
    return lines.some((line) => line.text.trim()) ? { synced: true, lines } : null;
  }
  const lines = raw.map((line) => ({ text: text(line) }));
  return lines.some((line) => line.text.trim()) ? { synced: false, lines } : null;
}

/**
 * The line sung at `positionMs` into the file: the last whose time has
 * come, or -1 before the first (and for anything not a position).
 */
export function lineAt(lines, positionMs) {
  if (!Array.isArray(lines) || !lines.length || !Number.isFinite(positionMs)) return -1;
  let low = 0;
  let high = lines.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (lines[mid].timeMs <= positionMs) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/** When (a position in the file) the current line next changes, or null after the last. */
export function nextChangeAt(lines, positionMs) {
  if (!Array.isArray(lines) || !Number.isFinite(positionMs)) return null;
  const next = lines[lineAt(lines, positionMs) + 1];
  return next ? next.timeMs : null;
}

/**
 * Where the station is in `lyrics` at the clock's `now`: the line
 * (`index`, -1 for none) and how long until it changes (`waitMs`), or null
 * when nothing will change by itself (unsynced, after the last line, or the
 * DJ holds the station: its instant is frozen at `pausedAt`).
 */
export function lyricsClock(lyrics, entry, timeline, now) {
  if (!lyrics || !lyrics.synced || !entry) return { index: -1, waitMs: null };
  const at = timelineNow(timeline, now);
  const position = positionIn(entry, at);
  const index = lineAt(lyrics.lines, position);
  const next = nextChangeAt(lyrics.lines, position);
  if (next === null || isHeld(timeline, now)) return { index, waitMs: null };
  let waitMs = next - position;
  // A hold that begins before the next line stops the clock there.
  if (timeline && timeline.pausedAt != null && timeline.pausedAt - now < waitMs) waitMs = timeline.pausedAt - now;
  return { index, waitMs: Math.max(0, waitMs) };
}

/** The host's switch: the party's `settings.lyrics` (on unless it says false). */
export function hostAllowsLyrics(party) {
  return !(party && party.settings && party.settings.lyrics === false);
}

/**
 * What the panel shows: nothing for a live show, no song, the host's
 * switch off, or a track with no lyrics (or not known yet); otherwise the
 * track's lines, collapsed when the listener hid them.
 */
export function lyricsPanelModel({ entry, allowed = true, cached = null, shown = true }) {
  if (!allowed || !entry || isLive(entry) || !entry.track) return { visible: false };
  if (!cached || cached.status !== "ready" || !cached.lyrics) return { visible: false };
  return { visible: true, trackID: entry.track.id, synced: cached.lyrics.synced, lines: cached.lyrics.lines, shown: Boolean(shown) };
}

/** localStorage's key for the listener's own choice. */
export const PREFERENCE_KEY = "wavelength.lyrics";

/** Whether this listener wants lyrics shown (they are, unless hidden before). */
export function lyricsShown(storage) {
  try {
    return !storage || storage.getItem(PREFERENCE_KEY) !== "hidden";
  } catch {
    return true;
  }
}

/** Remembers the listener's choice (nothing is kept for the default). */
export function rememberLyricsShown(storage, shown) {
  try {
    if (!storage) return;
    if (shown) storage.removeItem(PREFERENCE_KEY);
    else storage.setItem(PREFERENCE_KEY, "hidden");
  } catch {
    // Storage refused (private mode, full): the choice lasts this page.
  }
}

/**
 * Lyrics answers by track id: each track is asked for once (a request in
 * flight is shared), a 404 is remembered as "none", a failure is asked
 * again after `retryMs`, and only the `limit` most recently used tracks are
 * kept. `load(trackID)` resolves with the server's JSON or throws an error
 * with its HTTP `status`.
 */
/**
 * A track's lyrics, asked for only when it has them. The timeline's track
 * summaries don't say whether a track has lyrics; its details do
 * (GET /api/tracks/{id}: `hasLyrics`), so those come first, and a song
 * without words costs no 404 (one in every listener's console before).
 * `details(id)` and `lines(id)` are the two requests; null: no lyrics.
 */
export async function loadLyricsFor(trackID, { details, lines }) {
  const about = await details(trackID);
  if (!about || about.hasLyrics !== true) return null;
  return lines(trackID);
}

export class LyricsCache {
  constructor({ load, limit = 20, retryMs = 15_000, now = () => Date.now() }) {
    this.load = load;
    this.limit = limit;
    this.retryMs = retryMs;
    this.now = now;
    /** trackID → {status: "loading" | "ready" | "none" | "error", lyrics?, at?, promise?} */
    this.entries = new Map();
  }

  get size() {
    return this.entries.size;
  }

  /** What is known of `trackID` (and it becomes the most recently used), or null. */
  peek(trackID) {
    const entry = this.entries.get(trackID);
    if (!entry) return null;
    this.entries.delete(trackID);
    this.entries.set(trackID, entry);
    return entry;
  }

  /** Whether `known` (what peek gave) is worth asking for: nothing yet, or a failure long enough ago. */
  due(known) {
    return !known || (known.status === "error" && this.now() - known.at >= this.retryMs);
  }

  /** The answer for `trackID`, asked for only when unknown or failed long enough ago. */
  want(trackID) {
    const known = this.peek(trackID);
    if (known && known.status === "loading") return known.promise;
    if (!this.due(known)) return Promise.resolve(known);
    const entry = { status: "loading", promise: null };
    entry.promise = Promise.resolve()
      .then(() => this.load(trackID))
      .then(
        (answer) => {
          const lyrics = readLyrics(answer);
          return lyrics ? { status: "ready", lyrics } : { status: "none" };
        },
        (error) => (error && error.status === 404 ? { status: "none" } : { status: "error", at: this.now() }),
      )
      .then((settled) => {
        // Still the request this cache holds (not evicted meanwhile): keep its answer.
        if (this.entries.get(trackID) === entry) {
          this.entries.set(trackID, settled);
          this.trim();
        }
        return settled;
      });
    this.entries.set(trackID, entry);
    this.trim();
    return entry.promise;
  }

  trim() {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(key);
    }
  }
}
