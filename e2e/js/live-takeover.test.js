// A live show on the station's timeline: which entries are live, now
// playing's words, Up Next behind a live show, past shows in history, the
// status while the source has dropped, and the relay's retries (with a
// stand-in <audio> element and hand-run timers).

import { entryAt, isLive, nextBoundary } from "/js/playback/timeline.js";
import { LiveRelay, RETRY_MS, broadcastingHere, liveStationOf } from "/js/playback/live-relay.js";
import { deviceKey, withDeviceKey } from "/js/live/device-key.js";
import { levelDb, volumeOf } from "/js/playback/level.js";
import {
  DROPPED_TEXT, OWN_SHOW_TEXT, cleanText, liveForText, liveHistorySub, liveHistoryTitle, liveLengthMs, liveNowText, liveStatusText, upNextNotes,
  upNextWhenText,
} from "/js/views/station/live-model.js";
import { nowPlayingText } from "/js/views/station/state.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("live takeover");

const DAY = 86_400_000;
const T = 1_795_471_200_000;
const song = (id, start, durationMs = 180_000) => ({
  id, source: "robot", start, expiration: start + durationMs, durationMs, offsetMs: 0,
  track: { id: `t-${id}`, title: `Song ${id}`, artist: `Artist ${id}`, album: "Album", durationMs },
});
const liveEntry = (id, start, durationMs = DAY, extra = {}) => ({
  id, source: "live", start, expiration: start + durationMs, durationMs, offsetMs: 0, why: "Late Jazz",
  track: {
    id: "live:p1", title: "<b>Late</b> Jazz", artist: "Night <i>Owl</i>", album: "Live on 98.3 Night FM", albumArtist: "",
    format: "mp3", durationMs, audioURL: "/live/s1.mp3", artworkURL: null, ...extra,
  },
});
const clock = (ms) => new Date(ms).toISOString().slice(11, 16);

test("an entry is live by its source alone", () => {
  equal(isLive(liveEntry("l", T)), true);
  equal(isLive(song("a", T)), false);
  equal(isLive({ ...song("a", T), source: "dj" }), false);
  equal(isLive(null), false);
  equal(isLive(undefined), false);
});

test("a live entry plays for its whole (long) span, and the song after it starts when it expires", () => {
  const live = liveEntry("l", T, 20_000);
  const after = song("b", T + 20_000);
  const timeline = { current: live, upNext: [after], history: [] };
  equal(entryAt(timeline, T + 19_999).id, "l");
  equal(entryAt(timeline, T + 20_000).id, "b");
  equal(nextBoundary(timeline, T + 1), T + 20_000);
});

test("live for: minutes, hours and minutes, under a minute", () => {
  equal(liveForText(0), "live for less than a minute");
  equal(liveForText(59_999), "live for less than a minute");
  equal(liveForText(3 * 60_000 + 5_000), "live for 3 min");
  equal(liveForText(60 * 60_000), "live for 1 h");
  equal(liveForText(125 * 60_000), "live for 2 h 5 min");
  equal(liveForText(-5_000), "live for less than a minute");
});

test("now playing for a live show: the LIVE label, its title and DJ as text, said once", () => {
  const text = liveNowText(liveEntry("l", T));
  deepEqual(text, {
    label: "Live",
    title: "<b>Late</b> Jazz",
    artist: "Night <i>Owl</i>",
    album: "Live on 98.3 Night FM",
    announce: "Live now: <b>Late</b> Jazz with Night <i>Owl</i>.",
  });
  // The station screen's words use it for live entries only.
  deepEqual(nowPlayingText(liveEntry("l", T), null), text);
  equal(nowPlayingText(song("a", T), null).label, "Now playing");
});

