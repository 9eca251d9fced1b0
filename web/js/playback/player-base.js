// What the two players share: the interface the station screen drives
// (setTimeline, start, pause, resume, stop, recover, unlock, status,
// positionAt, firstSoundMs) and the bookkeeping behind it: the timeline
// followed, the entry heard, whether the listener wants sound, the state
// shown ("Sync: …" and the play button), tune-in to first sound, and a
// 100 ms tick. BasicPlayer (the <audio> element) and WebAudioPlayer (Web
// Audio, scheduled against the synced clock) extend it with how they make
// the sound: each has its own reconcile() (what to play now) and tick()
// (drift correction).

import { positionIn, timelineNow } from "./timeline.js";

const TICK_MS = 100;

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
    // idle | loading | playing | paused | held | blocked | waiting | error
    this.state = "idle";
    this.tunedAt = null;
    this.firstSoundAt = null;
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
  }

  /** Tuning in or playing again: time to first sound counts from `tunedAt`. */
  wantSound(tunedAt) {
    this.tunedAt = tunedAt;
    this.firstSoundAt = null;
    this.wantPlay = true;
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
