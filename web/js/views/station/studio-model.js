// The studio board's numbers, apart from the DOM (studio.js shows them):
// the last hour as one peak per minute, the chart's SVG path data, the
// words a screen reader hears instead of the chart, and the countdown of
// the song on the air. Pure functions, unit-tested in e2e/js.

export const MINUTE_MS = 60_000;

/** The first instant of the minute `ms` is in. */
export function minuteStart(ms) {
  return ms - (((ms % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
}

/**
 * `span` peaks, oldest first, for the minutes up to the one `now` is in.
 * The server leaves out a minute nobody listened in (so it counts 0), and
 * keeps a minute only once it has ended: the minute in progress is at
 * least `live`, the count right now.
 */
export function minutePeaks(minutes, { now, span = 60, live = 0 }) {
  const first = minuteStart(now) - (span - 1) * MINUTE_MS;
  const peaks = new Array(span).fill(0);
  for (const m of minutes || []) {
    const index = Math.round((m.minute - first) / MINUTE_MS);
    if (index >= 0 && index < span) peaks[index] = Math.max(peaks[index], Number(m.peak) || 0);
  }
  if (span > 0) peaks[span - 1] = Math.max(peaks[span - 1], Number(live) || 0);
  return peaks;
}

/** The chart's top: at least 1, rounded up to a number read at a glance (4, 10, 25, 60, 300). */
export function chartTop(values) {
  const max = Math.max(1, ...values.map((v) => Number(v) || 0));
  if (max <= 5) return max;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * magnitude >= max) return step * magnitude;
  }
  return max;
}

const tenth = (n) => Math.round(n * 10) / 10;

/**
 * Path data for `values` in a `width`×`height` box: `line` along the tops
 * and `area` under it, closed on the baseline. Steps, not a smoothed curve:
 * each value is one minute's peak, so it reads as a flat run across its
 * minute, never as a slope between two.
 */
export function sparkPaths(values, { width, height, top = chartTop(values), pad = 2 }) {
  if (!values.length) return { line: "", area: "", top };
  const step = width / values.length;
  const base = height - pad;
  const y = (v) => tenth(base - (height - 2 * pad) * (Math.min(Math.max(Number(v) || 0, 0), top) / top));
  let line = "";
  values.forEach((v, i) => {
    const x1 = tenth((i + 1) * step);
    line += i === 0 ? `M0 ${y(v)}H${x1}` : `V${y(v)}H${x1}`;
  });
  return { line, area: `${line}V${tenth(base)}H0Z`, top };
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** How long people stay, in words: "40 s", "4 min", "1 h 5 min". */
export function stayText(ms) {
  const seconds = Math.round((Number(ms) || 0) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
}

/**
 * Today's figures in one line ("Peak today 14; 37 listener-minutes;
 * people stay 4 min"), never below the count right now (the minute in
 * progress is not in the server's figures yet).
 */
export function audienceSummary(today, live = 0) {
  const peak = Math.max(Number(today && today.peak) || 0, Number(live) || 0);
  const raw = Math.max(0, Number(today && today.listenerMinutes) || 0);
  // Tenths while it is small, so a first quiet hour doesn't read "0".
  const minutes = raw < 10 ? Math.round(raw * 10) / 10 : Math.round(raw);
  const parts = [`Peak today ${peak}`, plural(minutes, "listener-minute", "listener-minutes")];
  if (today && today.averageStayMs) parts.push(`people stay ${stayText(today.averageStayMs)}`);
  return parts.join("; ");
}

/** What the chart shows, for its accessible name. */
export function chartLabel(peaks) {
  if (!peaks.length) return "Listeners: no figures yet";
  const peak = Math.max(...peaks);
  const now = peaks[peaks.length - 1];
  const minutes = peaks.length;
  if (peak === 0) return `Listeners over the last ${minutes} minutes: nobody yet`;
  return `Listeners over the last ${minutes} minutes: at most ${peak}, ${now} this minute`;
}

/** Where the listeners are, from the audience counts: "2 in the app · 1 on the radio stream". */
export function whereText(counts) {
  if (!counts) return "";
  const parts = [];
  if (counts.app) parts.push(`${counts.app} in the app`);
  if (counts.stream) parts.push(`${counts.stream} on the radio stream`);
  if (counts.relays) parts.push(plural(counts.relays, "relay", "relays"));
  return parts.join(" · ");
}

/**
 * The countdown of the song on the air: whole seconds rounded up, so it
 * reads 0:01 until the song ends and never 0:00 while it still plays.
 */
export function timeLeftText(ms) {
  const total = Math.max(0, Math.ceil((Number(ms) || 0) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}
