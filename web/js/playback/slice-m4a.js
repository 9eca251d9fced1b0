// AAC-in-MP4 (m4a) pieces from a byte range out of the middle of the file
// (range-start.js asks for it). An MP4 keeps its index in the `moov` box —
// at the start of a "fast start" file, at the end of most others (ffmpeg's
// default) — and its sample table says exactly where every AAC frame is and
// when it plays. So the layout is read from the index (one more request
// when it's at the end), and a piece is the frames around the position,
// each given a 7-byte ADTS header: raw AAC the decoder reads on its own,
// with no container to rebuild.
//
// The piece's first frame decodes without the frame before it to overlap
// with, so it is only right from its second frame on; the pre-roll (half a
// second before the position) covers that. Its first sample is the file's
// media time of its first frame, less the encoder delay the edit list
// trims from the whole file's decode. Only AAC-LC is cut (HE-AAC's SBR
// doubles the rate and needs its own pre-roll); other files return null
// and play from the whole file as before.

import { PRE_ROLL_S } from "./quick-decode.js";

const MAX_INDEX_BYTES = 16 << 20;
const MAX_FRAMES = 4_200_000;
const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

function u32(b, i) {
  return ((b[i] << 24) >>> 0) + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);
}

function u64(b, i) {
  return u32(b, i) * 4294967296 + u32(b, i + 4);
}

function type(b, i) {
  return String.fromCharCode(b[i], b[i + 1], b[i + 2], b[i + 3]);
}

/** Boxes in b[from, to) as {type, start (the box), body, end}; stops at a cut box. */
function boxes(b, from, to) {
  const out = [];
  let i = from;
  while (i + 8 <= to) {
    let size = u32(b, i);
    let body = i + 8;
    if (size === 1) {
      if (i + 16 > to) break;
      size = u64(b, i + 8);
      body = i + 16;
    } else if (size === 0) size = to - i;
    if (size < body - i) break;
    out.push({ type: type(b, i + 4), start: i, body, end: i + size });
    i += size;
  }
  return out;
}

function child(b, box, name) {
  return boxes(b, box.body, Math.min(box.end, b.length)).find((c) => c.type === name) || null;
}

function path(b, box, names) {
  let at = box;
  for (const name of names) {
    at = at && child(b, at, name);
  }
  return at;
}

/** An MPEG-4 descriptor's tag, length and body at b[i]. */
function descriptor(b, i, end) {
  if (i + 2 > end) return null;
  const tag = b[i];
  let length = 0;
  let j = i + 1;
  for (let k = 0; k < 4 && j < end; k++) {
    const byte = b[j++];
    length = (length << 7) | (byte & 0x7f);
    if (!(byte & 0x80)) break;
  }
  return { tag, body: j, end: Math.min(end, j + length) };
}

/** The AudioSpecificConfig's object type, rate index and channels, from `esds`. */
function audioConfig(b, esds) {
  const es = descriptor(b, esds.body + 4, esds.end);
  if (!es || es.tag !== 3) return null;
  const flags = b[es.body + 2];
  let i = es.body + 3;
  if (flags & 0x80) i += 2;
  if (flags & 0x40) i += 1 + b[i];
  if (flags & 0x20) i += 2;
  const config = descriptor(b, i, es.end);
  if (!config || config.tag !== 4) return null;
  const specific = descriptor(b, config.body + 13, config.end);
  if (!specific || specific.tag !== 5 || specific.end - specific.body < 2) return null;
  const s = specific.body;
  return { object: b[s] >> 3, rateIndex: ((b[s] & 7) << 1) | (b[s + 1] >> 7), channels: (b[s + 1] >> 3) & 15 };
}

