import { isStaleTimeline, readSequence } from "/js/live/live-sequence.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("live sequence");

test("messages in order need no resync", () => {
  let seq = 0;
  for (const n of [1, 2, 3]) {
    const read = readSequence(seq, { type: "update", seq: n });
    deepEqual(read, { seq: n, resync: false });
    seq = read.seq;
  }
});

test("a gap asks for a resync", () => {
  deepEqual(readSequence(2, { type: "update", seq: 4 }), { seq: 4, resync: true });
  deepEqual(readSequence(0, { type: "listeners", seq: 2 }), { seq: 2, resync: true });
});

test("a snapshot after a gap needs no resync: it carries the whole state", () => {
  deepEqual(readSequence(2, { type: "snapshot", seq: 7 }), { seq: 7, resync: false });
});

test("a message without a seq leaves the count alone", () => {
  deepEqual(readSequence(5, { type: "pong" }), { seq: 5, resync: false });
  deepEqual(readSequence(5, { type: "pong", seq: "6" }), { seq: 5, resync: false });
  deepEqual(readSequence(5, null), { seq: 5, resync: false });
});

test("a repeated or older seq is taken as is, with no resync", () => {
  deepEqual(readSequence(5, { type: "update", seq: 5 }), { seq: 5, resync: false });
  deepEqual(readSequence(5, { type: "update", seq: 1 }), { seq: 1, resync: false });
});

test("a timeline older than the one held is stale", () => {
  equal(isStaleTimeline(null, 0), false);
  equal(isStaleTimeline(7, 6), true);
  equal(isStaleTimeline(7, 7), false);
  equal(isStaleTimeline(7, 8), false);
});
