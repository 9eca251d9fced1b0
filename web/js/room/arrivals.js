// The meter's estimator: where each chirp arrived in its one recording, and
// so how far each device's sound lags the meter's own. Pure: samples in,
// figures out, nothing sent anywhere.
//
// delay(i) = (nᵢ − n₀)/fs − (Tᵢ − T₀) − distance/c
//
// n₀ and nᵢ are where the meter's own chirp and device i's chirp arrived in
// the recording, Tᵢ − T₀ how far apart they were meant to sound on the
// shared clock. Both arrivals are in one recording, so the meter's own
// input latency cancels.
//
// Each arrival is found by a matched filter (cross-correlation with the
// chirp, its envelope through the analytic signal), then the *first* local
// peak within WITHIN_DB of the strongest: in a room the strongest peak is
// often a reflection (a wall, a table), never earlier than the direct sound.
// A parabola through the envelope around it gives a fraction of a sample.
// Every repetition is measured on its own; the figure is their median, and
// repetitions that disagree by more than SPREAD_LIMIT_MS are refused rather
// than averaged into a wrong answer.

import { fft, nextPow2 } from "./chirp.js";

export const WITHIN_DB = 6;
/** Below this peak-to-floor ratio of the correlation, nothing was heard. */
export const MIN_SNR_DB = 15;
export const SPREAD_LIMIT_MS = 1;
/** The largest output delay looked for (s). */
export const MAX_DELAY_S = 1.0;
/** How early a chirp may arrive against its slot (s): the meter's own
 * input and output paths can be ahead of what its clock expects. */
export const EARLY_S = 0.05;
const SPEED_OF_SOUND = 343;

/**
 * The matched filter's envelope over `segment`: entry k is how strongly
 * the template starts at sample k.
 */
export function matchedEnvelope(segment, template) {
  const size = nextPow2(segment.length + template.length);
  const xr = new Float64Array(size);
  const xi = new Float64Array(size);
  const hr = new Float64Array(size);
  const hi = new Float64Array(size);
  xr.set(segment);
  hr.set(template);
  fft(xr, xi);
  fft(hr, hi);
  // X · conj(H), with the negative frequencies zeroed and the positive
  // doubled: the inverse is then the analytic correlation, whose magnitude
  // is a smooth envelope instead of a carrier that swings through zero.
  const half = size >> 1;
  for (let k = 0; k < size; k++) {
    const scale = k === 0 || k === half ? 1 : k < half ? 2 : 0;
    const re = (xr[k] * hr[k] + xi[k] * hi[k]) * scale;
    const im = (xi[k] * hr[k] - xr[k] * hi[k]) * scale;
    xr[k] = re;
    xi[k] = im;
  }
  fft(xr, xi, true);
  const envelope = new Float64Array(segment.length);
  for (let k = 0; k < segment.length; k++) envelope[k] = Math.hypot(xr[k], xi[k]);
  return envelope;
}

function median(values) {
  const sorted = Array.from(values).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The first arrival in an envelope: {at (fractional index), snrDb}, or
 * null when its peak doesn't stand above the floor by MIN_SNR_DB.
 */
export function firstArrival(envelope, { withinDb = WITHIN_DB, minSnrDb = MIN_SNR_DB } = {}) {
  let peak = 0;
  for (const v of envelope) if (v > peak) peak = v;
  const floor = median(envelope);
  const snrDb = 20 * Math.log10(peak / Math.max(floor, 1e-12));
  if (!(peak > 0) || snrDb < minSnrDb) return null;
  const threshold = peak * 10 ** (-withinDb / 20);
  for (let k = 0; k < envelope.length; k++) {
    const v = envelope[k];
    if (v < threshold) continue;
    const before = k > 0 ? envelope[k - 1] : -Infinity;
    const after = k + 1 < envelope.length ? envelope[k + 1] : -Infinity;
    if (v < before || v < after) continue;
    let at = k;
    if (k > 0 && k + 1 < envelope.length) {
      const curve = before - 2 * v + after;
      if (curve < 0) at = k + (0.5 * (before - after)) / curve;
    }
    return { at, snrDb };
  }
  return null;
}

/** Where `template` arrives in recording[from, to): a recording index. */
function arrivalIn(recording, template, from, to) {
  const start = Math.max(0, Math.floor(from));
  const end = Math.min(recording.length, Math.ceil(to) + template.length);
  if (end - start < template.length) return null;
  const found = firstArrival(matchedEnvelope(recording.subarray(start, end), template).subarray(0, end - start - template.length + 1));
  return found && { at: start + found.at, snrDb: found.snrDb };
}

/**
 * Each repetition's arrival of one sound whose repetitions were meant to
 * start at `expected` (recording indices as if nothing were delayed): the
 * first is looked for from EARLY_S before to MAX_DELAY_S after (no earlier
 * chirp of the same sound can be there), and each later one within a few
 * ms of where the first says. null entries were not heard.
 */
export function arrivals(recording, rate, template, expected, { maxDelayS = MAX_DELAY_S } = {}) {
  const first = arrivalIn(recording, template, expected[0] - EARLY_S * rate, expected[0] + maxDelayS * rate);
  if (!first) return expected.map(() => null);
  const lag = first.at - expected[0];
  return expected.map((start, r) => {
    if (r === 0) return first;
    return arrivalIn(recording, template, start + lag - 0.01 * rate, start + lag + 0.04 * rate);
  });
}

/**
 * The calibration's figures from the meter's recording.
 *
 * - `meter`: the recording indices at which the meter's own chirps were
 *   meant to start (its clock's idea, before any delay);
 * - `devices`: [{device, expected: [indices]}], each device's chirps on the
 *   same scale, from their slots on the shared clock;
 * - `distanceM`: how far the devices stand from the meter, whose sound
 *   travels that far at 343 m/s.
 *
 * → {meter: {heard, snrDb}, results: [{device, delayMs} | {device, problem}]}
 */
export function measureRoom({ recording, rate, template, meter, devices, distanceM = 0, maxDelayS = MAX_DELAY_S }) {
  const own = arrivals(recording, rate, template, meter, { maxDelayS });
  if (own.some((a) => !a)) {
    const problem = "The meter could not hear its own chirp: turn its volume up, or check that the microphone is not covered.";
    return { meter: { heard: false }, results: devices.map(({ device }) => ({ device, problem })) };
  }
  const travelMs = (Math.max(0, distanceM) / SPEED_OF_SOUND) * 1000;
  const results = devices.map(({ device, expected }) => {
    const heard = arrivals(recording, rate, template, expected, { maxDelayS });
    if (heard.some((a) => !a)) {
      return { device, problem: heard.every((a) => !a) ? "Not heard: is it playing, and is its volume up?" : "Heard only some of its chirps: too much noise. Try again in a quieter moment." };
    }
    const delays = heard.map((a, r) => ((a.at - own[r].at - (expected[r] - meter[r])) / rate) * 1000 - travelMs);
    const spread = Math.max(...delays) - Math.min(...delays);
    if (spread > SPREAD_LIMIT_MS) {
      return { device, problem: `Its chirps disagreed by ${spread.toFixed(1)} ms: too much noise or echo. Try again closer to it, or in a quieter moment.` };
    }
    return { device, delayMs: median(delays), spreadMs: spread, snrDb: Math.min(...heard.map((a) => a.snrDb)) };
  });
  return { meter: { heard: true, snrDb: Math.min(...own.map((a) => a.snrDb)) }, results };
}