/** Every sample's file offset, size and media time, from the sample table. */
function sampleTable(b, stbl) {
  const stsz = child(b, stbl, "stsz");
  const stts = child(b, stbl, "stts");
  const stsc = child(b, stbl, "stsc");
  const stco = child(b, stbl, "stco") || child(b, stbl, "co64");
  if (!stsz || !stts || !stsc || !stco) return null;
  const uniform = u32(b, stsz.body + 4);
  const count = u32(b, stsz.body + 8);
  // A file's word for its frame count is bounded before anything is sized by
  // it: a day of AAC at 48 kHz is 4.05 million frames.
  if (!count || count > MAX_FRAMES || (!uniform && stsz.body + 12 + 4 * count > stsz.end)) return null;
  const size = new Uint32Array(count);
  for (let k = 0; k < count; k++) size[k] = uniform || u32(b, stsz.body + 12 + 4 * k);

  const time = new Float64Array(count + 1);
  let k = 0;
  let t = 0;
  for (let e = 0, n = u32(b, stts.body + 4); e < n && k < count; e++) {
    const at = stts.body + 8 + 8 * e;
    if (at + 8 > stts.end) return null;
    const run = u32(b, at);
    const delta = u32(b, at + 4);
    for (let r = 0; r < run && k < count; r++, k++) {
      time[k] = t;
      t += delta;
    }
  }
  if (k < count) return null;
  time[count] = t;

  const wide = stco.type === "co64";
  const chunks = u32(b, stco.body + 4);
  if (stco.body + 8 + (wide ? 8 : 4) * chunks > stco.end) return null;
  const chunkOffset = (c) => (wide ? u64(b, stco.body + 8 + 8 * c) : u32(b, stco.body + 8 + 4 * c));
  const runs = u32(b, stsc.body + 4);
  if (!runs || stsc.body + 8 + 12 * runs > stsc.end) return null;
  const offset = new Float64Array(count);
  k = 0;
  for (let r = 0; r < runs && k < count; r++) {
    const at = stsc.body + 8 + 12 * r;
    const firstChunk = u32(b, at) - 1;
    const perChunk = u32(b, at + 4);
    const lastChunk = r + 1 < runs ? u32(b, at + 12) - 1 : chunks;
    if (!perChunk) return null;
    for (let c = firstChunk; c < lastChunk && c < chunks && k < count; c++) {
      let o = chunkOffset(c);
      for (let s = 0; s < perChunk && k < count; s++, k++) {
        offset[k] = o;
        o += size[k];
      }
    }
  }
  return k === count ? { count, size, time, offset } : null;
}

/** The audio track's sample table and ADTS settings from the `moov` box (b[moov.start, moov.end)). */
function fromIndex(b, moov, total, duration) {
  for (const trak of boxes(b, moov.body, moov.end).filter((x) => x.type === "trak")) {
    const mdia = child(b, trak, "mdia");
    const hdlr = mdia && child(b, mdia, "hdlr");
    if (!hdlr || type(b, hdlr.body + 8) !== "soun") continue;
    const mdhd = child(b, mdia, "mdhd");
    const stbl = path(b, mdia, ["minf", "stbl"]);
    const stsd = stbl && child(b, stbl, "stsd");
    if (!mdhd || !stsd) return null;
    const timescale = u32(b, mdhd.body + (b[mdhd.body] === 1 ? 20 : 12));
    const entry = boxes(b, stsd.body + 8, stsd.end)[0];
    if (!entry || entry.type !== "mp4a") return null;
    const esds = boxes(b, entry.body + 28, entry.end).find((x) => x.type === "esds");
    const config = esds && audioConfig(b, esds);
    if (!config || config.object !== 2 || ADTS_RATES[config.rateIndex] !== timescale || config.channels < 1 || config.channels > 7) return null;
    // The encoder delay: the edit list's media time, trimmed from the decode.
    const elst = path(b, trak, ["edts", "elst"]);
    let delay = 0;
    if (elst && u32(b, elst.body + 4) >= 1) {
      delay = b[elst.body] === 1 ? u64(b, elst.body + 16) : u32(b, elst.body + 12);
      if (delay === 0xffffffff) delay = 0; // an empty edit
    }
    const table = sampleTable(b, stbl);
    if (!table) return null;
    return { format: "m4a", rate: timescale, config, delay, total, duration, ...table };
  }
  return null;
}