test("a live title with control characters and runs of space reads as one line; none at all is 'Live'", () => {
  equal(cleanText(" Late\u0000\u0007 \n Jazz  "), "Late Jazz");
  equal(liveNowText(liveEntry("l", T, DAY, { title: "\u0001" })).title, "Late Jazz");
  // No title from the source: the DJ's name, once (not "Live", not the DJ twice).
  const untitled = liveNowText({ ...liveEntry("l", T, DAY, { title: "" }), why: null });
  equal(untitled.title, "Night <i>Owl</i>");
  equal(untitled.artist, "");
  equal(liveNowText({ ...liveEntry("l", T, DAY, { title: "", artist: "" }), why: null }).title, "Live show");
  equal(liveNowText(liveEntry("l", T, DAY, { artist: "" })).announce, "Live now: <b>Late</b> Jazz.");
});

test("up next: songs behind a live show say 'after the live show', not a start a day away", () => {
  const live = liveEntry("l", T);
  const b = song("b", T + DAY);
  const c = song("c", T + DAY + 180_000);
  deepEqual(upNextNotes(live, [b, c]), [{ live: false, afterLive: true }, { live: false, afterLive: true }]);
  equal(upNextWhenText(b, { live: false, afterLive: true }, clock), "after the live show · 3:00");
  // No live show: the start time.
  const a = song("a", T);
  deepEqual(upNextNotes(a, [b]), [{ live: false, afterLive: false }]);
  equal(upNextWhenText(b, { live: false, afterLive: false }, clock), `${clock(T + DAY)} · 3:00`);
  // A live show still to come (the moment of the cut): itself, then the songs behind it.
  deepEqual(upNextNotes(a, [live, b]), [{ live: true, afterLive: false }, { live: false, afterLive: true }]);
  equal(upNextWhenText(live, { live: true, afterLive: false }, clock), "Live show");
  deepEqual(upNextNotes(null, []), []);
});

test("history: a past live show reads 'Live: title — DJ' with how long it really ran", () => {
  // Ended 2 min 5 s in: its expiration is the truth, even if the duration still says a day.
  const past = { ...liveEntry("l", T), expiration: T + 125_000 };
  equal(liveLengthMs(past, T + DAY * 2), 125_000);
  equal(liveHistoryTitle(past), "Live: <b>Late</b> Jazz — Night <i>Owl</i>");
  equal(liveHistorySub(past, T + DAY * 2), "Live on 98.3 Night FM · 2:05");
  // Trimmed by the server instead: the same.
  const trimmed = liveEntry("l", T, 3_725_000);
  equal(liveHistorySub(trimmed, T + DAY), "Live on 98.3 Night FM · 1:02:05");
  // Still on the air: as long as it has run so far, not a day.
  equal(liveLengthMs(liveEntry("l", T), T + 60_000), 60_000);
  equal(liveHistorySub(liveEntry("l", T), T + 60_000), "Live on 98.3 Night FM · on the air now");
  equal(liveHistoryTitle(liveEntry("l", T, DAY, { artist: "" })), "Live: <b>Late</b> Jazz");
});

test("a source with no title: the server's stand-in 'Live' is never a title, the show's or DJ's name is, once", () => {
  // As the server sends it: title and album "Live", the DJ as the artist, the stand-in in `why`.
  const bare = { ...liveEntry("l", T, 3_725_000, { title: "Live", album: "Live", artist: "Alice Adams" }), why: "Live" };
  const now = liveNowText(bare);
  equal(now.title, "Alice Adams");
  equal(now.artist, "");
  equal(now.announce, "Live now: Alice Adams.");
  equal(liveHistoryTitle(bare), "Live: Alice Adams");
  equal(liveHistorySub(bare, T + DAY), "1:02:05");
  // A scheduled show's name (in `why`) is the title, with the DJ beside it.
  const show = { ...bare, why: "Sunday Soul" };
  equal(liveNowText(show).title, "Sunday Soul");
  equal(liveNowText(show).artist, "Alice Adams");
  equal(liveHistoryTitle(show), "Live: Sunday Soul — Alice Adams");
});

