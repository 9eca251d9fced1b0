// Up Next's pure module (views/queue-model.js): when the list is drawn
// again, where a dragged row lands and how the others make room, a row's
// classes and words, and what the DJ's buttons call an entry.

import { deepEqual, equal, suite } from "./assert.js";
import { dropTarget, entryName, queueSignature, rowClass, rowShift, rowWords } from "/js/views/queue-model.js";

const test = suite("queue");

const song = (id, extra = {}) => ({ id, start: 1000, source: "robot", track: { id: `t${id}`, title: `Song ${id}`, artist: "Nina" }, ...extra });

test("queue: the signature changes with the entries, their starts, after-live marks and the DJ's controls", () => {
  const list = [song("a"), song("b")];
  const notes = [{ afterLive: false }, { afterLive: false }];
  const base = queueSignature(list, notes, false);
  equal(queueSignature(list, notes, false), base);
  equal(queueSignature(list, notes, true) === base, false);
  equal(queueSignature([song("a"), song("b", { start: 2000 })], notes, false) === base, false);
  equal(queueSignature(list, [{ afterLive: false }, { afterLive: true }], false) === base, false);
  equal(queueSignature([list[1], list[0]], notes, false) === base, false);
});

test("queue: a dragged row lands past every row whose middle it passed; the rows between make room", () => {
  const rects = [0, 50, 100, 150].map((top) => ({ top, height: 50 }));
  equal(dropTarget(rects, 0, 0), 0);
  equal(dropTarget(rects, 0, 30), 0, "not past the next row's middle yet");
  equal(dropTarget(rects, 0, 60), 1);
  equal(dropTarget(rects, 0, 120), 2);
  equal(dropTarget(rects, 0, 500), 3);
  equal(dropTarget(rects, 3, -80), 2);
  equal(dropTarget(rects, 3, -130), 1);
  deepEqual([0, 1, 2, 3].map((i) => rowShift(i, 0, 2, 50)), [0, -50, -50, 0]);
  deepEqual([0, 1, 2, 3].map((i) => rowShift(i, 3, 1, 50)), [0, 50, 50, 0]);
  deepEqual([0, 1, 2, 3].map((i) => rowShift(i, 1, 1, 50)), [0, 0, 0, 0]);
});

test("queue: a row's classes, words and badge; the DJ's buttons name a song or a voice clip", () => {
  equal(rowClass(song("a", { source: "dj" }), { afterLive: true }), "upnext-row is-dj is-after-live");
  equal(rowClass(song("a"), { live: true, voice: true }), "upnext-row is-live is-voice");
  deepEqual(rowWords(song("a", { source: "dj", why: "You liked Nina" }), null, null), { title: "Song a", sub: "Nina", why: "You liked Nina", badge: "DJ pick" });
  deepEqual(rowWords(song("a", { source: "elected" }), null, null).badge, "Voted in");
  deepEqual(rowWords(song("a", { why: "x" }), { title: "Late <b>Jazz</b>", dj: "Ana" }, null), { title: "Late <b>Jazz</b>", sub: "Ana", why: null, badge: null });
  deepEqual(rowWords(song("a", { why: "x" }), null, { title: "Voice clip · Ana", sub: "hi" }).why, null);
  equal(entryName(song("a"), null), "Song a by Nina");
  equal(entryName(song("a"), { title: "Voice clip" }), "the voice clip from Nina");
});
