import {
  connectionText, createStationState, currentEntry, entryKey, entryToRemove, historyItems, isDJ, isHeldNow, modeOf,
  normalRole, nowPlayingText, overConnection, overReason, overText, progressOf, roleChangeText, seekFraction, seekTarget,
  stationLine, upcomingEntries,
} from "/js/views/station/state.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("station state");

const route = (...path) => ({ path: ["station", "s1", ...path], query: new URLSearchParams() });
const track = (id, extra = {}) => ({ id, title: `Title ${id}`, artist: `Artist ${id}`, durationMs: 100_000, ...extra });
const entry = (id, start, trackID = id, source = "robot") => ({ id, start, expiration: start + 100_000, durationMs: 100_000, track: track(trackID), source });

test("the mode comes from the route: main, add or settings", () => {
  equal(modeOf(route()), "main");
  equal(modeOf(route("add")), "add");
  equal(modeOf(route("settings")), "settings");
  equal(modeOf(route("history")), "history");
  equal(modeOf(route("other")), "main");
  const state = createStationState(route("add"));
  equal(state.stationID, "s1");
  equal(state.mode, "add");
  equal(state.role, null);
  equal(state.ready, false);
});

test("a role of none is a listener; nothing is not known yet", () => {
  equal(normalRole("none"), "listener");
  equal(normalRole("codj"), "codj");
  equal(normalRole(undefined), null);
  equal(normalRole(null), null);
});

test("the booth is open for owners and co-DJs until the station is over", () => {
  equal(isDJ({ role: "owner", over: null }), true);
  equal(isDJ({ role: "codj", over: null }), true);
  equal(isDJ({ role: "listener", over: null }), false);
  equal(isDJ({ role: "owner", over: "ended" }), false);
});

test("the booth opening or closing is said; the first role and no change are not", () => {
  equal(roleChangeText("listener", "codj"), "You're a co-DJ now: the booth is open.");
  equal(roleChangeText("listener", "owner"), "The booth is open.");
  equal(roleChangeText("codj", "listener"), "You're a listener again: the booth is closed.");
  equal(roleChangeText(null, "owner"), null);
  equal(roleChangeText("codj", "owner"), null);
});

test("current and upcoming entries follow the clock; no session has none", () => {
  const timeline = { current: entry("a", 0), upNext: [entry("b", 100_000), entry("c", 200_000)], history: [] };
  const session = { timeline };
  equal(currentEntry(null, 5), null);
  deepEqual(upcomingEntries(null, 5), []);
  equal(currentEntry({ timeline: null }, 5), null);
  const now = currentEntry(session, 150_000);
  equal(now && now.id, "b");
  deepEqual(upcomingEntries(session, 150_000).map((e) => e.id), ["c"]);
  // Held: the timeline stands still at pausedAt.
  const held = { timeline: { ...timeline, pausedAt: 50_000 } };
  equal(currentEntry(held, 150_000).id, "a");
  deepEqual(upcomingEntries(held, 150_000).map((e) => e.id), ["b", "c"]);
});

test("held while the timeline has a pausedAt", () => {
  equal(isHeldNow(null), false);
  equal(isHeldNow({ timeline: { pausedAt: null } }), false);
  equal(isHeldNow({ timeline: { pausedAt: 0 } }), true);
});

test("toggling a queued track removes its last DJ pick, else its last entry; unqueued: none", () => {
  const upcoming = [entry("e1", 0, "t1", "dj"), entry("e2", 1, "t1", "robot"), entry("e3", 2, "t1", "dj"), entry("e4", 3, "t2", "robot")];
  equal(entryToRemove(upcoming, "t1").id, "e3");
  equal(entryToRemove(upcoming, "t2").id, "e4");
  equal(entryToRemove(upcoming, "t3"), null);
});

