// The schedule screens' pure modules: when a show airs in words
// (views/schedule/phrase.js) and the weeks, days, zones and specs
// (views/schedule/model.js). The page runs in Europe/Oslo (the pytest
// driver sets the zone), so a week holding the clock change is tested for
// real.

import { suite, equal, deepEqual, assert } from "/tests/assert.js";
import {
  weekValue,
  shiftWeek,
  weekRange,
  daysWithEpisodes,
  dateIn,
  dateTimeIn,
  originalDate,
  specOf,
  withCancelled,
  withMoved,
  specFromValues,
  parseHosts,
  weekdayOf,
  webcalURL,
  withToken,
  scheduleURL,
  valuesOfShow,
  sameEpisode,
  refreshDelay,
  episodeCount,
  REFRESH_MIN_MS,
  REFRESH_MAX_MS,
} from "/js/views/schedule/model.js";
import {
  airsPhrase, endTime, repeatPhrase, seasonPhrase, hostsPhrase, longDate, reminderWords, showProblemWords, stationLine,
  intervalLabel, formRepeat, formPreview,
} from "/js/views/schedule/phrase.js";

const test = suite("schedule");

const show = (repeat, extra = {}) => ({ repeat, startTime: "22:00", durationMinutes: 120, timeZone: "America/Los_Angeles", seasonStart: "2026-09-22", ...extra });

// ---------------------------------------------------------------- phrase

test("phrase: every other Tuesday, with the show's own times and zone", () => {
  equal(airsPhrase(show({ kind: "weekly", interval: 2, weekdays: ["TU"] })), "Every other Tuesday, 22:00–00:00 (America/Los Angeles time)");
});

test("phrase: weekly on several days, Monday first whatever the order given", () => {
  equal(repeatPhrase({ kind: "weekly", interval: 1, weekdays: ["TH", "TU"] }), "Every Tuesday and Thursday");
  equal(repeatPhrase({ kind: "weekly", interval: 1, weekdays: ["FR", "MO", "WE"] }), "Every Monday, Wednesday and Friday");
  equal(repeatPhrase({ kind: "weekly", interval: 2, weekdays: ["TU", "TH"] }), "Every other week on Tuesday and Thursday");
  equal(repeatPhrase({ kind: "weekly", interval: 3, weekdays: ["SU"] }), "Every 3 weeks on Sunday");
});

test("phrase: every day and every weekday", () => {
  equal(repeatPhrase({ kind: "weekly", interval: 1, weekdays: ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] }), "Every day");
  equal(repeatPhrase({ kind: "weekly", interval: 1, weekdays: ["FR", "TH", "WE", "TU", "MO"] }), "Every weekday");
});

test("phrase: monthly by ordinal weekday, the last one too", () => {
  equal(repeatPhrase({ kind: "monthly", interval: 1, weekday: "TU", ordinal: 2 }), "The second Tuesday of every month");
  equal(repeatPhrase({ kind: "monthly", interval: 2, weekday: "FR", ordinal: -1 }), "The last Friday of every other month");
  equal(repeatPhrase({ kind: "monthly", interval: 3, weekday: "MO", ordinal: 1 }), "The first Monday of every 3 months");
});

test("phrase: a one-off names its day, which no zone shifts", () => {
  equal(airsPhrase(show({ kind: "once" }, { startTime: "08:30", durationMinutes: 90, timeZone: "UTC" })), "Once, on Tuesday 22 September 2026, 08:30–10:00 (UTC time)");
  equal(longDate("2027-01-01"), "Friday 1 January 2027");
});

test("phrase: the end time runs past midnight", () => {
  equal(endTime("22:00", 120), "00:00");
  equal(endTime("23:30", 90), "01:00");
  equal(endTime("06:05", 5), "06:10");
  equal(endTime("00:00", 720), "12:00");
});

test("phrase: the season, and none for a one-off", () => {
  equal(seasonPhrase(show({ kind: "weekly", interval: 1, weekdays: ["TU"] }, { seasonEnd: "2027-06-10" })), "From 22 Sep 2026 to 10 Jun 2027");
  equal(seasonPhrase(show({ kind: "weekly", interval: 1, weekdays: ["TU"] })), "From 22 Sep 2026, no end date");
  equal(seasonPhrase(show({ kind: "once" })), "");
});

test("phrase: hosts by name and handle", () => {
  equal(hostsPhrase([{ handle: "ada", displayName: "Ada" }, { handle: "bo", displayName: "bo" }, { handle: "cy", displayName: "Cy Q" }]), "Ada (@ada), @bo and Cy Q (@cy)");
});

// ------------------------------------------------------------------ weeks

