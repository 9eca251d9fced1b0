// The history screen's pure parts (no DOM, no fetch): the API addresses it
// asks (GET …/history with at, q, before; a day's CSV or M3U), the values
// its date pickers hold, merging freshly ended plays into the list shown,
// and how a play's time reads. Unit-tested in e2e/js.

export const PAGE = 20;

/** The browser's time zone ("Europe/Oslo"), or "" when it won't say. */
export function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return "";
  }
}

const pad = (n) => String(n).padStart(2, "0");

/** A local day as a date input holds it: "2026-11-24". */
export function dayValue(date) {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A local instant as a datetime-local input holds it, to the minute: "2026-11-24T21:41". */
export function dateTimeValue(date) {
  return `${dayValue(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Whether a datetime-local value is well formed ("2026-11-24T21:41", seconds optional). */
export function isDateTimeValue(value) {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value || "");
}

const base = (stationID) => `/api/stations/${encodeURIComponent(stationID)}`;

/**
 * GET …/history: `at` (a datetime-local value: what played then, read in
 * `tz`; without a zone the browser turns it into epoch ms itself), or the
 * plays matching `q`, older than `before` (epoch ms), newest first.
 */
export function historyURL(stationID, { at = null, q = "", before = null, limit = PAGE, tz = "" } = {}) {
  const query = new URLSearchParams();
  if (at) {
    if (tz) {
      query.set("at", at);
      query.set("tz", tz);
    } else {
      query.set("at", String(new Date(at).getTime()));
    }
    return `${base(stationID)}/history?${query}`;
  }
  const words = (q || "").trim();
  if (words) query.set("q", words);
  if (before != null) query.set("before", String(before));
  query.set("limit", String(limit));
  return `${base(stationID)}/history?${query}`;
}

/** A day's playlist to download: kind "csv" or "m3u", day "2026-11-24", in `tz`. */
export function exportURL(stationID, kind, day, tz = "") {
  const query = new URLSearchParams({ day });
  if (tz) query.set("tz", tz);
  return `${base(stationID)}/history.${kind}?${query}`;
}

/**
 * The list after a refresh: plays in `latest` (newest first) that began
 * after the newest one shown go on top; the rest stays as it was (paged
 * in, scrolled through). Nothing shown yet: the latest page.
 */
export function mergeNewer(shown, latest) {
  if (!shown.length) return latest.slice();
  const newest = shown[0].start;
  const known = new Set(shown.map((e) => e.id));
  return [...latest.filter((e) => !known.has(e.id) && e.start > newest), ...shown];
}

/** Whether "Older" may find more: a full page came back. */
export function mayHaveMore(page, limit = PAGE) {
  return page.length >= limit;
}

const DAY_MS = 86_400_000;

/** "today", "yesterday" or null (an earlier day), in local time, for `ms` seen at `now`. */
export function relativeDay(ms, now) {
  const day = (t) => {
    const d = new Date(t);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  };
  const gap = Math.round((day(now) - day(ms)) / DAY_MS);
  return gap === 0 ? "today" : gap === 1 ? "yesterday" : null;
}

/**
 * When a play began, for its row: "21:41", "Yesterday 21:41" or "Sat 21
 * Nov, 21:41" (local, the browser's locale); with `seconds`, "21:41:07".
 */
export function playedAtText(ms, now, locale = undefined, { seconds = false } = {}) {
  const date = new Date(ms);
  const time = date.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", second: seconds ? "2-digit" : undefined });
  const rel = relativeDay(ms, now);
  if (rel === "today") return time;
  if (rel === "yesterday") return `Yesterday ${time}`;
  const sameYear = new Date(now).getFullYear() === date.getFullYear();
  const day = date.toLocaleDateString(locale, { weekday: "short", day: "numeric", month: "short", year: sameYear ? undefined : "numeric" });
  return `${day}, ${time}`;
}

/** Who picked a play, in a word, or null for the robot DJ (the usual case). */
export function sourceText(source) {
  return { dj: "DJ pick", request: "Request", elected: "Voted in", heard: "Heard on the live show" }[source] || null;
}

/** The most listening at once during a play: "3 listening", or null when not known. */
export function playListenersText(listeners) {
  if (listeners == null || !Number.isFinite(Number(listeners))) return null;
  return `${listeners} listening`;
}
