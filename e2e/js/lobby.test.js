import { countdownText, lobbyModel, weightText } from "/js/views/station/lobby.js";
import { createQueue } from "/js/views/queue.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("lobby");

const track = (id) => ({ id, title: `Title ${id}`, artist: `Artist ${id}`, durationMs: 100_000 });
const ballot = (extra = {}) => ({
  id: "b2",
  follows: "e1",
  closesAt: 100_000,
  waitingSuggestions: 1,
  candidates: [
    { track: track("a"), suggestions: 0 },
    { track: track("b"), suggestions: 2 },
  ],
  ...extra,
});
const lobby = (extra = {}) => ({ mode: "lobby", settings: {}, requests: [], ballot: ballot(extra) });

test("outside lobby mode the panel is hidden", () => {
  equal(lobbyModel(null).visible, false);
  equal(lobbyModel({ mode: "requests", settings: {}, requests: [] }).visible, false);
});

test("your vote counts only on the ballot it was cast on", () => {
  const mine = { ballotID: "b2", vote: "b", weight: 1.5, explanation: "Your vote counts 1.50×: your picks got 3 👍, 0 👎." };
  const model = lobbyModel(lobby(), { standing: mine, named: true, serverNow: 90_000 });
  deepEqual(model.candidates.map((c) => c.mine), [false, true]);
  equal(model.open, true);
  equal(model.weight, mine.explanation);
  const stale = lobbyModel(lobby(), { standing: { ...mine, ballotID: "b1" }, serverNow: 90_000 });
  deepEqual(stale.candidates.map((c) => c.mine), [false, false]);
});

test("a ballot is closed once its time is up or a winner is in", () => {
  equal(lobbyModel(lobby(), { serverNow: 100_000 }).open, false);
  const decided = lobbyModel(lobby({ elected: "a" }), { serverNow: 50_000 });
  equal(decided.open, false);
  deepEqual(decided.candidates.map((c) => c.elected), [true, false]);
});

test("the countdown reads like a clock", () => {
  const model = lobbyModel(lobby(), { serverNow: 0 });
  equal(countdownText(model, 100_000 - 83_500), "Closes in 1:24");
  equal(countdownText(model, 100_000), "Counting the votes…");
  equal(countdownText(lobbyModel(lobby({ elected: "a" })), 0), "The vote is in: the winner plays next.");
  equal(countdownText(lobbyModel({ mode: "lobby", settings: {}, requests: [] }), 0), "The next vote opens when the next song starts.");
});

test("weights read as multipliers", () => {
  equal(weightText(1), "Your vote counts 1×");
  equal(weightText(2.384), "Your vote counts 2.38×");
});

test("Up Next says why a lobby's winner won, a tie too, as text", () => {
  const queue = createQueue({ owner: false, onRemove() {}, onMove() {}, localTime: () => "21:00" });
  const why = "A tie between 2 songs: the robot's taste broke it <b>";
  const entry = { id: "e9", source: "elected", start: 1_000, expiration: 101_000, durationMs: 100_000, offsetMs: 0, why, track: track("w") };
  queue.render([entry], null);
  const row = queue.el.querySelector(".upnext-row");
  equal(row.querySelector(".upnext-why").textContent, why);
  equal(row.querySelector(".upnext-why b"), null);
  equal(/Voted in/.test(row.textContent), true);
});
