import { levelDb } from "/js/playback/web-audio-player.js";
import { levelModel, levelText, tallyText } from "/js/views/station/room-level.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("sound");

// A track at -20 LUFS with its peak at -10 dBTP: +6 dB at -14, headroom 9.
const entry = { track: { id: "t", gainDb: 6, headroomDb: 9 } };

test("the player's gain is the server's sum: track gain, target and level, under the headroom", () => {
  equal(levelDb(entry), 6);
  equal(levelDb(entry, { targetLufs: -14, levelDb: 0, since: 0 }), 6);
  equal(levelDb(entry, { targetLufs: -23, levelDb: -3, since: 0 }), -6);
  equal(levelDb(entry, { targetLufs: -9, levelDb: 0, since: 0 }), 9);
});

test("an unmeasured track is turned down with the room but never boosted", () => {
  const raw = { track: { id: "u" } };
  equal(levelDb(raw, { targetLufs: -14, levelDb: 6, since: 0 }), 0);
  equal(levelDb(raw, { targetLufs: -14, levelDb: -6, since: 0 }), -6);
  equal(levelDb(null), 0);
});

test("the level row shows only while the room may vote it", () => {
  equal(levelModel(null).visible, false);
  equal(levelModel({ mode: "requests" }).visible, false);
  equal(levelModel({ mode: "dj", volume: { levelDb: 0, up: 0, down: 0, needed: 2 } }).visible, false);
  const model = levelModel({ mode: "lobby", volume: { levelDb: -3, up: 1, down: 0, needed: 2, mine: "up", canGoUp: true, canGoDown: true } }, { named: true });
  deepEqual([model.visible, model.level, model.mine], [true, -3, "up"]);
  equal(tallyText(model), "1 of 2 want it louder");
  // Only the copy of the party sent to you says what your own vote is.
  equal(model.personal, false);
  equal(levelModel({ mode: "lobby", myVotes: {}, volume: { levelDb: 0, up: 0, down: 0, needed: 2 } }).personal, true);
  equal(tallyText({ up: 0, down: 0, needed: 1 }), "1 vote moves it a step");
});

test("levels read with a real minus sign", () => {
  equal(levelText(-3), "−3 dB");
  equal(levelText(0), "0 dB");
  equal(levelText(6), "+6 dB");
});