test("the dropped status: only for a live show, while the listener wants sound and its source is gone", () => {
  const live = liveEntry("l", T);
  equal(liveStatusText(live, { wantPlay: true, state: "dropped" }), DROPPED_TEXT);
  equal(DROPPED_TEXT, "The live source dropped — waiting for it to come back");
  equal(liveStatusText(live, { wantPlay: true, state: "playing" }), "");
  equal(liveStatusText(live, { wantPlay: false, state: "dropped" }), "");
  equal(liveStatusText(song("a", T), { wantPlay: true, state: "dropped" }), "");
});

test("the DJ's own broadcast from this page is never played back here", () => {
  const say = (stationID, active) => dispatchEvent(new CustomEvent("wavelength:broadcast", { detail: { stationID, active } }));
  equal(liveStationOf({ stationID: "s1" }, liveEntry("l", T)), "s1");
  equal(liveStationOf(null, liveEntry("l", T)), "s1");
  equal(liveStationOf(null, song("a", T)), null);
  equal(broadcastingHere("s1"), false);
  say("s1", true);
  equal(broadcastingHere("s1"), true);
  equal(broadcastingHere("s2"), false);
  // Another station's end leaves it alone; its own ends it.
  say("s2", false);
  equal(broadcastingHere("s1"), true);
  say("s1", false);
  equal(broadcastingHere("s1"), false);
  equal(broadcastingHere(null), false);
  equal(liveStatusText(liveEntry("l", T), { wantPlay: true, state: "onair" }), OWN_SHOW_TEXT);
});

test("the relay's volume is the station's level, never a boost", () => {
  const live = liveEntry("l", T);
  equal(volumeOf(levelDb(live, null)), 1);
  equal(volumeOf(levelDb(live, { targetLufs: -14, levelDb: 6 })), 1);
  equal(Math.round(volumeOf(levelDb(live, { targetLufs: -14, levelDb: -6 })) * 1000), 501);
  equal(Math.round(volumeOf(levelDb(live, { targetLufs: -20, levelDb: 0 })) * 1000), 501);
});

// ------------------------------------------------ the relay, by hand

class FakeAudio extends EventTarget {
  constructor() {
    super();
    this.dataset = {};
    this.attrs = {};
    this.loads = [];
    this.paused = true;
    this.currentTime = 0;
    this.error = null;
    this.ended = false;
    this.volume = 1;
    this.readyState = 0;
    // What play() does: "ok", "404" or "blocked".
    this.answer = "ok";
  }
  set src(value) {
    this.attrs.src = value;
    this.loads.push(value);
    this.error = null;
    this.ended = false;
  }
  getAttribute(name) {
    return this.attrs[name] ?? null;
  }
  removeAttribute(name) {
    delete this.attrs[name];
  }
  load() {}
  pause() {
    this.paused = true;
  }
  play() {
    if (this.answer === "blocked") return Promise.reject(new DOMException("no gesture", "NotAllowedError"));
    if (this.answer === "404") {
      this.error = { code: 4 };
      this.dispatchEvent(new Event("error"));
      return Promise.reject(new DOMException("no source", "NotSupportedError"));
    }
    this.paused = false;
    this.dispatchEvent(new Event("playing"));
    return Promise.resolve();
  }
}

