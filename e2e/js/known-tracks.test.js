import { fillTracks, knownTracks } from "/js/live/known-tracks.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("known tracks");

const track = (id, title) => ({ id, title, artist: "A", album: "B", durationMs: 1000, audioURL: `/api/tracks/${id}/audio` });
const entry = (id, t) => ({ id, start: 0, expiration: 1000, track: t });

test("a window's tracks by id, the later entry's standing for a repeated id", () => {
  const timeline = {
    current: entry("e1", track("t1", "One")),
    upNext: [entry("e2", track("t2", "Two")), entry("e3", track("t1", "One again"))],
    history: [entry("e0", track("t0", "Zero"))],
  };
  const known = knownTracks(timeline);
  deepEqual([...known.keys()], ["t1", "t2", "t0"]);
  equal(known.get("t1").title, "One again");
  equal(knownTracks(null).size, 0);
});

test("tracks named by id are filled in from those held; whole ones stay as sent", () => {
  const known = knownTracks({ current: entry("e1", track("t1", "One")), upNext: [], history: [] });
  const update = {
    revision: 4,
    current: entry("e1", { id: "t1" }),
    upNext: [entry("e2", track("t2", "Two"))],
    history: [],
  };
  const filled = fillTracks(update, known);
  equal(filled.revision, 4);
  equal(filled.current.track.title, "One");
  equal(filled.upNext[0].track.title, "Two");
  equal(update.current.track.title, undefined); // the message itself is left alone
});

test("a track named by id that is not held gives nothing: the client asks for a snapshot", () => {
  const update = { revision: 5, current: null, upNext: [entry("e9", { id: "t9" })], history: [] };
  equal(fillTracks(update, new Map()), null);
  equal(fillTracks({ ...update, upNext: [] }, new Map()).upNext.length, 0);
});
