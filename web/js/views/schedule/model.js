// The schedule screens' pure parts (no DOM, no fetch): which week is shown
// (a Monday to the next Monday in the browser's zone; the hash holds its
// Monday as ?week=2026-11-23), the days of that week with the episodes the
// server sent, an episode's times, the local date of an instant in a show's
// own zone, and the ShowSpec a show's page or the editor sends back. The
// server computes every episode; nothing here works out a recurrence.
// Unit-tested by e2e/browser/test_schedule_units.py.

const DAY_MS = 86_400_000;
const pad = (n) => String(n).padStart(2, "0");

/** The browser's time zone ("Europe/Oslo"), or "UTC" when it won't say. */
export function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** A local day as a date input holds it: "2026-11-24". */
export function dayValue(date) {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "2026-11-24" → that day's local midnight (a Date), or null. */
export function parseDay(value) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value || "");
  if (!m) return null;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dayValue(date) === value ? date : null;
}

/** The Monday (local midnight) of the week holding `date`. */
export function mondayOf(date) {
  const d = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return d;
}

/** The week a ?week= value names (any day in it works), else this week: its Monday as "YYYY-MM-DD". */
export function weekValue(value, now = new Date()) {
  const day = parseDay(value);
  return dayValue(mondayOf(day || now));
}

/** `week` moved by `weeks` (7 calendar days each, so a clock change keeps midnight). */
export function shiftWeek(week, weeks) {
  const monday = parseDay(week) || mondayOf(new Date());
  return dayValue(new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + 7 * weeks));
}

/**
 * The week starting on the Monday `week`: {from, to} in epoch ms (the
 * schedule's [from, to)) and its seven days, each {key, date, start, end}.
 */
export function weekRange(week) {
  const monday = parseDay(week) || mondayOf(new Date());
  const days = [];
  for (let i = 0; i < 7; i += 1) {
    const date = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i);
    const next = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i + 1);
    days.push({ key: dayValue(date), date, start: date.getTime(), end: next.getTime() });
  }
  return { from: days[0].start, to: days[6].end, days };
}

/** GET …/schedule for [from, to), read in `tz`. */
export function scheduleURL(stationID, { from, to, tz }) {
  const query = new URLSearchParams();
  if (from != null) query.set("from", String(from));
  if (to != null) query.set("to", String(to));
  if (tz) query.set("tz", tz);
  return `/api/stations/${encodeURIComponent(stationID)}/schedule?${query}`;
}

/**
 * The week's days, each with the episodes starting on it (by start, as the
 * server sorted them). An episode that began before the week (it runs over
 * midnight into Monday) goes on the first day.
 */
export function daysWithEpisodes(range, episodes) {
  const days = range.days.map((day) => ({ ...day, episodes: [] }));
  for (const episode of episodes || []) {
    if (!(episode.end > range.from && episode.start < range.to)) continue;
    const at = Math.max(episode.start, range.from);
    const day = days.find((d) => d.start <= at && at < d.end);
    if (day) day.episodes.push(episode);
  }
  for (const day of days) day.episodes.sort((a, b) => a.start - b.start);
  return days;
}

/** An episode's identity on the schedule: its show and when it starts. */
export function episodeKey(episode) {
  return episode ? `${episode.showID}@${episode.start}` : "";
}

/** Whether two episodes are the same airing. */
export function sameEpisode(a, b) {
  return Boolean(a && b && a.showID === b.showID && a.start === b.start);
}

/** "22:00" in the browser's zone (its locale's way of writing times). */
export function timeText(ms, locale = undefined) {
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" }).format(new Date(ms));
}

/** "22:00–00:00", local. */
export function episodeTimeText(episode, locale = undefined) {
  return `${timeText(episode.start, locale)}–${timeText(episode.end, locale)}`;
}

/** "Tue 24 Nov" (with the year when it isn't `now`'s), local. */
export function dayText(ms, now = Date.now(), locale = undefined) {
  const sameYear = new Date(ms).getFullYear() === new Date(now).getFullYear();
  return new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", year: sameYear ? undefined : "numeric" }).format(new Date(ms));
}

/** "Today", "Tomorrow" or null, for the local day of `ms` seen at `now`. */
export function relativeDayWord(ms, now = Date.now()) {
  const midnight = (t) => {
    const d = new Date(t);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  };
  const gap = Math.round((midnight(ms) - midnight(now)) / DAY_MS);
  return gap === 0 ? "Today" : gap === 1 ? "Tomorrow" : gap === -1 ? "Yesterday" : null;
}

/** "Tue 24 Nov, 22:00–00:00" or "Today, 22:00–00:00", local. */
export function whenText(episode, now = Date.now(), locale = undefined) {
  return `${relativeDayWord(episode.start, now) || dayText(episode.start, now, locale)}, ${episodeTimeText(episode, locale)}`;
}

