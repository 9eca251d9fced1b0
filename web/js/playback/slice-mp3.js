// MP3 pieces from a byte range of the file (range-start.js asks for it).
//
// A piece is the file's head (ID3 and the Xing/Info frame, so the decoder
// trims the encoder delay from the piece as it does from the file: see
// quick-decode.js) followed by whole frames from frame j on. Its first
// sample is the file's sample j × 1152 exactly, so frame j must be known:
//
// - constant bitrate (LAME's "Info" frame, or no tag): every frame is
//   144000 × bitrate / rate bytes long on average (the padding bit keeps
//   the running total within a byte), so a frame found in a slice from the
//   middle tells its own number, and only seconds around the position are
//   fetched;
// - variable bitrate ("Xing", "VBRI"): frames have no number and no fixed
//   length, so they are counted from the first one: the range asked for is
//   the file from its head up to a little past the position (more bytes,
//   but still only those seconds are decoded).

import { mp3Frame, mp3Frames, quickPiece, PRE_ROLL_S } from "./quick-decode.js";

/** What the head says: where audio starts, its rate and whether it's CBR; null if it isn't MP3. */
export function layout(head, total, duration) {
  const parsed = mp3Frames(head, head.length);
  if (!parsed) return null;
  const { frames, info, rate, tag } = parsed;
  const audio = info ? 1 : 0;
  if (frames.length <= audio + 1) return null;
  const first = frames[audio];
  const sample = frames.slice(audio, audio + 32);
  const cbr = tag !== "Xing" && tag !== "VBRI" && sample.every((f) => f.bitrate === first.bitrate);
  return { format: "mp3", audioStart: first.offset, rate, bitrate: first.bitrate, cbr, total, duration, avg: (144000 * first.bitrate) / rate };
}

/** The byte range to ask for to play from `at` (s) for `seconds`. */
export function window(l, at, seconds) {
  const perFrame = 1152 / l.rate;
  if (l.cbr) {
    const j = Math.max(0, Math.floor((at - PRE_ROLL_S) / perFrame));
    const m = j + Math.ceil((seconds + PRE_ROLL_S) / perFrame);
    const from = Math.max(l.audioStart, l.audioStart + Math.floor(j * l.avg) - 2 * Math.ceil(l.avg));
    const to = Math.min(l.total - 1, l.audioStart + Math.ceil(m * l.avg) + 2 * Math.ceil(l.avg));
    return { from, to };
  }
  // VBR: from the head on, up to the position's share of the file and a margin.
  const share = Math.min(1, (at + seconds) / Math.max(1, l.duration));
  return { from: 0, to: Math.min(l.total - 1, Math.ceil(l.audioStart + (l.total - l.audioStart) * share * 1.15 + 32768)) };
}

/**
 * Cuts the piece from `part` ({bytes, offset}): {piece: {bytes, start}},
 * or {retry: {from, to}} when the range missed, or null.
 */
export function cut(l, head, part, at, seconds) {
  if (!l.cbr) {
    const bytes = part.offset === 0 ? part.bytes : null;
    if (!bytes) return null;
    const found = quickPiece("mp3", bytes, bytes.length, at, seconds);
    if (found) return { piece: found };
    const toEnd = part.offset + bytes.length >= l.total;
    // Near the start, the file's own first seconds are the piece.
    if (at < 1 && (toEnd || bytes.length > 2 * l.audioStart)) return { piece: { bytes: bytes.slice(), start: 0 } };
    if (toEnd) {
      // Near the end: whatever is left of the file.
      const rest = quickPiece("mp3", bytes, bytes.length, at, Math.max(0.5, l.duration - at - 0.2));
      return rest ? { piece: rest } : null;
    }
    return { retry: { from: 0, to: Math.min(l.total - 1, Math.ceil(bytes.length * 1.5) + 65536) } };
  }
  const { bytes, offset } = part;
  const perFrame = 1152 / l.rate;
  const want = Math.max(0, Math.floor((at - PRE_ROLL_S) / perFrame));
  const end = bytes.length;
  // The first frame at or after frame `want` whose place fits the CBR grid
  // and whose next frame parses too.
  let first = null;
  for (let i = 0; i + 4 <= end; i++) {
    const f = mp3Frame(bytes, i, end);
    if (!f || f.rate !== l.rate || f.bitrate !== l.bitrate) continue;
    const exact = (offset + i - l.audioStart) / l.avg;
    const j = Math.round(exact);
    if (j < want || Math.abs(exact - j) * l.avg > 1.5 || !mp3Frame(bytes, i + f.length, end)) continue;
    first = { i, j };
    break;
  }
  if (!first) return null;
  const start = first.j * perFrame;
  if (start > Math.max(0, at - 0.05)) return null;
  let at2 = first.i;
  let count = 0;
  const need = Math.ceil((at - start + seconds) / perFrame);
  while (count < need) {
    const f = mp3Frame(bytes, at2, end);
    if (!f || at2 + f.length > end) break;
    at2 += f.length;
    count += 1;
  }
  if (start + count * perFrame < at + Math.min(seconds, 2)) return null;
  const piece = new Uint8Array(l.audioStart + (at2 - first.i));
  piece.set(head.subarray(0, l.audioStart));
  piece.set(bytes.subarray(first.i, at2), l.audioStart);
  return { piece: { bytes: piece, start } };
}