test("weeks: Monday to Monday, any day of the week names it", () => {
  equal(weekValue("2026-11-26"), "2026-11-23");
  equal(weekValue("2026-11-29"), "2026-11-23", "a Sunday belongs to the week before");
  equal(weekValue("2026-11-30"), "2026-11-30");
  equal(weekValue("nonsense", new Date(2026, 10, 25, 12)), "2026-11-23", "nonsense is this week");
  equal(weekValue("2026-02-30", new Date(2026, 10, 25, 12)), "2026-11-23", "no such day is this week");
});

test("weeks: previous and next move by 7 days, across months and years", () => {
  equal(shiftWeek("2026-11-23", 1), "2026-11-30");
  equal(shiftWeek("2026-11-30", 1), "2026-12-07");
  equal(shiftWeek("2026-12-28", 1), "2027-01-04");
  equal(shiftWeek("2026-11-23", -2), "2026-11-09");
});

test("weeks: a week with the clock change still runs midnight to midnight (Europe/Oslo)", () => {
  equal(Intl.DateTimeFormat().resolvedOptions().timeZone, "Europe/Oslo", "the driver runs this page in Europe/Oslo");
  const range = weekRange("2026-03-23");
  equal(range.to - range.from, (7 * 24 - 1) * 3_600_000, "the spring week is an hour short");
  equal(new Date(range.to).getHours(), 0);
  equal(shiftWeek("2026-03-23", 1), "2026-03-30");
  const autumn = weekRange("2026-10-19");
  equal(autumn.to - autumn.from, (7 * 24 + 1) * 3_600_000, "the autumn week is an hour long");
  const after = weekRange("2026-10-26");
  equal(after.to - after.from, 7 * 24 * 3_600_000);
  deepEqual(range.days.map((d) => d.key), ["2026-03-23", "2026-03-24", "2026-03-25", "2026-03-26", "2026-03-27", "2026-03-28", "2026-03-29"]);
});

test("weeks: the schedule's address asks for [from, to) in the zone", () => {
  equal(scheduleURL("st 1", { from: 10, to: 20, tz: "Europe/Oslo" }), "/api/stations/st%201/schedule?from=10&to=20&tz=Europe%2FOslo");
});

test("days: episodes go on the day they start; one from the week before on the first", () => {
  const range = weekRange("2026-11-23");
  const at = (day, hour) => new Date(2026, 10, day, hour).getTime();
  const ep = (id, start, hours = 1) => ({ showID: id, start, end: start + hours * 3_600_000 });
  const days = daysWithEpisodes(range, [
    ep("late", at(22, 23), 2), // Sunday before, into Monday
    ep("b", at(24, 20)),
    ep("a", at(24, 8)),
    ep("sun", at(29, 23)),
    ep("out", at(30, 1)),
    ep("old", at(20, 1)),
  ]);
  deepEqual(days.map((d) => d.episodes.map((e) => e.showID)), [["late"], ["a", "b"], [], [], [], [], ["sun"]]);
});

test("zones: an instant's local date and time in the show's zone", () => {
  const ms = Date.UTC(2026, 10, 25, 7, 0);
  equal(dateIn(ms, "America/Los_Angeles"), "2026-11-24");
  equal(dateTimeIn(ms, "America/Los_Angeles"), "2026-11-24T23:00");
  equal(dateIn(ms, "Asia/Tokyo"), "2026-11-25");
  equal(dateTimeIn(Date.UTC(2026, 10, 25, 0, 0), "UTC"), "2026-11-25T00:00", "midnight is 00, never 24");
});

test("zones: an episode's original date is its originalStart in the show's zone, moved or not", () => {
  const tz = { timeZone: "America/Los_Angeles" };
  equal(originalDate({ start: Date.UTC(2026, 11, 3, 4), originalStart: Date.UTC(2026, 11, 2, 6) }, tz), "2026-12-01");
  equal(originalDate({ start: Date.UTC(2026, 11, 2, 6) }, tz), "2026-12-01");
});

test("episodes: the same airing is the same show at the same start", () => {
  assert(sameEpisode({ showID: "s1", start: 5 }, { showID: "s1", start: 5, end: 9 }));
  assert(!sameEpisode({ showID: "s1", start: 5 }, { showID: "s2", start: 5 }));
  assert(!sameEpisode({ showID: "s1", start: 5 }, null));
});

test("calendar: the feed's webcal:// link on this host", () => {
  equal(webcalURL("/api/stations/a/schedule.ics", "radio.example:8080"), "webcal://radio.example:8080/api/stations/a/schedule.ics");
  // A private station's feed with a calendar link's token, escaped.
  equal(withToken("/api/stations/a/schedule.ics", "t+/="), "/api/stations/a/schedule.ics?token=t%2B%2F%3D");
  equal(withToken("/api/stations/a/schedule.ics?x=1", "t"), "/api/stations/a/schedule.ics?x=1&token=t");
  equal(withToken("/api/stations/a/schedule.ics", null), "/api/stations/a/schedule.ics");
});

