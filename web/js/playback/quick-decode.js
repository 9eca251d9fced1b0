// Quick starts for tuning in mid-song: a piece of the file that decodes on
// its own and starts a little before the tune-in position, with the exact
// file position of its first sample, so sound can start before the whole
// file is decoded (decoding a minute of Opus takes half a second on a slow
// machine; a piece of a few seconds, a twentieth of that).
//
// - MP3 (MPEG-1 Layer III): the bytes before the first frame (ID3, and the
//   Xing/Info frame, whose encoder-delay trim then applies to the piece as it
//   does to the whole file) plus whole frames from frame k. The piece's first
//   sample is the file's sample k × 1152 (counting audio frames), exactly.
// - Ogg Opus: the header pages plus whole pages from a page that doesn't
//   continue a packet. Its first sample is the previous page's granule
//   position (the decoder drops the pre-skip from the piece's start just as
//   it drops it from the file's), exactly.
//
// Both were checked sample by sample against whole-file decodes in Chromium,
// and the player checks again when the whole file has decoded before moving
// over to it. Other formats fall back to decoding the start of the file.
//
// These read pieces from the start of a file; slice-*.js cut them from a
// byte range out of its middle (range-start.js), with the helpers exported
// here.

export const PRE_ROLL_S = 0.5;

const MP3_BITRATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0];
const MP3_RATES = [44100, 48000, 32000, 0];

export function mp3Frame(bytes, i, end) {
  if (i + 4 > end || bytes[i] !== 0xff || (bytes[i + 1] & 0xe0) !== 0xe0) return null;
  const version = (bytes[i + 1] >> 3) & 3;
  const layer = (bytes[i + 1] >> 1) & 3;
  const bitrate = MP3_BITRATES[bytes[i + 2] >> 4];
  const rate = MP3_RATES[(bytes[i + 2] >> 2) & 3];
  if (version !== 3 || layer !== 1 || !bitrate || !rate) return null;
  const length = Math.floor((144000 * bitrate) / rate) + ((bytes[i + 2] >> 1) & 1);
  return { offset: i, length, rate, bitrate, mono: bytes[i + 3] >> 6 === 3 };
}

export function ascii(bytes, at, n) {
  let s = "";
  for (let k = 0; k < n && at + k < bytes.length; k++) s += String.fromCharCode(bytes[at + k]);
  return s;
}

