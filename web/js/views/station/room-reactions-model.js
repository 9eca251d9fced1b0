// Emoji reactions to the song playing, the pure part: the server's burst
// and totals read safely, the totals for the entry playing (none for any
// other), a burst turned into the handful of emoji that float over the art,
// compact counts, words for screen readers, and the page's own limit so a
// quick thumb doesn't run into the server's (10 in 5 s per person). No DOM
// here; room-reactions.js draws the row and the burst.
//
// (reactions.js is another thing: thumbs and ♥ on the song.)

/** The palette when the server hasn't sent one (its Reactions.palette). */
export const DEFAULT_PALETTE = ["🔥", "❤️", "🙌", "😂", "😮", "💃"];

/** Words for each emoji, for the buttons' names. */
const NAMES = {
  "🔥": "Fire",
  "❤️": "Love",
  "🙌": "Raised hands",
  "😂": "Laughing",
  "😮": "Wow",
  "💃": "Dancing",
};

/** The server's limit per person: LIMIT reactions in WINDOW_MS. */
export const LIMIT = 10;
export const WINDOW_MS = 5000;
/** At most this many emoji float at once for one burst. */
export const MAX_PARTICLES = 14;

function counts(raw) {
  const out = {};
  if (!raw || typeof raw !== "object") return out;
  for (const [emoji, n] of Object.entries(raw)) {
    const value = Math.floor(Number(n));
    if (typeof emoji === "string" && emoji && Number.isFinite(value) && value > 0) out[emoji] = value;
  }
  return out;
}

/** {entryID, burst, totals} from the server's `reactions` (or a room's), or null. */
export function readReactions(raw) {
  if (!raw || typeof raw !== "object" || typeof raw.entryID !== "string" || !raw.entryID) return null;
  return { entryID: raw.entryID, burst: counts(raw.burst), totals: counts(raw.totals) };
}

/**
 * The row's buttons for the entry playing: [{emoji, count, name}] in the
 * palette's order; counts are the song's totals only when they are for
 * `entryID`, the entry playing now (0 otherwise).
 */
export function reactionRow(palette, reactions, entryID) {
  const list = Array.isArray(palette) && palette.length ? palette : DEFAULT_PALETTE;
  const totals = reactions && entryID && reactions.entryID === entryID ? reactions.totals : {};
  return list.map((emoji) => ({ emoji, count: totals[emoji] || 0, name: NAMES[emoji] || emoji }));
}

/** 7 → "7", 1234 → "1.2k", 56_000 → "56k"; "" for none. */
export function compactCount(n) {
  const value = Math.floor(Number(n) || 0);
  if (value <= 0) return "";
  if (value < 1000) return String(value);
  if (value < 10_000) return `${(Math.floor(value / 100) / 10).toString()}k`;
  if (value < 1_000_000) return `${Math.floor(value / 1000)}k`;
  return `${Math.floor(value / 100_000) / 10}M`;
}

/** A button's name: "Fire" and how many so far, for a screen reader. */
export function reactionLabel({ name, count }) {
  if (!count) return `React with ${name}`;
  return `React with ${name} (${count} so far for this song)`;
}

/**
 * The emoji that float for one burst: each one sent at least once, more
 * of those sent more (in proportion), at most `max` in all, interleaved
 * so that no kind floats as one block. Ordered by the palette.
 */
export function burstParticles(burst, { palette = DEFAULT_PALETTE, max = MAX_PARTICLES } = {}) {
  const tally = counts(burst);
  const kinds = Object.keys(tally).sort((a, b) => order(palette, a) - order(palette, b));
  if (!kinds.length || max <= 0) return [];
  const total = kinds.reduce((sum, k) => sum + tally[k], 0);
  const room = Math.min(max, total);
  // One each first (as far as room goes), then the rest shared by weight.
  const share = Object.fromEntries(kinds.map((k) => [k, 0]));
  let left = room;
  for (const k of kinds) {
    if (left <= 0) break;
    share[k] = 1;
    left -= 1;
  }
  if (left > 0) {
    const extra = kinds.map((k) => ({ k, want: ((tally[k] - 1) / Math.max(1, total - kinds.length)) * left }));
    for (const e of extra) {
      const whole = Math.min(tally[e.k] - share[e.k], Math.floor(e.want));
      share[e.k] += whole;
      left -= whole;
    }
    // What rounding left goes to the biggest remainders.
    extra.sort((a, b) => (b.want % 1) - (a.want % 1) || tally[b.k] - tally[a.k]);
    for (const e of extra) {
      if (left <= 0) break;
      if (share[e.k] < tally[e.k]) {
        share[e.k] += 1;
        left -= 1;
      }
    }
  }
  const out = [];
  let more = true;
  while (more) {
    more = false;
    for (const k of kinds) {
      if (share[k] > 0) {
        out.push(k);
        share[k] -= 1;
        more = more || share[k] > 0;
      }
    }
  }
  return out;
}

function order(palette, emoji) {
  const i = (palette || []).indexOf(emoji);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}

/**
 * The page's own limit: whether one more reaction at `now` stays within
 * LIMIT in WINDOW_MS, and the send times to keep ({ok, times}).
 */
export function allowReaction(times, now, { limit = LIMIT, windowMs = WINDOW_MS } = {}) {
  const recent = (Array.isArray(times) ? times : []).filter((t) => t > now - windowMs);
  if (recent.length >= limit) return { ok: false, times: recent, retryAt: recent[0] + windowMs };
  return { ok: true, times: [...recent, now], retryAt: null };
}
