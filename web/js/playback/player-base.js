// What the two players share: the interface the station screen drives
// (setTimeline, start, pause, resume, stop, recover, unlock, status,
// positionAt, firstSoundMs) and the bookkeeping behind it: the timeline
// followed, the entry heard, whether the listener wants sound, the state
// shown ("Sync: …" and the play button), tune-in to first sound, and a
// 100 ms tick. BasicPlayer (the <audio> element) and WebAudioPlayer (Web
// Audio, scheduled against the synced clock) extend it with how they make
// the sound: each has its own reconcile() (what to play now) and tick()
// (drift correction). A live entry (a source took the timeline over) plays
// from the page's live relay instead (live-relay.js), through the same
// interface: both players hand it over here, and the state follows it.

import { levelDb, volumeOf } from "./level.js";
import { broadcastingHere, liveRelay, liveStationOf } from "./live-relay.js";
import { isLive, positionIn, timelineNow } from "./timeline.js";

const TICK_MS = 100;

// The player's state while the live relay has the sound.
const LIVE_STATES = { idle: "loading", loading: "loading", playing: "playing", blocked: "blocked", dropped: "dropped" };

/** A track's audio as MP3, for a browser that can't decode its own format. */
export function mp3URL(track) {
  const sep = track.audioURL.includes("?") ? "&" : "?";
  return `${track.audioURL}${sep}format=mp3`;
}

export class PlayerBase extends EventTarget {
  constructor(clock, mode) {
    super();
    this.clock = clock;
    this.mode = mode;
    this.timeline = null;
    this.entry = null;
    this.wantPlay = false;
    // idle | loading | playing | paused | held | blocked | waiting | error,
    // and for a live entry dropped (its source is gone, maybe for a moment)
    // or onair (the show is this page's own broadcast: not played back)
    this.state = "idle";
    /** The page's live relay, once this player has played a live entry. */
    this.live = null;
    // The DJ's own broadcast from this page starts or stops: their show's
    // relay is never played back here (see live-relay.js).
    if (typeof window !== "undefined" && typeof window.addEventListener === "function") {
      window.addEventListener("wavelength:broadcast", () => {
        if (this.timeline) this.reconcile();
      });
    }
    this.tunedAt = null;
    this.firstSoundAt = null;
    this.stages = null;
    this.tickTimer = null;
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: { state } }));
  }

  /** Tells the page which entry is heard now (null: none). */
  announceEntry(entry, previous = undefined) {
    this.dispatchEvent(new CustomEvent("entry", { detail: previous === undefined ? { entry } : { entry, previous } }));
  }

  /** Follow a new timeline window (snapshot or update). */
  setTimeline(timeline) {
    this.timeline = timeline;
    this.reconcile();
  }

  /** The station's loudness target and level ({targetLufs, levelDb, since}). */
  setSound(sound) {
    this.sound = sound;
    this.liveLevel();
  }

  // --- A live entry: the relay has the sound -------------------------------

  /** Whether live entry `entry` is this page's own broadcast. */
  ownShow(entry) {
    return broadcastingHere(liveStationOf(this.timeline, entry));
  }

  /** Plays live entry `entry` from the relay (a no-op while it already does). */
  playLive(entry) {
    if (this.ownShow(entry)) {
      // The DJ's own show: nothing played back (state "onair").
      this.stopLive();
      this.liveChanged();
      return;
    }
    if (!this.live) {
      this.live = liveRelay();
      this.live.addEventListener("state", () => this.liveChanged());
    }
    this.liveLevel();
    this.live.play(entry);
    this.liveChanged();
  }

  /** Stops the relay, if this player had it play. */
  stopLive() {
    if (this.live) this.live.stop();
  }

  /** The relay's volume: the station's level for the live entry, as for a track. */
  liveLevel() {
    if (this.live && isLive(this.entry)) this.live.setVolume(volumeOf(levelDb(this.entry, this.sound)));
  }

  /** The relay's state is the player's while a live entry plays. */
  liveChanged() {
    if (!this.wantPlay || !isLive(this.entry)) return;
    if (this.ownShow(this.entry)) {
      this.setState("onair");
      return;
    }
    if (!this.live || this.live.entryID !== this.entry.id) return;
    const state = LIVE_STATES[this.live.state] || "loading";
    if (state === "playing" && this.tunedAt !== null && this.firstSoundAt === null) this.firstSoundAt = performance.now();
    this.setState(state);
  }

  /** status() while a live entry plays: the relay's element. */
  liveStatus() {
    return { ...this.live.status(), mode: this.mode, live: true, state: this.state, entryId: this.entry.id };
  }

  /** Tuning in or playing again: time to first sound counts from `tunedAt`. */
  wantSound(tunedAt) {
    this.tunedAt = tunedAt;
    this.firstSoundAt = null;
    this.wantPlay = true;
    // The way from this tune-in to its first sound, for report().stages:
    // performance times, each stage's first.
    this.stages = { tunedIn: tunedAt };
  }

  /** Notes that tune-in stage `name` was reached (once per tune-in). */
  stage(name, at = performance.now(), stages = this.stages) {
    if (stages && stages[name] == null) stages[name] = at;
  }

  startTicking() {
    if (!this.tickTimer) this.tickTimer = setInterval(() => this.tick(), TICK_MS);
  }

  stopTicking() {
    clearInterval(this.tickTimer);
    this.tickTimer = null;
  }

  /** Where in its file the entry is now, by the synced clock, in seconds. */
  expectedSeconds(entry) {
    return positionIn(entry, timelineNow(this.timeline, this.clock.now())) / 1000;
  }

  /** From the tune-in to the first sample heard (ms), or null. */
  get firstSoundMs() {
    return this.firstSoundAt !== null && this.tunedAt !== null ? this.firstSoundAt - this.tunedAt : null;
  }

  /** From a user gesture: lets audio start (a no-op where nothing needs it). */
  unlock() {}

  // Subclasses: reconcile(), tick(), start(), pause(), resume(), stop(),
  // recover(), status(), positionAt(perf).
}
