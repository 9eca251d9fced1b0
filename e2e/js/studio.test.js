import {
  MINUTE_MS, audienceSummary, chartLabel, chartTop, minutePeaks, minuteStart, sparkPaths, stayText, timeLeftText, whereText,
} from "/js/views/station/studio-model.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("studio");

// 10:00:00.000 on some day, as epoch ms (a whole minute).
const T = 1_795_471_200_000;

test("a minute starts on a whole minute, before 1970 too", () => {
  equal(minuteStart(T + 59_999), T);
  equal(minuteStart(T), T);
  equal(minuteStart(-1), -MINUTE_MS);
});

test("peaks per minute: absent minutes are 0, oldest first, the minute in progress at least the live count", () => {
  const now = T + 30_000; // 10:00:30; the last of 5 minutes is 10:00
  const minutes = [
    { minute: T - 4 * MINUTE_MS, peak: 3 }, // 9:56, the first of the five
    { minute: T - 2 * MINUTE_MS, peak: 5 }, // 9:58
    { minute: T - 10 * MINUTE_MS, peak: 9 }, // before the span: left out
  ];
  deepEqual(minutePeaks(minutes, { now, span: 5, live: 2 }), [3, 0, 5, 0, 2]);
  // The server already has the minute in progress: the higher wins.
  deepEqual(minutePeaks([{ minute: T, peak: 7 }], { now, span: 3, live: 2 }), [0, 0, 7]);
  deepEqual(minutePeaks(null, { now, span: 2 }), [0, 0]);
});

test("the chart's top is at least 1 and rounds up to a readable number", () => {
  equal(chartTop([0, 0]), 1);
  equal(chartTop([3, 1]), 3);
  equal(chartTop([7]), 10);
  equal(chartTop([12]), 20);
  equal(chartTop([21]), 25);
  equal(chartTop([260]), 500);
});

test("spark paths: one flat step per minute, the area closed on the baseline", () => {
  const { line, area, top } = sparkPaths([0, 2, 1], { width: 30, height: 12, top: 2, pad: 2 });
  equal(top, 2);
  // y: 0 → 10 (the baseline), 2 → 2 (the top), 1 → 6.
  equal(line, "M0 10H10V2H20V6H30");
  equal(area, "M0 10H10V2H20V6H30V10H0Z");
  deepEqual(sparkPaths([], { width: 30, height: 12 }), { line: "", area: "", top: 1 });
  // Values above the top are drawn at the top, negatives at the baseline.
  equal(sparkPaths([5, -1], { width: 2, height: 12, top: 2, pad: 2 }).line, "M0 2H1V10H2");
});

test("today's figures in words, never below the count right now", () => {
  equal(audienceSummary({ peak: 14, listenerMinutes: 37.4, averageStayMs: 240_000 }, 3), "Peak today 14; 37 listener-minutes; people stay 4 min");
  equal(audienceSummary({ peak: 1, listenerMinutes: 0.126 }, 2), "Peak today 2; 0.1 listener-minutes");
  equal(audienceSummary({ peak: 0, listenerMinutes: 1 }, 0), "Peak today 0; 1 listener-minute");
  equal(audienceSummary(null, 0), "Peak today 0; 0 listener-minutes");
});

test("how long people stay reads in seconds, minutes or hours", () => {
  equal(stayText(6_400), "6 s");
  equal(stayText(150_000), "3 min");
  equal(stayText(3_900_000), "1 h 5 min");
  equal(stayText(7_200_000), "2 h");
});

test("the chart's accessible name says the most and the minute now", () => {
  equal(chartLabel([0, 0]), "Listeners over the last 2 minutes: nobody yet");
  equal(chartLabel([1, 4, 2]), "Listeners over the last 3 minutes: at most 4, 2 this minute");
});

test("where the listeners are: only the kinds that have someone", () => {
  equal(whereText({ app: 2, stream: 1, relays: 0 }), "2 in the app · 1 on the radio stream");
  equal(whereText({ app: 0, stream: 0, relays: 1 }), "1 relay");
  equal(whereText(null), "");
});

test("time left counts whole seconds up: 0:01 until the end, never negative", () => {
  equal(timeLeftText(151_000), "2:31");
  equal(timeLeftText(150_001), "2:31");
  equal(timeLeftText(1), "0:01");
  equal(timeLeftText(0), "0:00");
  equal(timeLeftText(-500), "0:00");
  equal(timeLeftText(3_725_000), "1:02:05");
});
