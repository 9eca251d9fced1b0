// Each output route's measured delay on this device: what the sound takes
// after the browser hands it over (a Bluetooth speaker's 100–300 ms, an HDMI
// TV's), which AudioContext.outputLatency doesn't see. Kept per route in
// this browser's storage; only a calibration's figure ever goes in.

export const MAX_DELAY_MS = 2000;
/** A device may sound a little ahead of the meter (nearer the microphone);
 * further ahead is not a delay but a mistake. */
export const MIN_DELAY_MS = -50;
export const MAX_ROUTES = 32;
const KEY = "wavelength.outputDelays";

/**
 * A route's name: the output device the browser plays to (its sink, or
 * the labels of the outputs it lists) and the latency it reports, rounded
 * to 10 ms.
 */
export function routeKey({ sinkId = "", outputs = [], outputLatencyS = 0 } = {}) {
  const device = sinkId || (outputs.length ? outputs.map((o) => o.label || o.deviceId || "?").sort().join("|") : "default");
  return `${device.slice(0, 100)}@${Math.round(((outputLatencyS || 0) * 1000) / 10) * 10}ms`;
}

/**
 * The book with a calibration's residual added to the route's correction
 * (the residual was heard with the correction already applied), or
 * {error} when the total is absurd: the correction in place stays.
 */
export function applyResidual(book, route, residualMs, now) {
  if (!Number.isFinite(residualMs)) return { error: "The measurement gave no number." };
  const before = book[route] ? book[route].delayMs : 0;
  const total = before + residualMs;
  if (total < MIN_DELAY_MS || total > MAX_DELAY_MS) {
    return { error: `${Math.round(total)} ms is no sound path's delay (${MIN_DELAY_MS} to ${MAX_DELAY_MS} ms). The correction in place stays.` };
  }
  const next = { ...book, [route]: { delayMs: total, measuredAt: now } };
  const routes = Object.keys(next);
  if (routes.length > MAX_ROUTES) {
    const oldest = routes.reduce((a, b) => (next[a].measuredAt <= next[b].measuredAt ? a : b));
    delete next[oldest];
  }
  return { book: next, delayMs: total };
}

/** The correction for a route (ms), 0 when never measured. */
export function delayFor(book, route) {
  const entry = book && book[route];
  return entry && Number.isFinite(entry.delayMs) ? entry.delayMs : 0;
}

export function loadBook(storage = globalThis.localStorage) {
  try {
    const book = JSON.parse(storage.getItem(KEY) || "{}");
    return book && typeof book === "object" && !Array.isArray(book) ? book : {};
  } catch {
    return {};
  }
}

export function saveBook(book, storage = globalThis.localStorage) {
  try {
    storage.setItem(KEY, JSON.stringify(book));
  } catch {
    // Private mode or a full storage: the correction holds for this visit.
  }
}
