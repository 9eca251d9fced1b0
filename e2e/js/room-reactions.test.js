import {
  DEFAULT_PALETTE,
  LIMIT,
  MAX_PARTICLES,
  WINDOW_MS,
  allowReaction,
  burstParticles,
  compactCount,
  reactionLabel,
  reactionRow,
  readReactions,
} from "/js/views/station/room-reactions-model.js";
import { assert, deepEqual, equal, suite } from "./assert.js";

const test = suite("room reactions");

const PALETTE = ["🔥", "❤️", "🙌", "😂", "😮", "💃"];
const tally = (list) => list.reduce((acc, e) => ({ ...acc, [e]: (acc[e] || 0) + 1 }), {});

test("the server's reactions are read safely: counts are whole and positive", () => {
  deepEqual(readReactions({ entryID: "e1", burst: { "🔥": 2, "😂": "1", x: -3, y: "nope" }, totals: { "🔥": 10.7 } }), {
    entryID: "e1",
    burst: { "🔥": 2, "😂": 1 },
    totals: { "🔥": 10 },
  });
  equal(readReactions(null), null);
  equal(readReactions({ burst: {} }), null, "no entry, nothing to show it on");
  deepEqual(readReactions({ entryID: "e2" }), { entryID: "e2", burst: {}, totals: {} });
});

test("the row: the palette's order, the totals only for the entry playing", () => {
  const reactions = readReactions({ entryID: "e1", burst: {}, totals: { "🔥": 2, "💃": 5, "🤖": 9 } });
  const row = reactionRow(PALETTE, reactions, "e1");
  deepEqual(row.map((b) => b.emoji), PALETTE);
  deepEqual(row.map((b) => b.count), [2, 0, 0, 0, 0, 5]);
  equal(row[0].name, "Fire");
  // Another song plays now: the totals were for the last one.
  deepEqual(reactionRow(PALETTE, reactions, "e2").map((b) => b.count), [0, 0, 0, 0, 0, 0]);
  deepEqual(reactionRow(PALETTE, reactions, null).map((b) => b.count), [0, 0, 0, 0, 0, 0]);
  deepEqual(reactionRow([], null, "e1").map((b) => b.emoji), DEFAULT_PALETTE);
});

test("a burst floats each emoji sent at least once, more of the more sent, never more than the cap", () => {
  deepEqual(burstParticles({ "🔥": 2, "😂": 1 }, { palette: PALETTE }), ["🔥", "😂", "🔥"]);
  deepEqual(burstParticles({}, { palette: PALETTE }), []);
  deepEqual(burstParticles({ "💃": 1 }), ["💃"]);
  // A room tapping hard: capped, every kind there, the biggest the most.
  const big = burstParticles({ "🔥": 300, "❤️": 100, "😮": 1 }, { palette: PALETTE });
  equal(big.length, MAX_PARTICLES);
  const counts = tally(big);
  assert(counts["😮"] === 1, JSON.stringify(counts));
  assert(counts["🔥"] > counts["❤️"] && counts["❤️"] >= 1, JSON.stringify(counts));
  // Interleaved: no run of one kind while another is still to come.
  deepEqual(big.slice(0, 3), ["🔥", "❤️", "😮"]);
  // More kinds than room: the first in the palette's order.
  deepEqual(burstParticles({ "💃": 1, "🔥": 1, "😂": 1 }, { palette: PALETTE, max: 2 }), ["🔥", "😂"]);
  // Never more than were sent.
  deepEqual(tally(burstParticles({ "🔥": 3, "❤️": 2 }, { palette: PALETTE })), { "🔥": 3, "❤️": 2 });
});

test("counts stay compact", () => {
  equal(compactCount(0), "");
  equal(compactCount(7), "7");
  equal(compactCount(999), "999");
  equal(compactCount(1234), "1.2k");
  equal(compactCount(56_789), "56k");
  equal(compactCount(2_450_000), "2.4M");
});

test("each button is named in words, with the song's total", () => {
  equal(reactionLabel({ name: "Fire", count: 0 }), "React with Fire");
  equal(reactionLabel({ name: "Fire", count: 3 }), "React with Fire (3 so far for this song)");
});

test("the page's own limit: ten in five seconds, then a wait until the oldest is out of the window", () => {
  let times = [];
  for (let i = 0; i < LIMIT; i += 1) {
    const answer = allowReaction(times, 1000 + i * 100);
    assert(answer.ok, `reaction ${i + 1}`);
    times = answer.times;
  }
  const refused = allowReaction(times, 2000);
  equal(refused.ok, false);
  equal(refused.retryAt, 1000 + WINDOW_MS);
  // The oldest has left the window: one more.
  const later = allowReaction(refused.times, 1000 + WINDOW_MS);
  equal(later.ok, true);
  equal(later.times.length, LIMIT);
});
