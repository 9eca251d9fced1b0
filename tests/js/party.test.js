import { partyModel, skipText } from "/js/views/station/party.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("party");

const track = (id) => ({ id, title: `Title ${id}`, artist: `Artist ${id}`, durationMs: 100_000 });
const settings = (extra = {}) => ({ open: true, poolOnly: false, maxPendingPerPerson: 3, maxTrackMillis: 600_000, noRepeatWithin: 10, showVoteCounts: false, skip: { kind: "automatic" }, ...extra });
const request = (id, by, extra = {}) => ({ id, track: track(`t-${id}`), requesterID: by, requesterName: `Name ${by}`, requestedAt: 1, arranged: false, ...extra });

test("outside requests mode the panel is hidden", () => {
  equal(partyModel(null).visible, false);
  equal(partyModel({ mode: "dj", settings: settings(), requests: [] }).visible, false);
});

test("rows keep the server's order, with your own votes and your own requests", () => {
  const party = { mode: "requests", settings: settings(), requests: [request("r2", "bo"), request("r1", "ann")] };
  const model = partyModel(party, { myVotes: { r1: "down" }, personID: "ann", named: true });
  deepEqual(model.rows.map((r) => r.id), ["r2", "r1"]);
  deepEqual(model.rows.map((r) => r.vote), [null, "down"]);
  deepEqual(model.rows.map((r) => r.mine), [false, true]);
  equal(model.count, 2);
  equal(model.rules, "Up to 3 requests each · songs up to 10 min");
});

test("counts show only when the server sent them", () => {
  const party = { mode: "requests", settings: settings(), requests: [request("r1", "ann", { upvotes: 2, downvotes: 1 }), request("r2", "bo")] };
  const model = partyModel(party);
  equal(model.rows[0].ups, 2);
  equal(model.rows[1].ups, undefined);
});

test("the skip vote belongs to the song playing now", () => {
  const party = { mode: "requests", settings: settings({ open: false, maxPendingPerPerson: 1, maxTrackMillis: null }), requests: [], skip: { entryID: "e1", votes: 1, needed: 3 } };
  equal(partyModel(party, { currentEntryID: "e2" }).skip, null);
  const model = partyModel(party, { currentEntryID: "e1" });
  equal(skipText(model.skip), "1 of 3 to skip");
  equal(model.open, false);
  equal(model.rules, "Requests are closed");
});
