// Station frequencies ("107.3", "98.35"): the one place the web app reads,
// checks and shows them, so that every form accepts what the server hands
// out and nothing it would refuse.
//
// The shape is the server's own (FrequencyDial.isWellFormed in
// Sources/WavelengthCore/FrequencyDial.swift): 2–3 digits, a dot, 1–3
// digits. The server hands out the FM band's odd tenths (87.5 … 107.9)
// first, then half channels (87.55 … 107.95), other hundredths (87.51 …)
// and thousandths (87.501 … 107.999), and finds a station by the exact
// string, so "98.3" and "98.30" are different codes and nothing here pads
// or rounds one.

const WELL_FORMED = /^[0-9]{2,3}\.[0-9]{1,3}$/;

/** Whether `code` has the shape of a frequency code, exactly as the server checks it. */
export function isFrequency(code) {
  return typeof code === "string" && WELL_FORMED.test(code);
}

/**
 * What someone typed, as the code the server knows, or null: spaces around
 * it, a trailing "FM" and a decimal comma ("98,35") are forgiven.
 */
export function parseFrequency(input) {
  if (typeof input !== "string") return null;
  const code = input.trim().replace(/\s*fm$/i, "").replace(",", ".");
  return isFrequency(code) ? code : null;
}

/** "107.3 FM" for a code, "" for none (or anything that isn't one). */
export function formatFrequency(code) {
  return isFrequency(code) ? `${code} FM` : "";
}

/** A code's place on the band in MHz (98.35 for "98.35"), or NaN. */
export function frequencyMHz(code) {
  return isFrequency(code) ? Number(code) : NaN;
}

/** How many decimals a code shows, so a sweeping readout keeps its width. */
export function frequencyDecimals(code) {
  return isFrequency(code) ? code.split(".")[1].length : 1;
}