test("a seek stays inside the entry, a second before its end at most", () => {
  const e = entry("a", 0);
  equal(seekTarget(e, -500), 0);
  equal(seekTarget(e, 40_000.4), 40_000);
  equal(seekTarget(e, 500_000), 99_000);
  equal(seekFraction(150, { left: 100, width: 200 }), 0.25);
  equal(seekFraction(50, { left: 100, width: 200 }), 0);
  equal(seekFraction(400, { left: 100, width: 200 }), 1);
  equal(seekFraction(100, { left: 100, width: 0 }), 0);
});

test("progress is clamped to the entry", () => {
  const e = entry("a", 1000);
  deepEqual(progressOf(e, 31_000), { span: 100_000, pos: 30_000 });
  deepEqual(progressOf(e, 0), { span: 100_000, pos: 0 });
  deepEqual(progressOf(e, 900_000), { span: 100_000, pos: 100_000 });
});

test("now playing: a DJ pick says so, the album line skips what's missing", () => {
  const pick = { ...entry("a", 0), source: "dj", track: track("t", { album: "Album", year: 1999 }) };
  const text = nowPlayingText(pick, null);
  equal(text.label, "Now playing · DJ pick");
  equal(text.title, "Title t");
  equal(text.album, "Album · 1999");
  equal(text.announce, "Now playing Title t by Artist t");
  equal(nowPlayingText(entry("b", 0), null).label, "Now playing");
  equal(nowPlayingText(entry("b", 0), null).album, "");
  equal(entryKey(entry("b", 0, "t9")), "b:t9");
  equal(entryKey(null), null);
});

test("now playing: between songs, or silence when nothing is on or coming", () => {
  const between = nowPlayingText(null, { current: null, upNext: [entry("x", 5)] });
  equal(between.label, "Between songs");
  equal(between.title, "…");
  equal(between.announce, null);
  const silence = nowPlayingText(null, { current: null, upNext: [] });
  equal(silence.label, "Nothing on the air");
  equal(silence.title, "Silence on this frequency");
  equal(nowPlayingText(null, null).label, "Between songs");
});

test("just played: the last five", () => {
  const history = ["a", "b", "c", "d", "e", "f"].map((id) => entry(id, 0));
  deepEqual(historyItems({ history }).map((e) => e.id), ["a", "b", "c", "d", "e"]);
  deepEqual(historyItems(null), []);
  deepEqual(historyItems({}), []);
});

test("the connection pill's words, and the station's line", () => {
  // Connected is "On air" ("On hold" while held): "Live" is a live show's sign only.
  equal(connectionText("live"), "On air");
  equal(connectionText("live", { held: true }), "On hold");
  equal(connectionText("reconnecting", { held: true }), "Reconnecting…");
  equal(connectionText("reconnecting"), "Reconnecting…");
  equal(connectionText("ended"), "Off air");
  equal(connectionText("strange"), "strange");
  equal(stationLine({ frequency: "98.3", name: "Night" }), "98.3 Night");
  equal(stationLine({ frequency: null, name: "Night" }), "Night");
});

test("the end: reason, connection and words", () => {
  equal(overReason("denied", "station_full"), "station_full");
  equal(overReason("denied", null), "not_a_member");
  equal(overReason("removed", "x"), "removed");
  equal(overConnection("ended"), "ended");
  equal(overConnection("denied"), "denied");
  equal(overConnection("banned"), "removed");
  deepEqual(overText("removed", "removed", { name: "Night" }), {
    title: "You were removed from Night", line: "The host took you off this station, so the music has stopped here.", hostEnded: false,
  });
  equal(overText("removed", "removed").title, "You were removed from this station");
  const ownEnd = overText("ended", "ended", { role: "owner", name: "Night" });
  equal(ownEnd.title, "You ended this session");
  equal(ownEnd.hostEnded, true);
  equal(overText("ended", "ended", { role: "codj", name: "Night" }).title, "The host ended this session");
  equal(overText("denied", "banned", { name: "Night" }).line, "You were banned from Night.");
  equal(overText("banned", "banned", { name: "Night" }).title, "You were banned from Night");
  deepEqual(overText("denied", "weird", { message: "Nope." }), { title: "Can't tune in", line: "Nope.", hostEnded: false });
  equal(overText("denied", "weird").line, "This station isn't available to you.");
});