// ------------------------------------------------------------------ specs

const VIEW = {
  id: "s1",
  stationID: "st",
  name: "Night Owls",
  description: "Late jazz",
  genre: "Jazz",
  hosts: [{ handle: "ada", displayName: "Ada" }, { handle: "bo", displayName: "Bo" }],
  timeZone: "America/Los_Angeles",
  startTime: "22:00",
  durationMinutes: 120,
  repeat: { kind: "weekly", interval: 2, weekdays: ["TU"], weekStart: "MO" },
  seasonStart: "2026-09-22",
  cancelled: ["2026-11-24"],
  moved: [{ date: "2026-12-08", start: "2026-12-09T20:00", durationMinutes: 60 }],
  calendarURL: "/api/stations/st/shows/s1/calendar.ics",
  updatedAt: 1,
};

test("specs: a ShowView back to the spec it came from (hosts by handle, nothing the server added)", () => {
  deepEqual(specOf(VIEW), {
    name: "Night Owls",
    description: "Late jazz",
    genre: "Jazz",
    artTrackID: null,
    hosts: ["ada", "bo"],
    timeZone: "America/Los_Angeles",
    startTime: "22:00",
    durationMinutes: 120,
    repeat: { kind: "weekly", interval: 2, weekdays: ["TU"], weekStart: "MO" },
    seasonStart: "2026-09-22",
    seasonEnd: null,
    cancelled: ["2026-11-24"],
    moved: [{ date: "2026-12-08", start: "2026-12-09T20:00", durationMinutes: 60 }],
  });
  deepEqual(specOf({ ...VIEW, repeat: { kind: "once", interval: 1, weekdays: ["TU"] } }).repeat, { kind: "once" });
});

test("specs: cancelling adds the original date once and undoes a move of it", () => {
  const spec = specOf(VIEW);
  const cancelled = withCancelled(withCancelled(spec, "2026-12-08"), "2026-12-08");
  deepEqual(cancelled.cancelled, ["2026-11-24", "2026-12-08"]);
  deepEqual(cancelled.moved, []);
  deepEqual(spec.cancelled, ["2026-11-24"], "the spec given is left alone");
});

test("specs: moving replaces an earlier move of the same episode and un-cancels it", () => {
  const spec = specOf(VIEW);
  const moved = withMoved(spec, { date: "2026-12-08", start: "2026-12-10T21:00", durationMinutes: 90 });
  deepEqual(moved.moved, [{ date: "2026-12-08", start: "2026-12-10T21:00", durationMinutes: 90 }]);
  const back = withMoved(spec, { date: "2026-11-24", start: "2026-11-25T22:00", durationMinutes: 120 });
  deepEqual(back.cancelled, []);
  deepEqual(back.moved.map((m) => m.date), ["2026-11-24", "2026-12-08"]);
});

test("specs: hosts typed with commas, spaces and @ become handles", () => {
  deepEqual(parseHosts(" @ada, bo  cy,,ada "), ["ada", "bo", "cy"]);
  deepEqual(parseHosts(""), []);
});

const FORM = {
  name: "  Night Owls ",
  genre: "Jazz",
  description: "",
  hosts: "ada",
  timeZone: "America/Los_Angeles",
  startTime: "22:00",
  durationMinutes: "120",
  kind: "weekly",
  interval: "2",
  weekdays: ["TH", "TU"],
  ordinal: "1",
  weekday: "MO",
  seasonStart: "2026-09-22",
  seasonEnd: "",
};

test("form: the editor's values become a spec, keeping what it doesn't edit", () => {
  const { spec, error } = specFromValues(FORM, { cancelled: ["2026-11-24"], moved: [], weekStart: "SU", artTrackID: "t1" });
  equal(error, undefined);
  equal(spec.name, "Night Owls");
  deepEqual(spec.repeat, { kind: "weekly", interval: 2, weekdays: ["TU", "TH"], weekStart: "SU" });
  equal(spec.durationMinutes, 120);
  equal(spec.seasonEnd, null);
  deepEqual(spec.cancelled, ["2026-11-24"]);
  equal(spec.artTrackID, "t1");
  deepEqual(specFromValues({ ...FORM, kind: "monthly", ordinal: "-1", weekday: "FR", interval: "1" }).spec.repeat, { kind: "monthly", interval: 1, weekday: "FR", ordinal: -1 });
  const once = specFromValues({ ...FORM, kind: "once", seasonEnd: "2027-01-01" }).spec;
  deepEqual(once.repeat, { kind: "once" });
  equal(once.seasonEnd, null, "a one-off has no season end");
});

