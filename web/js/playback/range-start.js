// The first sound of a track from a byte range: instead of the whole file,
// only the seconds around the play position are fetched (HTTP Range) and
// decoded, so tuning in doesn't wait for a whole song to arrive and
// decode. The player (web-audio-player.js) plays the piece at once and
// fetches and decodes the whole file behind it, then moves over to it
// sample-exactly.
//
// Two requests: the file's head (its length, and what the format needs to
// decode a piece: MP3's ID3 and Info frame, FLAC's STREAMINFO, Ogg's header
// pages, an MP4's index), then the range around the position, cut at frame
// or page boundaries by slice-mp3.js, slice-flac.js, slice-opus.js,
// slice-vorbis.js or slice-m4a.js, so the piece's first sample is known
// exactly. An MP4 whose index is at its end takes a third request, for the
// index. A file a cutter can't read returns null: the player then fetches
// and decodes the whole file.
//
// Heads are kept (a few) for the page's life, and so are the bytes warmed
// ahead (warm()): what the dial shows playing, or the station a link opens,
// fetched before the player asks.

import { fetchRange } from "./range-fetch.js";
import * as mp3 from "./slice-mp3.js";
import * as flac from "./slice-flac.js";
import * as opus from "./slice-opus.js";
import * as m4a from "./slice-m4a.js";
import * as vorbis from "./slice-vorbis.js";

// An .ogg file holds Vorbis (most often) or Opus: its layout says which.
const ogg = {
  layout: (...args) => vorbis.layout(...args) || opus.layout(...args),
  window: (l, ...args) => (l.format === "vorbis" ? vorbis : opus).window(l, ...args),
  cut: (l, ...args) => (l.format === "vorbis" ? vorbis : opus).cut(l, ...args),
};

const CUTTERS = { mp3, flac, opus, m4a, ogg };
const HEAD_BYTES = 65536;
const KEEP = 8;
const MAX_TRIES = 3;

/** Formats cut from a range. */
export function rangeFormat(format) {
  return Object.hasOwn(CUTTERS, format);
}

const heads = new Map(); // url → Promise<{bytes, total, whole}>
const ranges = new Map(); // `${url}|${from}-${to}` → Promise<{bytes, offset}>

function keep(map, key, make) {
  let value = map.get(key);
  if (!value) {
    value = make();
    // A failed request is forgotten, so the next ask tries again.
    value.catch(() => map.delete(key));
    map.set(key, value);
    if (map.size > KEEP) map.delete(map.keys().next().value);
  }
  return value;
}

function headOf(url, length = HEAD_BYTES) {
  return keep(heads, `${url}|${length}`, () =>
    fetchRange(url, 0, length - 1).then((r) => ({ bytes: r.bytes, total: r.total ?? r.bytes.length, whole: r.whole || r.bytes.length >= (r.total ?? Infinity) })),
  );
}

/** A range, shared with a warm-up that asked for the same bytes (or more). */
function rangeOf(url, from, to) {
  for (const [key, promise] of ranges) {
    const [u, span] = key.split("|");
    const [f, t] = span.split("-").map(Number);
    if (u === url && f <= from && t >= to) return promise;
  }
  return keep(ranges, `${url}|${from}-${to}`, () => fetchRange(url, from, to));
}

/** The head and its layout for the format (the head grows once if it must). */
async function layoutOf(url, format, duration) {
  const cutter = CUTTERS[format];
  let head = await headOf(url);
  let l = head.whole ? null : cutter.layout(head.bytes, head.total, duration);
  // A long ID3 tag (cover art) or many Ogg header pages: a longer head.
  const id3 = head.bytes.length >= 10 && head.bytes[0] === 0x49 && head.bytes[1] === 0x44 && head.bytes[2] === 0x33;
  let longer = l && l.needHead ? l.needHead : null;
  if (!l && id3 && !head.whole) {
    const b = head.bytes;
    longer = 10 + (((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f)) + 16384;
  }
  if (longer && longer > head.bytes.length) {
    head = await headOf(url, Math.min(head.total, longer));
    l = head.whole ? null : cutter.layout(head.bytes, head.total, duration);
  }
  // An index further on (an MP4's `moov` after its audio): one more request.
  if (l && l.needRange) {
    const index = await keep(heads, `${url}|index`, () => fetchRange(url, l.needRange.from, l.needRange.to));
    l = cutter.layout(head.bytes, head.total, duration, index);
  }
  return { head, layout: l && !l.needHead && !l.needRange ? l : null };
}

/**
 * A piece of the file at `url` (format `format`, `duration` s long) that
 * starts a little before file second `at` and lasts `seconds` past it:
 * {bytes, start (file s of its first sample), timing}. {whole: bytes} when
 * the server sent the whole file anyway (a short one, or a range ignored);
 * null when this format or file can't be cut (the caller then fetches the
 * whole file).
 */
export async function rangePiece(url, format, duration, at, seconds) {
  if (!rangeFormat(format) || !(duration > 0)) return null;
  const began = performance.now();
  const { head, layout } = await layoutOf(url, format, duration);
  const headAt = performance.now();
  if (head.whole) return { whole: head.bytes, timing: { headMs: headAt - began } };
  if (!layout) return null;
  const cutter = CUTTERS[format];
  let span = cutter.window(layout, at, seconds);
  let fetched = 0;
  for (let tries = 0; span && tries < MAX_TRIES; tries++) {
    const part = span.from === 0 && span.to < head.bytes.length ? { bytes: head.bytes.subarray(0, span.to + 1), offset: 0 } : await rangeOf(url, span.from, span.to);
    fetched += part.bytes.length;
    const result = cutter.cut(layout, head.bytes, part, at, seconds);
    if (result && result.piece) {
      return {
        ...result.piece,
        timing: { headMs: headAt - began, rangeMs: performance.now() - headAt, rangeBytes: fetched, tries: tries + 1 },
      };
    }
    span = result ? result.retry : null;
  }
  return null;
}

/**
 * Fetches ahead what rangePiece(url, format, duration, at, seconds) will
 * ask for, without decoding: the head, then the range. Errors are ignored
 * (the player asks again, and reports them).
 */
export function warm(url, format, duration, at, seconds) {
  if (!rangeFormat(format) || !(duration > 0)) return;
  layoutOf(url, format, duration)
    .then(({ head, layout }) => {
      if (head.whole || !layout) return null;
      const span = CUTTERS[format].window(layout, at, seconds);
      return span.from === 0 && span.to < head.bytes.length ? null : rangeOf(url, span.from, span.to);
    })
    .catch(() => {});
}
