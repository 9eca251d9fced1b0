// FLAC pieces from a byte range out of the middle of the file (range-start.js
// asks for it). Every FLAC frame decodes on its own and says in its header
// where it is (its frame number, or with a variable block size its first
// sample number), so a piece is a minimal head — "fLaC" and the file's
// STREAMINFO, marked last, with the length and MD5 left unknown so the
// decoder checks neither — followed by whole frames from one found in the
// range, and its first sample is known exactly. The head's other blocks
// (tags, cover art) are left out: the decoder doesn't need them.

import { ascii } from "./quick-decode.js";

/** STREAMINFO: block sizes, rate, and the minimal head; null if it isn't FLAC. */
export function layout(head, total, duration) {
  if (head.length < 42 || ascii(head, 0, 4) !== "fLaC" || (head[4] & 0x7f) !== 0) return null;
  const s = 8; // STREAMINFO's body
  const minBlock = (head[s] << 8) | head[s + 1];
  const maxBlock = (head[s + 2] << 8) | head[s + 3];
  const rate = (head[s + 10] << 12) | (head[s + 11] << 4) | (head[s + 12] >> 4);
  if (!rate || !maxBlock) return null;
  const minimal = head.slice(0, 42);
  minimal[4] = 0x80; // the last metadata block, STREAMINFO
  minimal[s + 13] &= 0xf0; // total samples: unknown
  minimal.fill(0, s + 14, 42); // …and the MD5
  return { format: "flac", rate, minBlock, maxBlock, total, duration, minimal };
}

const MARGIN_S = 1.5;

/** A byte range around `at`, by the file's average bytes per second, with a margin. */
export function window(l, at, seconds) {
  const perSecond = l.total / Math.max(1, l.duration);
  const from = Math.max(0, Math.floor((at - MARGIN_S) * perSecond) - 65536);
  const to = Math.min(l.total - 1, Math.ceil((at + seconds + MARGIN_S) * perSecond) + 65536);
  return { from, to };
}

// CRC-8 (polynomial 0x07) of a frame header.
const CRC8 = new Uint8Array(256);
for (let i = 0; i < 256; i++) {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  CRC8[i] = c;
}

/** The frame header at bytes[i]: {sample} (its first sample), or null. */
export function frameAt(l, bytes, i) {
  if (i + 6 > bytes.length || bytes[i] !== 0xff || (bytes[i + 1] & 0xfe) !== 0xf8) return null;
  const variable = bytes[i + 1] & 1;
  const blockCode = bytes[i + 2] >> 4;
  const rateCode = bytes[i + 2] & 15;
  const channels = bytes[i + 3] >> 4;
  const depth = (bytes[i + 3] >> 1) & 7;
  if (!blockCode || rateCode === 15 || channels > 10 || depth === 3 || bytes[i + 3] & 1) return null;
  // The frame or sample number, UTF-8 style.
  let j = i + 4;
  const lead = bytes[j];
  let length = 0;
  let number;
  if (lead < 0x80) number = lead;
  else {
    for (let bit = 0x40; lead & bit && length < 6; bit >>= 1) length += 1;
    if (length < 1 || length > 6) return null;
    number = lead & (0x3f >> length);
    for (let k = 1; k <= length; k++) {
      const b = bytes[j + k];
      if ((b & 0xc0) !== 0x80) return null;
      number = number * 64 + (b & 0x3f);
    }
  }
  j += 1 + length;
  if (blockCode === 6) j += 1;
  else if (blockCode === 7) j += 2;
  if (rateCode === 12) j += 1;
  else if (rateCode === 13 || rateCode === 14) j += 2;
  if (j >= bytes.length) return null;
  let crc = 0;
  for (let k = i; k < j; k++) crc = CRC8[crc ^ bytes[k]];
  if (crc !== bytes[j]) return null;
  return { sample: variable ? number : number * l.maxBlock };
}

/** Finds frame headers in `bytes` from `i` on, in order. */
function* frames(l, bytes, i = 0) {
  for (; i + 6 <= bytes.length; i++) {
    if (bytes[i] !== 0xff) continue;
    const f = frameAt(l, bytes, i);
    if (f) yield { offset: i, sample: f.sample };
  }
}

/**
 * Cuts the piece from `part` ({bytes, offset}): {piece: {bytes, start}},
 * or {retry: {from, to}} when the range missed, or null.
 */
export function cut(l, head, part, at, seconds) {
  const { bytes, offset } = part;
  const want = Math.max(0, at - 0.1) * l.rate;
  let first = null;
  let last = null;
  let prev = null;
  for (const f of frames(l, bytes)) {
    // A header's pattern can occur inside audio data: trust one whose
    // sample number follows the one before it.
    if ((prev && f.sample <= prev.sample) || f.sample > (l.duration + 1) * l.rate) continue;
    prev = f;
    if (f.sample <= want) {
      // The latest frame at or before the position starts the piece.
      first = f;
      continue;
    }
    if (!first) {
      // The range began after the position: ask again further back.
      const back = Math.ceil(((f.sample - want) / l.rate + 1) * (l.total / Math.max(1, l.duration)));
      return offset === 0 ? null : { retry: { from: Math.max(0, offset - back), to: offset + bytes.length - 1 } };
    }
    last = f;
    if (f.sample >= (at + seconds) * l.rate) break;
  }
  if (!first || !last) return null;
  // A frame the lookahead can't confirm may be a false header: stop at `last`.
  if (last.sample < (at + Math.min(seconds, 2)) * l.rate) {
    if (offset + bytes.length >= l.total) return null;
    const more = Math.ceil((seconds + 1) * (l.total / Math.max(1, l.duration)));
    return { retry: { from: offset, to: Math.min(l.total - 1, offset + bytes.length + more) } };
  }
  // Frames from `first` up to the one whose start is `last`'s.
  const piece = new Uint8Array(l.minimal.length + (last.offset - first.offset));
  piece.set(l.minimal);
  piece.set(bytes.subarray(first.offset, last.offset), l.minimal.length);
  return { piece: { bytes: piece, start: first.sample / l.rate } };
}