function relayByHand() {
  const audio = new FakeAudio();
  const timers = [];
  let now = 0;
  const relay = new LiveRelay({
    audio,
    setTimer: (fn, ms) => {
      const timer = { fn, ms, live: true };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      if (timer) timer.live = false;
    },
    now: () => now,
  });
  const pending = () => timers.filter((t) => t.live);
  const runTimers = () => {
    for (const t of pending()) {
      t.live = false;
      t.fn();
    }
  };
  return { audio, relay, pending, runTimers, advance: (ms) => (now += ms) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("relay: a live entry plays its relay once, however often it is asked", async () => {
  const { audio, relay, pending } = relayByHand();
  const live = liveEntry("l", T);
  relay.play(live);
  relay.play(live);
  await settle();
  // With the page's device key, which its WebSocket says too: one listener.
  deepEqual(audio.loads, [`/live/s1.mp3?listener=${deviceKey}`]);
  equal(relay.state, "playing");
  equal(pending().length, 0);
  relay.stop();
  equal(relay.state, "idle");
  equal(audio.getAttribute("src"), null);
  equal(audio.paused, true);
});

test("relay: a 404 is asked again every 2 s, one request and one timer at a time, until stopped", async () => {
  const { audio, relay, pending, runTimers } = relayByHand();
  audio.answer = "404";
  relay.play(liveEntry("l", T));
  await settle();
  equal(relay.state, "loading");
  equal(audio.loads.length, 1);
  // The error event and play()'s refusal: one retry, in RETRY_MS.
  equal(pending().length, 1);
  equal(pending()[0].ms, RETRY_MS);
  equal(RETRY_MS, 2000);
  audio.dispatchEvent(new Event("error"));
  equal(pending().length, 1);
  runTimers();
  await settle();
  equal(audio.loads.length, 2);
  equal(pending().length, 1);
  // The source is back: it plays, no timer left.
  audio.answer = "ok";
  runTimers();
  await settle();
  equal(audio.loads.length, 3);
  equal(relay.state, "playing");
  equal(pending().length, 0);
  // Stopped while waiting: the retry never comes.
  audio.answer = "404";
  audio.dispatchEvent(new Event("ended"));
  audio.ended = true;
  audio.dispatchEvent(new Event("ended"));
  equal(relay.state, "dropped");
  equal(pending().length, 1);
  relay.stop();
  equal(pending().length, 0);
  equal(audio.loads.length, 3);
});

test("relay: once it has played, losing it is 'dropped'; a relay that stops moving is asked again", async () => {
  const { audio, relay, pending, runTimers, advance } = relayByHand();
  relay.play(liveEntry("l", T));
  await settle();
  equal(relay.state, "playing");
  // Moving: nothing happens.
  audio.currentTime = 1;
  relay.check();
  advance(5_000);
  audio.currentTime = 6;
  relay.check();
  equal(pending().length, 0);
  // Still for longer than the stall limit: lost, then asked again.
  advance(relay.stallMs + 1);
  relay.check();
  equal(relay.state, "dropped");
  equal(pending().length, 1);
  runTimers();
  await settle();
  equal(audio.loads.length, 2);
  equal(relay.state, "playing");
});

test("relay: a browser that wants a gesture first is 'blocked' and isn't asked again by itself", async () => {
  const { audio, relay, pending } = relayByHand();
  audio.answer = "blocked";
  relay.play(liveEntry("l", T));
  await settle();
  equal(relay.state, "blocked");
  equal(pending().length, 0);
  relay.check();
  equal(pending().length, 0);
  // Listen (a gesture): the player stops and asks afresh.
  audio.answer = "ok";
  relay.stop();
  relay.play(liveEntry("l", T));
  await settle();
  equal(relay.state, "playing");
});

test("relay: a new live entry (a new show) asks again; the volume follows", async () => {
  const { audio, relay } = relayByHand();
  relay.play(liveEntry("l1", T));
  relay.play(liveEntry("l2", T + 1000));
  await settle();
  equal(audio.loads.length, 2);
  relay.setVolume(0.5);
  equal(audio.volume, 0.5);
  relay.setVolume(NaN);
  equal(audio.volume, 0.5);
});

test("device key: 22 base64url characters, added to a relay's address before its fragment", () => {
  equal(/^[A-Za-z0-9_-]{22}$/.test(deviceKey), true);
  equal(withDeviceKey("/live/s1.mp3?edge=1"), `/live/s1.mp3?edge=1&listener=${deviceKey}`);
  equal(withDeviceKey("/live/s1.mp3#t"), `/live/s1.mp3?listener=${deviceKey}#t`);
  equal(withDeviceKey(""), "");
});
