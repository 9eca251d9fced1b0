// Ogg Opus pieces from a byte range out of the middle of the file
// (range-start.js asks for it): the file's header pages (OpusHead, tags)
// followed by whole pages from one found in the range that doesn't continue
// a packet from the page before. Its first sample is the page before's
// granule position, exactly (the decoder drops the pre-skip from the
// piece's start as it does from the file's: see quick-decode.js). Ogg
// Vorbis is cut by slice-vorbis.js.

import { ascii, oggPages, oggPagesIn, PRE_ROLL_S } from "./quick-decode.js";

const RATE = 48000;

/** The header pages' end; null if it isn't Ogg Opus, {needHead} if the head is too short. */
export function layout(head, total, duration) {
  const pages = oggPages(head, head.length);
  if (!pages || !pages.length || ascii(head, pages[0].data, 8) !== "OpusHead") return null;
  const firstAudio = pages.findIndex((p) => p.granule > 0);
  if (firstAudio < 1) return head.length < total ? { needHead: Math.min(total, head.length * 4) } : null;
  return { format: "opus", headEnd: pages[firstAudio].offset, total, duration };
}

const MARGIN_S = 1.5;

export function window(l, at, seconds) {
  const perSecond = (l.total - l.headEnd) / Math.max(1, l.duration);
  const from = Math.max(l.headEnd, l.headEnd + Math.floor((at - PRE_ROLL_S - MARGIN_S) * perSecond) - 16384);
  const to = Math.min(l.total - 1, l.headEnd + Math.ceil((at + seconds + MARGIN_S) * perSecond) + 16384);
  return { from, to };
}

export function cut(l, head, part, at, seconds) {
  const { bytes, offset } = part;
  const pages = oggPagesIn(bytes);
  const want = Math.max(0, at - PRE_ROLL_S) * RATE;
  let p = -1;
  for (let i = 1; i < pages.length; i++) {
    const before = pages[i - 1].granule;
    if (before < 0 || pages[i].continued) continue;
    if (before > want) break;
    p = i;
  }
  if (p < 0 && at - PRE_ROLL_S <= 0 && offset <= l.headEnd && pages.length && pages[0].offset === l.headEnd - offset) {
    // Near the start: the file's first pages, as they are.
    let q = 0;
    while (q < pages.length - 1 && (pages[q].granule < 0 || pages[q].granule < (at + seconds) * RATE)) q++;
    const to = pages[q].offset + pages[q].size;
    const piece = new Uint8Array(l.headEnd + (to - pages[0].offset));
    piece.set(head.subarray(0, l.headEnd));
    piece.set(bytes.subarray(pages[0].offset, to), l.headEnd);
    return { piece: { bytes: piece, start: 0 } };
  }
  if (p < 0) {
    const perSecond = (l.total - l.headEnd) / Math.max(1, l.duration);
    if (offset <= l.headEnd) return null;
    return { retry: { from: Math.max(l.headEnd, offset - Math.ceil(3 * perSecond)), to: offset + bytes.length - 1 } };
  }
  return oggPiece(l, head, part, pages, p, pages[p - 1].granule, at, seconds, RATE);
}

/**
 * The header pages, then pages p up to one that ends `seconds` past `at`
 * (`start`: the piece's first sample, in samples at `rate`); or a retry
 * further on when the range ends too soon. Opus's and Vorbis's pieces alike.
 */
export function oggPiece(l, head, part, pages, p, start, at, seconds, rate) {
  const { bytes, offset } = part;
  let q = p;
  while (q < pages.length && (pages[q].granule < 0 || pages[q].granule < (at + seconds) * rate)) q++;
  if (q >= pages.length) q = pages.length - 1;
  if (pages[q].granule < (at + Math.min(seconds, 2)) * rate) {
    if (offset + bytes.length >= l.total) return null;
    const perSecond = (l.total - l.headEnd) / Math.max(1, l.duration);
    return { retry: { from: offset, to: Math.min(l.total - 1, offset + bytes.length + Math.ceil((seconds + 1) * perSecond)) } };
  }
  const from = pages[p].offset;
  const to = pages[q].offset + pages[q].size;
  const piece = new Uint8Array(l.headEnd + (to - from));
  piece.set(head.subarray(0, l.headEnd));
  piece.set(bytes.subarray(from, to), l.headEnd);
  return { piece: { bytes: piece, start: start / rate } };
}
