// The calibration chirp, and the FFT the matched filter runs on.
//
// A linear sweep from 1 to 8 kHz, 120 ms long with 10 ms fades, at a peak of
// −20 dBFS (0.1): about as loud as a phone's key click at arm's length, and
// over before anyone looks up. Sweeping 7 kHz for 120 ms gives the matched
// filter a gain of about 29 dB (time × bandwidth = 840), so the chirp needs
// no volume to be found in a room that talks, and its correlation peak is
// 1/7000 s wide: a sample or two, before interpolation.

export const CHIRP = Object.freeze({ f0: 1000, f1: 8000, seconds: 0.12, fade: 0.01, peak: 0.1 });

/** The chirp at `rate` samples a second, as a Float32Array. */
export function chirp(rate, spec = CHIRP) {
  const n = Math.round(spec.seconds * rate);
  const fade = Math.max(1, Math.round(spec.fade * rate));
  const sweep = (spec.f1 - spec.f0) / spec.seconds;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const phase = 2 * Math.PI * (spec.f0 * t + 0.5 * sweep * t * t);
    let envelope = 1;
    if (i < fade) envelope = 0.5 - 0.5 * Math.cos((Math.PI * i) / fade);
    else if (i >= n - fade) envelope = 0.5 - 0.5 * Math.cos((Math.PI * (n - 1 - i)) / fade);
    out[i] = spec.peak * envelope * Math.sin(phase);
  }
  return out;
}

/** The smallest power of two ≥ n. */
export function nextPow2(n) {
  let size = 1;
  while (size < n) size <<= 1;
  return size;
}

/**
 * In-place iterative radix-2 FFT of (re, im), both Float64Array of a power
 * of two length; `inverse` scales by 1/n.
 */
export function fft(re, im, inverse = false) {
  const n = re.length;
  if (n !== im.length || (n & (n - 1)) !== 0) throw new Error("fft: length must be a power of two");
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    const half = len >> 1;
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < half; k++) {
        const a = i + k;
        const b = a + half;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
  if (inverse) {
    for (let i = 0; i < n; i++) {
      re[i] /= n;
      im[i] /= n;
    }
  }
}
