// When a show airs, in words, from its own fields (the repeat rule, its
// start time and length, in its own zone): "Every other Tuesday,
// 22:00–00:00 (America/Los Angeles time)", "The last Friday of every
// month, …", "Once, on Tuesday 22 September 2026, …". The words are
// English, like the rest of the app, and so are its dates ("Tuesday 22
// September 2026"), the same for every listener. Pure, and
// unit-tested by e2e/browser/test_schedule_units.py.

import { WEEKDAYS } from "./model.js";

export const DAY_NAMES = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
  SA: "Saturday",
  SU: "Sunday",
};

export const ORDINALS = [
  { value: 1, word: "first" },
  { value: 2, word: "second" },
  { value: 3, word: "third" },
  { value: 4, word: "fourth" },
  { value: 5, word: "fifth" },
  { value: -1, word: "last" },
];

const pad = (n) => String(n).padStart(2, "0");

/** "22:00" plus 120 minutes → "00:00" (a show may run past midnight). */
export function endTime(startTime, minutes) {
  const m = /^(\d{1,2}):(\d{2})$/.exec(startTime || "");
  if (!m) return "";
  const total = (((Number(m[1]) * 60 + Number(m[2]) + (Number(minutes) || 0)) % 1440) + 1440) % 1440;
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}

/** ["a"] → "a"; ["a", "b"] → "a and b"; ["a", "b", "c"] → "a, b and c". */
export function listWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** "Every other", "Every 3 weeks on" etc. for a weekly rule of `days`. */
function weeklyPhrase(interval, days) {
  const names = days.map((d) => DAY_NAMES[d]);
  if (interval <= 1) {
    if (days.length === 7) return "Every day";
    if (days.length === 5 && days.every((d) => WEEKDAYS.slice(0, 5).includes(d))) return "Every weekday";
    return `Every ${listWords(names)}`;
  }
  if (interval === 2) return days.length === 1 ? `Every other ${names[0]}` : `Every other week on ${listWords(names)}`;
  return `Every ${interval} weeks on ${listWords(names)}`;
}

function monthlyPhrase(interval, ordinal, weekday) {
  const word = (ORDINALS.find((o) => o.value === Number(ordinal)) || { word: `${ordinal}th` }).word;
  const every = interval <= 1 ? "every month" : interval === 2 ? "every other month" : `every ${interval} months`;
  return `The ${word} ${DAY_NAMES[weekday] || weekday} of ${every}`;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** A calendar date's parts (no zone can shift it), or null. */
function dateParts(day) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day || "");
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth(), day: date.getUTCDate(), weekday: date.getUTCDay() };
}

/** "2026-09-22" → "Tuesday 22 September 2026". */
export function longDate(day) {
  const p = dateParts(day);
  return p ? `${WEEKDAY_NAMES[p.weekday]} ${p.day} ${MONTHS[p.month]} ${p.year}` : day || "";
}

/** "2026-09-22" → "22 Sep 2026". */
export function shortDate(day) {
  const p = dateParts(day);
  return p ? `${p.day} ${MONTHS[p.month].slice(0, 3)} ${p.year}` : day || "";
}

/** How often: "Every other Tuesday", "The second Tuesday of every month", "Once, on Tuesday 22 September 2026". */
export function repeatPhrase(repeat, seasonStart) {
  const kind = repeat && repeat.kind;
  const interval = Math.max(1, Number(repeat && repeat.interval) || 1);
  if (kind === "weekly") {
    const days = WEEKDAYS.filter((d) => (repeat.weekdays || []).includes(d));
    if (!days.length) return "Every week";
    return weeklyPhrase(interval, days);
  }
  if (kind === "monthly") return monthlyPhrase(interval, repeat.ordinal, repeat.weekday);
  return seasonStart ? `Once, on ${longDate(seasonStart)}` : "Once";
}

/** "America/Los_Angeles" → "America/Los Angeles". */
export function zoneName(timeZone) {
  return String(timeZone || "UTC").replace(/_/g, " ");
}