/** "23–29 Nov 2026" for the week [from, to). */
export function weekTitle(range, locale = undefined) {
  const format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric" });
  const last = range.days[6].date;
  try {
    return format.formatRange(range.days[0].date, last);
  } catch {
    return `${format.format(range.days[0].date)} – ${format.format(last)}`;
  }
}

/** The parts of an instant as a wall clock in `timeZone` shows them. */
function zoneParts(ms, timeZone) {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const parts = {};
  for (const part of format.formatToParts(new Date(ms))) parts[part.type] = part.value;
  // Some engines write midnight as "24" even with h23.
  if (parts.hour === "24") parts.hour = "00";
  return parts;
}

/** The local date of `ms` in `timeZone`: "2026-11-24" (an episode's date as the show's spec names it). */
export function dateIn(ms, timeZone) {
  const p = zoneParts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The local date and time of `ms` in `timeZone`: "2026-11-24T22:00" (a datetime-local value). */
export function dateTimeIn(ms, timeZone) {
  const p = zoneParts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** The original local date of an episode, in its show's zone: the key of `cancelled` and `moved`. */
export function originalDate(episode, show) {
  return dateIn(episode.originalStart != null ? episode.originalStart : episode.start, show.timeZone);
}

/** A calendar address as a webcal:// link on this host (calendar apps subscribe to those). */
export function webcalURL(path, host = location.host) {
  return `webcal://${host}${path}`;
}

/** A feed's address with a calendar link's token (none: as it is). */
export function withToken(path, token) {
  if (!token) return path;
  return `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
}

/** The same address for a plain download (http or https, as this page). */
export function downloadURL(path, origin = location.origin) {
  return `${origin}${path}`;
}

// ------------------------------------------------------------- ShowSpec

/** A repeat rule with only the fields its kind has. */
export function cleanRepeat(repeat) {
  const kind = repeat && repeat.kind;
  const interval = Math.max(1, Math.min(12, Number(repeat && repeat.interval) || 1));
  if (kind === "weekly") {
    const out = { kind, interval, weekdays: [...new Set(repeat.weekdays || [])] };
    if (repeat.weekStart) out.weekStart = repeat.weekStart;
    return out;
  }
  if (kind === "monthly") return { kind, interval, weekday: repeat.weekday, ordinal: Number(repeat.ordinal) };
  return { kind: "once" };
}

/** The ShowSpec of a ShowView (hosts back to handles), to send it back changed. */
export function specOf(show) {
  return {
    name: show.name,
    description: show.description || "",
    genre: show.genre || "",
    artTrackID: show.artTrackID == null ? null : show.artTrackID,
    hosts: (show.hosts || []).map((host) => (typeof host === "string" ? host : host.handle)),
    timeZone: show.timeZone,
    startTime: show.startTime,
    durationMinutes: show.durationMinutes,
    repeat: cleanRepeat(show.repeat),
    seasonStart: show.seasonStart,
    seasonEnd: show.seasonEnd || null,
    cancelled: [...(show.cancelled || [])],
    moved: (show.moved || []).map((m) => ({ date: m.date, start: m.start, durationMinutes: m.durationMinutes })),
  };
}

/** The spec with the episode of the original local `date` cancelled (and no longer moved). */
export function withCancelled(spec, date) {
  return {
    ...spec,
    cancelled: [...new Set([...spec.cancelled, date])].sort(),
    moved: spec.moved.filter((m) => m.date !== date),
  };
}

/** The spec with the episode of the original local date `move.date` moved to `move.start` (local, the show's zone). */
export function withMoved(spec, move) {
  return {
    ...spec,
    cancelled: spec.cancelled.filter((d) => d !== move.date),
    moved: [...spec.moved.filter((m) => m.date !== move.date), { date: move.date, start: move.start, durationMinutes: move.durationMinutes }].sort((a, b) =>
      a.date < b.date ? -1 : a.date > b.date ? 1 : 0,
    ),
  };
}

/** "ada, @bo  cy" → ["ada", "bo", "cy"]. */
export function parseHosts(text) {
  return [...new Set(String(text || "").split(/[\s,;]+/).map((s) => s.replace(/^@+/, "").trim()).filter(Boolean))];
}

/**
 * The editor's values → {spec} or {error, field} for what can be told
 * before asking the server (which checks everything again).
 * values: {name, genre, description, hosts (text), timeZone, startTime,
 * durationMinutes (text), kind, interval, weekdays [], ordinal, weekday,
 * seasonStart, seasonEnd}; `keep` is what the form doesn't edit (artTrackID,
 * cancelled, moved, weekStart).
 */
export function specFromValues(values, keep = {}) {
  const name = String(values.name || "").trim();
  if (!name) return { error: "Give the show a name.", field: "name" };
  if (!/^\d{2}:\d{2}$/.test(values.startTime || "")) return { error: "Pick the time the show starts.", field: "startTime" };
  const duration = Number(values.durationMinutes);
  if (!Number.isInteger(duration) || duration < 5 || duration > 720) {
    return { error: "A show lasts from 5 minutes to 12 hours (720 minutes).", field: "durationMinutes" };
  }
  if (!parseDay(values.seasonStart)) {
    return { error: values.kind === "once" ? "Pick the day of the show." : "Pick the first day the show can air.", field: "seasonStart" };
  }
  if (values.seasonEnd && !parseDay(values.seasonEnd)) return { error: "The last day isn't a date.", field: "seasonEnd" };
  if (values.kind !== "once" && values.seasonEnd && values.seasonEnd < values.seasonStart) {
    return { error: "The last day comes before the first.", field: "seasonEnd" };
  }
  let repeat;
  if (values.kind === "weekly") {
    const weekdays = WEEKDAYS.filter((d) => (values.weekdays || []).includes(d));
    if (!weekdays.length) return { error: "Tick at least one day of the week.", field: "weekdays" };
    repeat = { kind: "weekly", interval: Number(values.interval) || 1, weekdays };
    if (keep.weekStart) repeat.weekStart = keep.weekStart;
  } else if (values.kind === "monthly") {
    repeat = { kind: "monthly", interval: Number(values.interval) || 1, weekday: values.weekday, ordinal: Number(values.ordinal) };
  } else {
    repeat = { kind: "once" };
  }
  return {
    spec: {
      name,
      description: String(values.description || "").trim(),
      genre: String(values.genre || "").trim(),
      artTrackID: keep.artTrackID == null ? null : keep.artTrackID,
      hosts: parseHosts(values.hosts),
      timeZone: values.timeZone,
      startTime: values.startTime,
      durationMinutes: duration,
      repeat,
      seasonStart: values.seasonStart,
      seasonEnd: values.kind === "once" ? null : values.seasonEnd || null,
      cancelled: [...(keep.cancelled || [])],
      moved: (keep.moved || []).map((m) => ({ ...m })),
    },
  };
}

/** RFC 5545's weekday codes, Monday first. */
export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/** The weekday code of a local day ("2026-11-24" → "TU"). */
export function weekdayOf(day) {
  const date = parseDay(day);
  return date ? WEEKDAYS[(date.getDay() + 6) % 7] : null;
}

/** A new show's starting values: this browser's zone, today, weekly on today's weekday, 20:00 for an hour. */
export function newShowValues(now = new Date(), { zone = browserZone(), host = "" } = {}) {
  const today = dayValue(now);
  return {
    name: "",
    genre: "",
    description: "",
    hosts: host,
    timeZone: zone,
    startTime: "20:00",
    durationMinutes: "60",
    kind: "weekly",
    interval: "1",
    weekdays: [weekdayOf(today)],
    ordinal: "1",
    weekday: weekdayOf(today),
    seasonStart: today,
    seasonEnd: "",
  };
}

/** A ShowView as the editor's values (and what the editor keeps as it was). */
export function valuesOfShow(show) {
  const repeat = show.repeat || { kind: "once" };
  return {
    values: {
      name: show.name || "",
      genre: show.genre || "",
      description: show.description || "",
      hosts: (show.hosts || []).map((host) => (typeof host === "string" ? host : host.handle)).join(", "),
      timeZone: show.timeZone,
      startTime: show.startTime,
      durationMinutes: String(show.durationMinutes),
      kind: repeat.kind || "once",
      interval: String(repeat.interval || 1),
      weekdays: repeat.kind === "weekly" ? [...(repeat.weekdays || [])] : [weekdayOf(show.seasonStart)].filter(Boolean),
      ordinal: String(repeat.kind === "monthly" ? repeat.ordinal : 1),
      weekday: repeat.kind === "monthly" ? repeat.weekday : weekdayOf(show.seasonStart) || "MO",
      seasonStart: show.seasonStart || "",
      seasonEnd: show.seasonEnd || "",
    },
    keep: {
      artTrackID: show.artTrackID == null ? null : show.artTrackID,
      cancelled: [...(show.cancelled || [])],
      moved: (show.moved || []).map((m) => ({ ...m })),
      weekStart: repeat.weekStart || null,
    },
  };
}

/** The schedule refreshes at most this often, and at least this often. */
export const REFRESH_MIN_MS = 5_000;
export const REFRESH_MAX_MS = 5 * 60_000;

/**
 * How long until the schedule asks again: a second after the show on now
 * ends or the next begins, whichever comes first, between REFRESH_MIN_MS
 * and REFRESH_MAX_MS (`data`: the server's {now, next}).
 */
export function refreshDelay(data, now) {
  const marks = [data.now && data.now.end, data.next && data.next.start].filter((t) => Number.isFinite(t) && t > now);
  const wait = marks.length ? Math.min(...marks) - now + 1000 : REFRESH_MAX_MS;
  return Math.max(REFRESH_MIN_MS, Math.min(REFRESH_MAX_MS, wait));
}

/** How many episodes the week's days hold. */
export function episodeCount(days) {
  return days.reduce((n, d) => n + d.episodes.length, 0);
}