/**
 * The layout from the file's head (and, with `index`, the bytes at the
 * index's offset): null if it isn't an MP4 with an AAC-LC track; {needHead}
 * or {needRange: {from, to}} when the index is further on.
 */
export function layout(head, total, duration, index = null) {
  if (head.length < 8 || type(head, 4) !== "ftyp") return null;
  if (index) {
    const moov = boxes(index.bytes, 0, index.bytes.length).find((x) => x.type === "moov");
    if (!moov || moov.end > index.bytes.length) return null;
    return fromIndex(index.bytes, moov, total, duration);
  }
  // Top-level boxes: read what's in the head, skip over `mdat` by its size.
  let i = 0;
  while (i + 16 <= head.length) {
    let size = u32(head, i);
    if (size === 1) size = u64(head, i + 8);
    else if (size === 0) size = total - i;
    const end = i + size;
    if (size < 8) return null;
    if (type(head, i + 4) === "moov") {
      if (size > MAX_INDEX_BYTES) return null;
      if (end > head.length) return { needHead: end };
      return fromIndex(head, { start: i, body: i + (u32(head, i) === 1 ? 16 : 8), end }, total, duration);
    }
    if (end >= total) return null;
    if (end + 16 > head.length) {
      // The index lies past the head: ask for it (to the file's end, where it usually is).
      return { needRange: { from: end, to: Math.min(total - 1, end + MAX_INDEX_BYTES - 1) } };
    }
    i = end;
  }
  return null;
}

const MARGIN_S = 0.25;

/** Sample index of the frame that plays at media time t (timescale units). */
function frameAt(l, t) {
  let lo = 0;
  let hi = l.count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (l.time[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function frames(l, at, seconds) {
  const first = frameAt(l, Math.max(0, at - PRE_ROLL_S) * l.rate + l.delay);
  const last = frameAt(l, (at + seconds + MARGIN_S) * l.rate + l.delay);
  return { first, last };
}

/** The bytes of the frames from a little before `at` to `seconds` past it. */
export function window(l, at, seconds) {
  const { first, last } = frames(l, at, seconds);
  let from = Infinity;
  let to = 0;
  for (let k = first; k <= last; k++) {
    from = Math.min(from, l.offset[k]);
    to = Math.max(to, l.offset[k] + l.size[k] - 1);
  }
  return { from, to: Math.min(l.total - 1, to) };
}

/** The frames as ADTS: {piece: {bytes, start}}, or null if `part` lacks one. */
export function cut(l, head, part, at, seconds) {
  const { bytes, offset } = part;
  const { first, last } = frames(l, at, seconds);
  let length = 0;
  for (let k = first; k <= last; k++) {
    if (l.offset[k] < offset || l.offset[k] + l.size[k] > offset + bytes.length || l.size[k] + 7 > 0x1fff) return null;
    length += 7 + l.size[k];
  }
  const piece = new Uint8Array(length);
  const { object, rateIndex, channels } = l.config;
  let i = 0;
  for (let k = first; k <= last; k++) {
    const n = 7 + l.size[k];
    piece[i] = 0xff;
    piece[i + 1] = 0xf1; // MPEG-4, no CRC
    piece[i + 2] = ((object - 1) << 6) | (rateIndex << 2) | (channels >> 2);
    piece[i + 3] = ((channels & 3) << 6) | (n >> 11);
    piece[i + 4] = (n >> 3) & 0xff;
    piece[i + 5] = ((n & 7) << 5) | 0x1f;
    piece[i + 6] = 0xfc;
    const from = l.offset[k] - offset;
    piece.set(bytes.subarray(from, from + l.size[k]), i + 7);
    i += n;
  }
  return { piece: { bytes: piece, start: (l.time[first] - l.delay) / l.rate } };
}