/** MPEG-1 Layer III frames of bytes[0, end), or null when it isn't one. */
export function mp3Frames(bytes, end) {
  let i = 0;
  if (ascii(bytes, 0, 3) === "ID3" && end >= 10) {
    i = 10 + (((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f));
    if (bytes[5] & 0x10) i += 10;
  }
  // The first frame: a sync whose next frame also parses.
  let first = null;
  for (let limit = Math.min(end, i + 65536); i < limit; i++) {
    const f = mp3Frame(bytes, i, end);
    if (f && mp3Frame(bytes, i + f.length, end)) {
      first = f;
      break;
    }
  }
  if (!first) return null;
  const frames = [first];
  let at = first.offset + first.length;
  for (;;) {
    const f = mp3Frame(bytes, at, end);
    if (!f || f.rate !== first.rate || at + f.length > end) break;
    frames.push(f);
    at += f.length;
  }
  const side = first.mono ? 17 : 32;
  const tag = ascii(bytes, first.offset + 4 + side, 4);
  const info = tag === "Xing" || tag === "Info" || ascii(bytes, first.offset + 36, 4) === "VBRI";
  return { frames, info, rate: first.rate, tag: info ? (tag === "Xing" || tag === "Info" ? tag : "VBRI") : null };
}

function mp3Piece(bytes, end, at, seconds) {
  const parsed = mp3Frames(bytes, end);
  if (!parsed) return null;
  const { frames, info, rate } = parsed;
  const audio = info ? 1 : 0; // index of the first audio frame
  const perFrame = 1152 / rate;
  const k = audio + Math.max(0, Math.floor((at - PRE_ROLL_S) / perFrame));
  const m = k + Math.ceil(seconds / perFrame);
  if (k <= audio + 1 || m >= frames.length) return null;
  const head = frames[audio].offset;
  const from = frames[k].offset;
  const to = frames[m].offset;
  const piece = new Uint8Array(head + (to - from));
  piece.set(bytes.subarray(0, head));
  piece.set(bytes.subarray(from, to), head);
  return { bytes: piece, start: (k - audio) * perFrame };
}

/** Ogg pages of bytes[0, end). */
export function oggPages(bytes, end) {
  const pages = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = 0;
  while (i + 27 <= end) {
    if (ascii(bytes, i, 4) !== "OggS") return pages.length ? pages : null;
    const segments = bytes[i + 26];
    if (i + 27 + segments > end) break;
    let body = 0;
    for (let s = 0; s < segments; s++) body += bytes[i + 27 + s];
    const size = 27 + segments + body;
    if (i + size > end) break;
    const low = view.getUint32(i + 6, true);
    const high = view.getInt32(i + 10, true);
    pages.push({
      offset: i,
      size,
      continued: (bytes[i + 5] & 1) !== 0,
      granule: high === -1 && low === 0xffffffff ? -1 : high * 4294967296 + low,
      data: i + 27 + segments,
    });
    i += size;
  }
  return pages;
}

/** Ogg pages in `bytes` (a range from the middle of a file) from its first capture pattern on, offsets relative to bytes. */
export function oggPagesIn(bytes) {
  for (let i = 0; i + 4 <= bytes.length; i++) {
    if (bytes[i] !== 0x4f || ascii(bytes, i, 4) !== "OggS") continue;
    const pages = oggPages(bytes.subarray(i), bytes.length - i);
    if (pages && pages.length >= 2) return pages.map((p) => ({ ...p, offset: p.offset + i, data: p.data + i }));
  }
  return [];
}

function opusPiece(bytes, end, at, seconds) {
  const pages = oggPages(bytes, end);
  if (!pages || !pages.length || ascii(bytes, pages[0].data, 8) !== "OpusHead") return null;
  const firstAudio = pages.findIndex((p) => p.granule > 0);
  if (firstAudio < 1) return null;
  const RATE = 48000;
  const want = Math.max(0, at - PRE_ROLL_S) * RATE;
  let p = -1;
  for (let i = firstAudio + 1; i < pages.length; i++) {
    const before = pages[i - 1].granule;
    if (before < 0 || pages[i].continued) continue;
    if (before > want) break;
    p = i;
  }
  if (p < 0) return null;
  const start = pages[p - 1].granule;
  let q = p;
  while (q < pages.length && (pages[q].granule < 0 || pages[q].granule - start < seconds * RATE)) q++;
  if (q >= pages.length) return null;
  const head = pages[firstAudio].offset;
  const from = pages[p].offset;
  const to = pages[q].offset + pages[q].size;
  const piece = new Uint8Array(head + (to - from));
  piece.set(bytes.subarray(0, head));
  piece.set(bytes.subarray(from, to), head);
  return { bytes: piece, start: start / RATE };
}

/**
 * A piece of the file (bytes[0, end) so far) covering `at` … `at + seconds`
 * (file seconds), as {bytes, start}, or null when this format or this much
 * of the file doesn't allow one.
 */
export function quickPiece(format, bytes, end, at, seconds) {
  try {
    if (format === "mp3") return mp3Piece(bytes, end, at, seconds);
    if (format === "opus") return opusPiece(bytes, end, at, seconds);
  } catch {
    // A file we misread: no quick start, the whole file still plays.
  }
  return null;
}

export const PIECE_FORMATS = new Set(["mp3", "opus"]);

/**
 * How far (in samples of `a`'s rate) the piece `a` (first sample at file
 * second `aStart`) is from where it says it is, judged against the whole
 * decode `b` around file second `at`: 0 when they agree, null when no lag
 * within ±`search` samples matches.
 */
export function pieceLag(a, aStart, b, at, search = 2400) {
  const rate = a.sampleRate;
  if (b.sampleRate !== rate) return null;
  const x = a.getChannelData(0);
  const y = b.getChannelData(0);
  const ia = Math.round((at - aStart) * rate);
  const ib = Math.round(at * rate);
  const n = 512;
  if (ia < 0 || ia + n > x.length || ib - search < 0 || ib + search + n > y.length) return null;
  let energy = 0;
  for (let k = 0; k < n; k++) energy += x[ia + k] * x[ia + k];
  const diff = (lag) => {
    let e = 0;
    for (let k = 0; k < n; k++) {
      const d = x[ia + k] - y[ib + lag + k];
      e += d * d;
    }
    return e;
  };
  const tolerance = Math.max(1e-9, energy * 1e-4);
  if (diff(0) <= tolerance) return 0;
  if (energy < 1e-6) return 0; // silence: nothing to tell them apart by
  let best = null;
  for (let lag = -search; lag <= search; lag++) {
    const e = diff(lag);
    if (best === null || e < best.e) best = { lag, e };
  }
  return best && best.e <= tolerance * 10 ? best.lag : null;
}
