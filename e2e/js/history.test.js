import {
  dateTimeValue, dayValue, exportURL, historyURL, isDateTimeValue, mayHaveMore, mergeNewer, playListenersText,
  playedAtText, relativeDay, sourceText,
} from "/js/views/history/model.js";
import { streamLinks } from "/js/views/station/any-player.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("history");

const play = (id, start) => ({ id, start, expiration: start + 1000 });
const ids = (list) => list.map((e) => e.id);

test("picker values are local: a day, and a day and time to the minute", () => {
  const date = new Date(2026, 10, 4, 9, 5, 59); // 4 Nov 2026, 09:05:59 local
  equal(dayValue(date), "2026-11-04");
  equal(dateTimeValue(date), "2026-11-04T09:05");
  equal(isDateTimeValue("2026-11-04T09:05"), true);
  equal(isDateTimeValue("2026-11-04T09:05:30"), true);
  equal(isDateTimeValue("2026-11-04"), false);
  equal(isDateTimeValue(""), false);
});

test("history addresses: at with its zone, else epoch ms; a search pages back with before", () => {
  equal(historyURL("s 1", { at: "2026-11-24T21:41", tz: "Europe/Oslo" }), "/api/stations/s%201/history?at=2026-11-24T21%3A41&tz=Europe%2FOslo");
  equal(historyURL("s1", { at: "2026-11-24T21:41" }), `/api/stations/s1/history?at=${new Date(2026, 10, 24, 21, 41).getTime()}`);
  equal(historyURL("s1", { q: "  night drive " }), "/api/stations/s1/history?q=night+drive&limit=20");
  equal(historyURL("s1", { q: "x", before: 1234, limit: 5 }), "/api/stations/s1/history?q=x&before=1234&limit=5");
  equal(historyURL("s1"), "/api/stations/s1/history?limit=20");
});

test("a day's playlist: CSV or M3U, with the zone when known", () => {
  equal(exportURL("s1", "csv", "2026-11-24", "Europe/Oslo"), "/api/stations/s1/history.csv?day=2026-11-24&tz=Europe%2FOslo");
  equal(exportURL("s1", "m3u", "2026-11-24"), "/api/stations/s1/history.m3u?day=2026-11-24");
});

test("a refresh puts plays that ended since on top and keeps the rest as shown", () => {
  const shown = [play("c", 300), play("b", 200), play("a", 100)];
  deepEqual(ids(mergeNewer(shown, [play("e", 500), play("d", 400), play("c", 300)])), ["e", "d", "c", "b", "a"]);
  // Nothing new: the same list.
  deepEqual(ids(mergeNewer(shown, [play("c", 300), play("b", 200)])), ["c", "b", "a"]);
  // Nothing shown yet: the latest page.
  deepEqual(ids(mergeNewer([], [play("x", 9)])), ["x"]);
  // Never older plays on top, nor one twice.
  deepEqual(ids(mergeNewer(shown, [play("old", 50), play("c", 300)])), ["c", "b", "a"]);
});

test("older pages: a full page may have more, a short one ends the history", () => {
  equal(mayHaveMore(new Array(20).fill(0)), true);
  equal(mayHaveMore(new Array(19).fill(0)), false);
  equal(mayHaveMore([], 5), false);
});

test("a play's time: today just the time, yesterday named, earlier days with the date", () => {
  const now = new Date(2026, 10, 24, 10, 0).getTime();
  const today = new Date(2026, 10, 24, 0, 5).getTime();
  const yesterday = new Date(2026, 10, 23, 23, 55).getTime();
  const earlier = new Date(2026, 10, 21, 21, 41).getTime();
  equal(relativeDay(today, now), "today");
  equal(relativeDay(yesterday, now), "yesterday");
  equal(relativeDay(earlier, now), null);
  equal(playedAtText(today, now, "en-GB"), "00:05");
  equal(playedAtText(yesterday, now, "en-GB"), "Yesterday 23:55");
  equal(playedAtText(today + 7_000, now, "en-GB", { seconds: true }), "00:05:07");
  // An earlier day names it (the locale's words, so only the parts are checked); the year only when it isn't this one.
  const before = playedAtText(earlier, now, "en-GB");
  equal(["Sat", "21 Nov", "21:41"].every((part) => before.includes(part)) && !before.includes("2026"), true, before);
  const lastYear = playedAtText(new Date(2025, 0, 2, 8, 0).getTime(), now, "en-GB");
  equal(["2 Jan", "2025", "08:00"].every((part) => lastYear.includes(part)), true, lastYear);
});

test("who picked it and how many heard it, when known", () => {
  equal(sourceText("dj"), "DJ pick");
  equal(sourceText("request"), "Request");
  equal(sourceText("elected"), "Voted in");
  equal(sourceText("robot"), null);
  equal(playListenersText(3), "3 listening");
  equal(playListenersText(0), "0 listening");
  equal(playListenersText(undefined), null);
  equal(playListenersText(null), null);
});

test("any player: public and unlisted stations stream, by frequency or else id; others have none", () => {
  deepEqual(streamLinks({ id: "s1", frequency: "98.3", visibility: "public" }, "http://radio.test"), {
    // By id, not frequency: a saved address outlives the station's frequency.
    mp3: "http://radio.test/stream/s1.mp3", m3u: "http://radio.test/stream/s1.m3u", pls: "http://radio.test/stream/s1.pls",
  });
  equal(streamLinks({ id: "s1", frequency: null, visibility: "unlisted" }, "http://r").m3u, "http://r/stream/s1.m3u");
  for (const visibility of ["code", "invite", "followers"]) {
    equal(streamLinks({ id: "s1", frequency: "98.3", visibility }, "http://r"), null, visibility);
  }
  equal(streamLinks(null, "http://r"), null);
});
