import { entryAt, isHeld, nextBoundary, playOrder, positionIn, spanOf, timelineNow, upcomingAt } from "/js/playback/timeline.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("timeline");

const entry = (id, start, durationMs, offsetMs = 0) => ({ id, start, expiration: start + durationMs, durationMs, offsetMs, track: { id: `t-${id}`, durationMs: offsetMs + durationMs } });
const a = entry("a", 1_000, 10_000);
const b = entry("b", 11_000, 5_000);
const c = entry("c", 16_000, 4_000, 2_000);
const timeline = { current: a, upNext: [b, c], history: [] };
const ids = (entries) => entries.map((e) => e.id);

test("play order is the current entry, then up next", () => {
  deepEqual(ids(playOrder(timeline)), ["a", "b", "c"]);
  deepEqual(ids(playOrder({ current: null, upNext: [b] })), ["b"]);
  deepEqual(playOrder(null), []);
});

test("the entry at an instant: start included, expiration not", () => {
  equal(entryAt(timeline, 999), null);
  equal(entryAt(timeline, 1_000).id, "a");
  equal(entryAt(timeline, 10_999).id, "a");
  equal(entryAt(timeline, 11_000).id, "b");
  equal(entryAt(timeline, 19_999).id, "c");
  equal(entryAt(timeline, 20_000), null);
});

test("upcoming entries haven't started", () => {
  deepEqual(ids(upcomingAt(timeline, 1_000)), ["b", "c"]);
  deepEqual(ids(upcomingAt(timeline, 11_000)), ["c"]);
  deepEqual(ids(upcomingAt(timeline, 0)), ["a", "b", "c"]);
});

test("the next boundary is the nearest start or expiration after now", () => {
  equal(nextBoundary(timeline, 0), 1_000);
  equal(nextBoundary(timeline, 1_000), 11_000);
  equal(nextBoundary(timeline, 12_000), 16_000);
  equal(nextBoundary(timeline, 20_000), null);
});

test("a DJ hold freezes the timeline's instant", () => {
  const held = { ...timeline, pausedAt: 5_000 };
  equal(timelineNow(held, 4_000), 4_000);
  equal(timelineNow(held, 9_000), 5_000);
  equal(timelineNow(timeline, 9_000), 9_000);
  equal(isHeld(held, 4_999), false);
  equal(isHeld(held, 5_000), true);
  equal(isHeld(timeline, 5_000), false);
  equal(isHeld({ ...timeline, pausedAt: null }, 5_000), false);
});

test("the position in the file counts from the entry's offset", () => {
  equal(positionIn(a, 1_500), 500);
  equal(positionIn(c, 16_500), 2_500);
  equal(positionIn({ start: 0 }, 10), 10);
});

test("the span covers offset plus duration, or the whole track", () => {
  equal(spanOf(c), 6_000);
  equal(spanOf({ durationMs: 3_000, offsetMs: 0, track: { durationMs: 8_000 } }), 8_000);
  equal(spanOf({ durationMs: 3_000 }), 3_000);
});