test("form: what can be told before asking the server", () => {
  equal(specFromValues({ ...FORM, name: "  " }).field, "name");
  equal(specFromValues({ ...FORM, weekdays: [] }).field, "weekdays");
  equal(specFromValues({ ...FORM, durationMinutes: "4" }).field, "durationMinutes");
  equal(specFromValues({ ...FORM, durationMinutes: "721" }).field, "durationMinutes");
  equal(specFromValues({ ...FORM, startTime: "" }).field, "startTime");
  equal(specFromValues({ ...FORM, seasonStart: "" }).field, "seasonStart");
  equal(specFromValues({ ...FORM, seasonEnd: "2026-09-01" }).field, "seasonEnd");
});

test("form: a show's values round-trip through the editor", () => {
  const { values, keep } = valuesOfShow(VIEW);
  equal(values.hosts, "ada, bo");
  equal(values.interval, "2");
  const { spec } = specFromValues(values, keep);
  deepEqual(spec, specOf(VIEW));
  equal(weekdayOf("2026-09-22"), "TU");
});

test("show page: what Remind me promises follows the notification permission", () => {
  assert(reminderWords("granted").startsWith("You'll get a notification 10 minutes before each episode"));
  assert(reminderWords("denied").startsWith("Notifications are blocked for this site"));
  equal(reminderWords("default"), "You'll get a reminder here 10 minutes before each episode while Wavelength is open.");
  equal(reminderWords("unsupported"), reminderWords("default"));
  assert(reminderWords("default", 5).includes(" 5 minutes"));
});

test("show page: a page that won't open says why by its status; the station's line", () => {
  deepEqual(showProblemWords({ status: 404, message: "Not found." }), { title: "No show here", text: "It may have been taken off the schedule." });
  deepEqual(showProblemWords({ status: 403, message: "Join first." }), { title: "This show is for the station's listeners", text: "Join first." });
  deepEqual(showProblemWords({ status: 401, message: "Sign in." }).title, "This show is for the station's listeners");
  deepEqual(showProblemWords({ status: 0, message: "Offline." }), { title: "Can't open the show", text: "Offline." });
  equal(stationLine({ frequency: "98.7", name: "Night <b>Owls</b>" }), "98.7 FM · Night <b>Owls</b>");
  equal(stationLine({ name: "Quiet" }), "Quiet");
});

test("show form: how often in words, the repeat the fields make, the end time and the preview", () => {
  equal(intervalLabel("weekly", 1), "Every week");
  equal(intervalLabel("monthly", 2), "Every other month");
  equal(intervalLabel("weekly", 3), "Every 3 weeks");
  deepEqual(formRepeat({ kind: "weekly", interval: "2", weekdays: ["TU"] }), { kind: "weekly", interval: 2, weekdays: ["TU"] });
  deepEqual(formRepeat({ kind: "monthly", interval: "1", ordinal: "-1", weekday: "FR" }), { kind: "monthly", interval: 1, ordinal: -1, weekday: "FR" });
  deepEqual(formRepeat({ kind: "once", interval: "3" }), { kind: "once" });
  const typed = { kind: "weekly", interval: "2", weekdays: ["TU"], startTime: "22:00", durationMinutes: "120", timeZone: "UTC", seasonStart: "2026-09-01" };
  const words = formPreview(typed);
  equal(words.durationHint, "Ends at 00:00");
  equal(words.preview, airsPhrase({ repeat: formRepeat(typed), startTime: "22:00", durationMinutes: 120, timeZone: "UTC", seasonStart: "2026-09-01" }));
  deepEqual(formPreview({ ...typed, startTime: "" }), { durationHint: "5 to 720 minutes", preview: "Pick a start time." });
  equal(formPreview({ ...typed, durationMinutes: "0" }).durationHint, "5 to 720 minutes");
});

test("schedule screen: asks again a second after the show on now ends or the next begins, within 5 s and 5 min", () => {
  const now = 1_000_000;
  equal(refreshDelay({ now: { end: now + 60_000 }, next: { start: now + 120_000 } }, now), 61_000);
  equal(refreshDelay({ now: null, next: { start: now + 30_000 } }, now), 31_000);
  equal(refreshDelay({ now: { end: now + 1_000 }, next: null }, now), REFRESH_MIN_MS);
  equal(refreshDelay({ now: null, next: { start: now + 3_600_000 } }, now), REFRESH_MAX_MS);
  equal(refreshDelay({ now: { end: now - 5 }, next: null }, now), REFRESH_MAX_MS, "an end already past doesn't count");
  equal(refreshDelay({}, now), REFRESH_MAX_MS);
  equal(episodeCount([{ episodes: [1, 2] }, { episodes: [] }, { episodes: [3] }]), 3);
});
