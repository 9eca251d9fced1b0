// Ogg Vorbis pieces from a byte range out of the middle of the file
// (range-start.js asks for it): the file's three header packets (their
// pages, as in the file) followed by whole pages from a page p that
// doesn't continue a packet from the page before.
//
// Where its sound starts takes the block sizes. Each Vorbis packet returns
// the samples where its window overlaps the one before: a quarter of the
// previous block plus a quarter of its own. The piece's first packet (B,
// page p's first) has nothing before it, so it returns nothing, and the
// next returns what it returns in the whole file, which begins a quarter of
// A's block plus a quarter of B's after page p − 1's granule position (A is
// the last packet ending on page p − 1). A packet's block size is in its
// first byte (its mode, whose long-or-short flag is in the setup header);
// the mode flags are read from the setup header's end backwards, as
// FFmpeg's vorbis_parser.c does, since the fields before them are of
// variable length.

import { ascii, oggPages, oggPagesIn, PRE_ROLL_S } from "./quick-decode.js";
import { oggPiece } from "./slice-opus.js";

/** A page's packets: {start, end} byte spans, and whether the first began on an earlier page or the last goes on. */
function packetsOf(bytes, page) {
  const segments = bytes[page.offset + 26];
  const spans = [];
  let at = page.data;
  let from = at;
  for (let s = 0; s < segments; s++) {
    const lace = bytes[page.offset + 27 + s];
    at += lace;
    if (lace < 255) {
      spans.push({ start: from, end: at });
      from = at;
    }
  }
  return { spans, open: from < at ? { start: from, end: at } : null };
}

/** The setup header's modes' block flags (true: long), read backwards from its end; null if not found. */
function modeFlags(setup) {
  const n = setup.length * 8;
  // Bit k counted from the packet's last bit backwards (Vorbis packs bits from each byte's low end).
  const bit = (k) => (setup[setup.length - 1 - (k >> 3)] >> (7 - (k & 7))) & 1;
  const bits = (k, count) => {
    let v = 0;
    for (let i = 0; i < count; i++) v = (v << 1) | bit(k + i);
    return v;
  };
  let k = 0;
  while (k < n - 97 && !bit(k)) k++;
  if (k >= n - 97) return null;
  const framing = k + 1;
  k = framing;
  let count = 0;
  let found = 0;
  while (n - k >= 97) {
    if (bits(k, 8) > 63 || bits(k + 8, 16) || bits(k + 24, 16)) break;
    k += 41;
    count++;
    if (count > 63) break;
    if (bits(k, 6) + 1 === count) found = count;
  }
  if (!found) return null;
  const flags = new Array(found);
  for (let i = found - 1, at = framing; i >= 0; i--, at += 41) flags[i] = bit(at + 40) === 1;
  return flags;
}

/** The header pages, rate, block sizes and mode flags; null if it isn't Ogg Vorbis, {needHead} if the head is too short. */
export function layout(head, total, duration) {
  const pages = oggPages(head, head.length);
  if (!pages || !pages.length || head[pages[0].data] !== 1 || ascii(head, pages[0].data + 1, 6) !== "vorbis") return null;
  const firstAudio = pages.findIndex((p) => p.granule > 0);
  if (firstAudio < 1) return head.length < total ? { needHead: Math.min(total, head.length * 4) } : null;
  // The three header packets, put together across pages.
  const headers = [];
  let open = null;
  for (const page of pages.slice(0, firstAudio)) {
    const { spans, open: rest } = packetsOf(head, page);
    for (const span of spans) {
      headers.push(open ? [...open, span] : [span]);
      open = null;
    }
    if (rest) open = [...(open || []), rest];
  }
  if (headers.length !== 3 || open) return null;
  const join = (parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.end - p.start, 0));
    let i = 0;
    for (const p of parts) {
      out.set(head.subarray(p.start, p.end), i);
      i += p.end - p.start;
    }
    return out;
  };
  const id = join(headers[0]);
  const setup = join(headers[2]);
  if (id.length < 30 || setup[0] !== 5 || ascii(setup, 1, 6) !== "vorbis") return null;
  const rate = id[12] | (id[13] << 8) | (id[14] << 16) | ((id[15] << 24) >>> 0);
  const blocks = [1 << (id[28] & 15), 1 << (id[28] >> 4)];
  const modes = modeFlags(setup);
  if (!rate || !modes || modes.length > 63) return null;
  const modeBits = modes.length > 1 ? 32 - Math.clz32(modes.length - 1) : 0;
  return { format: "vorbis", headEnd: pages[firstAudio].offset, total, duration, rate, blocks, modes, modeBits };
}

/** An audio packet's block size from its first byte, or null. */
function blockOf(l, byte) {
  if (byte & 1) return null;
  const mode = (byte >> 1) & ((1 << l.modeBits) - 1);
  return mode < l.modes.length ? l.blocks[l.modes[mode] ? 1 : 0] : null;
}

// The byte range around a position: Ogg's, as for Opus (the same layout fields).
export { window } from "./slice-opus.js";

/** Where page p's sound starts in the file (samples), if pages p − 1 and p tell. */
function soundStart(l, bytes, pages, p) {
  const before = pages[p - 1];
  if (before.granule < 0 || pages[p].continued) return null;
  const { spans } = packetsOf(bytes, before);
  const last = spans[spans.length - 1];
  // A must begin on page p − 1 (its first byte is needed) and B on page p.
  if (!last || (spans.length === 1 && before.continued)) return null;
  const first = packetsOf(bytes, pages[p]).spans[0] || packetsOf(bytes, pages[p]).open;
  if (!first) return null;
  const a = blockOf(l, bytes[last.start]);
  const b = blockOf(l, bytes[first.start]);
  return a && b ? before.granule + a / 4 + b / 4 : null;
}

export function cut(l, head, part, at, seconds) {
  const { bytes, offset } = part;
  const pages = oggPagesIn(bytes);
  const perSecond = (l.total - l.headEnd) / Math.max(1, l.duration);
  const want = Math.max(0, at - PRE_ROLL_S) * l.rate;
  let p = -1;
  let start = 0;
  for (let i = 1; i < pages.length; i++) {
    if (pages[i - 1].granule > want) break;
    const s = soundStart(l, bytes, pages, i);
    if (s !== null && s <= want) {
      p = i;
      start = s;
    }
  }
  if (p < 0 && offset <= l.headEnd && pages.length && pages[0].offset === l.headEnd - offset) {
    // Near the start: the file's first pages, as they are.
    p = 0;
    start = 0;
  }
  if (p < 0) {
    if (offset <= l.headEnd) return null;
    return { retry: { from: Math.max(l.headEnd, offset - Math.ceil(3 * perSecond)), to: offset + bytes.length - 1 } };
  }
  return oggPiece(l, head, part, pages, p, start, at, seconds, l.rate);
}
