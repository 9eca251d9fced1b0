import { partyModel, skipText } from "/js/views/station/party.js";
import { roomModel, roomWords } from "/js/views/station/room.js";
import { FOLD_AFTER, vetoedModel } from "/js/views/station/vetoed.js";
import { playlistCount, playlistWords } from "/js/views/settings/playlist-panel.js";
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

test("the host's moves: up to just below the lined-up request, down to the end", () => {
  const party = {
    mode: "requests",
    settings: settings(),
    requests: [request("r0", "ann", { linedUp: true }), request("r1", "bo"), request("r2", "cy"), request("r3", "di")],
  };
  const rows = partyModel(party, { staff: true, named: true }).rows;
  deepEqual(rows.map((r) => [r.up, r.down]), [[null, null], [null, 2], [1, 3], [2, null]]);
});

test("the TV shows vote counts only when the host shows them to everyone", () => {
  const requests = [request("r1", "ann", { upvotes: 2, downvotes: 0 })];
  const hidden = roomModel({ entry: null, party: { mode: "requests", settings: settings(), requests }, frequency: "98.3" });
  equal(hidden.requests[0].votes, null);
  const shown = roomModel({ entry: null, party: { mode: "requests", settings: settings({ showVoteCounts: true }), requests }, frequency: "98.3" });
  equal(shown.requests[0].votes, 2);
});

test("the TV's words: requests at a party, votes in a lobby, listening along in DJ mode", () => {
  const dj = roomWords(roomModel({ entry: null, party: { mode: "dj", settings: settings(), requests: [] } }));
  equal(/request|ask for/i.test(`${dj.heading} ${dj.empty} ${dj.join}`), false);
  equal(/listen/i.test(dj.join), true);
  equal(roomWords({ mode: "requests", taking: true }).join, "Scan to join and request a song");
  equal(/request/i.test(roomWords({ mode: "requests", taking: false }).join), false);
  equal(/vote/i.test(roomWords({ mode: "lobby", taking: false }).join), true);
});

test("the playlist's words: the host's playlist at a party, the base playlist in a lobby", () => {
  equal(playlistWords("requests").heading, "The host's playlist");
  equal(playlistWords("requests").onlyLabel, "Requests only from the host's playlist");
  equal(playlistWords("lobby").heading, "Base playlist");
  equal(/base playlist/.test(playlistWords("lobby").onlyLabel), true);
  equal(playlistCount(1), "1 song");
  equal(playlistCount(12), "12 songs");
});

test("a lined-up request: no Next for it or for the first waiting behind it, nothing to vote on the TV", () => {
  const party = {
    mode: "requests",
    settings: settings({ showVoteCounts: true }),
    requests: [request("r0", "ann", { linedUp: true, upvotes: 1, downvotes: 0 }), request("r1", "bo", { upvotes: 0, downvotes: 0 }), request("r2", "cy")],
  };
  const rows = partyModel(party, { staff: true, named: true }).rows;
  deepEqual(rows.map((r) => [r.linedUp, r.top]), [[true, false], [false, false], [false, true]]);
  const room = roomModel({ entry: null, party, frequency: "98.3" });
  deepEqual(room.requests.map((r) => [r.linedUp, r.votes]), [[true, null], [false, 0], [false, null]]);
});

test("the vetoed songs: only for the host and co-DJs, folded when long", () => {
  const vetoed = [track("a"), track("b")];
  equal(vetoedModel({ mode: "dj", vetoed }, { staff: false }).visible, false);
  equal(vetoedModel({ mode: "dj", vetoed: null }, { staff: true }).visible, false);
  equal(vetoedModel(null, { staff: true }).visible, false);
  const short = vetoedModel({ mode: "lobby", vetoed }, { staff: true });
  deepEqual([short.visible, short.count, short.folded], [true, 2, false]);
  const long = vetoedModel({ mode: "requests", vetoed: Array.from({ length: FOLD_AFTER + 1 }, (_, i) => track(`v${i}`)) }, { staff: true });
  equal(long.folded, true);
});