/** The whole phrase: "Every other Tuesday, 22:00–00:00 (America/Los Angeles time)". */
export function airsPhrase(show) {
  const end = endTime(show.startTime, show.durationMinutes);
  return `${repeatPhrase(show.repeat, show.seasonStart)}, ${show.startTime}–${end} (${zoneName(show.timeZone)} time)`;
}

/** The season: "From 22 Sep 2026 to 10 Jun 2027", "From 22 Sep 2026, no end date"; "" for a one-off. */
export function seasonPhrase(show) {
  if (!show.repeat || show.repeat.kind === "once" || !show.seasonStart) return "";
  return show.seasonEnd ? `From ${shortDate(show.seasonStart)} to ${shortDate(show.seasonEnd)}` : `From ${shortDate(show.seasonStart)}, no end date`;
}

/** "Ada (@ada) and Bo (@bo)". */
export function hostsPhrase(hosts) {
  return listWords((hosts || []).map((h) => (typeof h === "string" ? `@${h}` : h.displayName && h.displayName !== h.handle ? `${h.displayName} (@${h.handle})` : `@${h.handle}`)));
}

/** How many minutes before an episode a reminder goes off. */
export const REMINDER_LEAD_MINUTES = 10;

/** What "Remind me" promises, by the browser's notification permission ("granted", "denied", "default", "unsupported"). */
export function reminderWords(permission, lead = REMINDER_LEAD_MINUTES) {
  if (permission === "granted") return `You'll get a notification ${lead} minutes before each episode, and a reminder here while Wavelength is open.`;
  if (permission === "denied") return `Notifications are blocked for this site, so the reminder shows here, in Wavelength, ${lead} minutes before each episode while it's open.`;
  return `You'll get a reminder here ${lead} minutes before each episode while Wavelength is open.`;
}

/** A show's page that won't open, in words ({title, text}) by its HTTP status. */
export function showProblemWords(error) {
  const status = (error && error.status) || 0;
  if (status === 404) return { title: "No show here", text: "It may have been taken off the schedule." };
  const title = status === 401 || status === 403 ? "This show is for the station's listeners" : "Can't open the show";
  return { title, text: (error && error.message) || "" };
}

/** The line under a show's name: "98.7 FM · Night Owls" (what there is of it). */
export function stationLine(station) {
  return [station && station.frequency ? `${station.frequency} FM` : null, station && station.name].filter(Boolean).join(" · ");
}

/** The show form's "How often": "Every week", "Every other month", "Every 3 weeks". */
export function intervalLabel(kind, n) {
  const unit = kind === "monthly" ? "month" : "week";
  if (n === 1) return `Every ${unit}`;
  if (n === 2) return `Every other ${unit}`;
  return `Every ${n} ${unit}s`;
}

/** The repeat rule the show form's values (`read()`: strings as typed) make. */
export function formRepeat(v) {
  if (v.kind === "weekly") return { kind: v.kind, interval: Number(v.interval), weekdays: v.weekdays };
  if (v.kind === "monthly") return { kind: v.kind, interval: Number(v.interval), ordinal: Number(v.ordinal), weekday: v.weekday };
  return { kind: "once" };
}

/** The show form's words for what is typed: {durationHint ("Ends at 23:30"), preview (when it airs)}. */
export function formPreview(v) {
  const minutes = Number(v.durationMinutes);
  const timed = /^\d{2}:\d{2}$/.test(v.startTime) && Number.isFinite(minutes);
  return {
    durationHint: timed && minutes > 0 ? `Ends at ${endTime(v.startTime, minutes)}` : "5 to 720 minutes",
    preview: timed
      ? airsPhrase({ repeat: formRepeat(v), startTime: v.startTime, durationMinutes: minutes, timeZone: v.timeZone, seasonStart: v.seasonStart })
      : "Pick a start time.",
  };
}
