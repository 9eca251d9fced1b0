// A live show's sound: while the station's timeline has a live entry on the
// air (a source took it over, see timeline.js's isLive), the players play
// the source's relay (`track.audioURL`, /live/{station}.mp3, a continuous
// MP3 on the same origin with the session cookie) through one <audio>
// element per page (#wl-live-audio), made once and reused. A live relay has
// no position to sync to: it plays as it comes, from the moment the live
// entry starts here.
//
// The relay answers 404 while no source is connected (a source that dropped
// and may come back within the station's grace) and ends when its source
// does: while the live entry is still on the air the relay is asked again
// every RETRY_MS, one request at a time (a new src replaces the old load,
// and there is only ever one timer). A relay that stops moving for STALL_MS
// while it should play is asked again the same way.
//
// States: idle (nothing asked), loading (asked, no sound yet), playing,
// blocked (the browser wants a gesture first: Listen), dropped (it played,
// then stopped: waiting for the source to come back).

import { withDeviceKey } from "../live/device-key.js";

export const RETRY_MS = 2000;
export const STALL_MS = 6000;

// The station this page broadcasts to itself (the booth's "Go live" from
// the browser says so with a "wavelength:broadcast" event on window,
// {detail: {stationID, active}}): its relay is never played back here, into
// the DJ's own microphone.
let ownStation = null;
if (typeof window !== "undefined" && typeof window.addEventListener === "function") {
  window.addEventListener("wavelength:broadcast", (event) => {
    const detail = (event && event.detail) || {};
    if (detail.active) ownStation = detail.stationID || null;
    else if (!detail.stationID || detail.stationID === ownStation) ownStation = null;
  });
}

/** Whether this page is itself the live source of `stationID`. */
export function broadcastingHere(stationID) {
  return Boolean(stationID) && ownStation === stationID;
}

/** The station a live entry belongs to: the timeline's, else its relay's address (/live/ID.mp3). */
export function liveStationOf(timeline, entry) {
  if (timeline && timeline.stationID) return timeline.stationID;
  const match = /\/live\/([^/?#]+)\.mp3/.exec((entry && entry.track && entry.track.audioURL) || "");
  return match ? decodeURIComponent(match[1]) : null;
}

function pageAudio() {
  let audio = document.getElementById("wl-live-audio");
  if (!audio) {
    audio = document.createElement("audio");
    audio.id = "wl-live-audio";
    audio.className = "live-audio";
    document.body.append(audio);
  }
  return audio;
}

/**
 * A relay; the page's own comes from liveRelay(). Options, for tests:
 * `audio` (an element, or a stand-in with the same members), `retryMs`,
 * `stallMs`, and the timers and clock (`setTimer`, `clearTimer`, `now`).
 */
export class LiveRelay extends EventTarget {
  constructor({
    audio = null,
    retryMs = RETRY_MS,
    stallMs = STALL_MS,
    setTimer = (fn, ms) => setTimeout(fn, ms),
    clearTimer = (id) => clearTimeout(id),
    now = () => performance.now(),
  } = {}) {
    super();
    audio = audio || pageAudio();
    audio.preload = "none";
    Object.assign(this, { retryMs, stallMs, setTimer, clearTimer, now });
    this.audio = audio;
    this.entryID = null;
    this.url = null;
    this.state = "idle";
    // Sound came for this entry here: a loss after that is a drop.
    this.heard = false;
    this.retryTimer = null;
    this.attempts = 0;
    this.lastTime = 0;
    this.movedAt = 0;

    audio.addEventListener("playing", () => {
      if (!this.url || this.retryTimer) return;
      this.heard = true;
      this.movedAt = this.now();
      this.set("playing");
    });
    audio.addEventListener("waiting", () => {
      if (this.url && !this.retryTimer && this.state === "playing") this.set("loading");
    });
    // A 404 (no source right now) and a broken connection both end here; an
    // error event left over from a src already replaced has no error on the
    // element any more.
    audio.addEventListener("error", () => {
      if (this.url && audio.error) this.lost();
    });
    audio.addEventListener("ended", () => {
      if (this.url && audio.ended) this.lost();
    });
  }

  set(state) {
    if (this.state === state) return;
    this.state = state;
    this.audio.dataset.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: { state } }));
  }

  /** Plays live entry `entry`'s relay (a no-op while it already does). */
  play(entry) {
    // With the page's device key: the station counts this page's listener
    // once, whether it hears the show here or not.
    const url = withDeviceKey(entry.track.audioURL);
    if (this.entryID === entry.id && this.url === url) return;
    this.entryID = entry.id;
    this.url = url;
    this.heard = false;
    this.attempts = 0;
    this.audio.dataset.entryId = entry.id;
    this.connect();
  }

  /** One request for the relay; the one before, if any, is replaced. */
  connect() {
    this.clearTimer(this.retryTimer);
    this.retryTimer = null;
    if (!this.url) return;
    this.attempts += 1;
    this.set(this.heard ? "dropped" : "loading");
    const { audio } = this;
    audio.src = this.url;
    this.lastTime = 0;
    this.movedAt = this.now();
    const url = this.url;
    const attempt = audio.play();
    if (!attempt || typeof attempt.catch !== "function") return;
    attempt.catch((error) => {
      if (this.url !== url || (error && error.name === "AbortError")) return;
      if (error && error.name === "NotAllowedError") this.set("blocked");
      else this.lost();
    });
  }

  /** The relay failed or ended while it should play: ask again in retryMs (one timer at a time). */
  lost() {
    if (!this.url || this.retryTimer || this.state === "blocked") return;
    this.set(this.heard ? "dropped" : "loading");
    this.audio.pause();
    this.retryTimer = this.setTimer(() => {
      this.retryTimer = null;
      this.connect();
    }, this.retryMs);
  }

  /** From the player's tick: a relay that doesn't move is treated as lost. */
  check() {
    if (!this.url || this.retryTimer || this.state === "blocked") return;
    const now = this.now();
    const time = this.audio.currentTime;
    if (time !== this.lastTime) {
      this.lastTime = time;
      this.movedAt = now;
    } else if (now - this.movedAt > this.stallMs) {
      this.lost();
    }
  }

  /** The element's volume (0…1): the station's level, as for every track. */
  setVolume(volume) {
    if (Number.isFinite(volume) && Math.abs(this.audio.volume - volume) > 0.001) this.audio.volume = volume;
  }

  /** Stops and lets go of the relay (the live entry is over, or the listener stopped). */
  stop() {
    this.clearTimer(this.retryTimer);
    this.retryTimer = null;
    if (!this.url && this.state === "idle") return;
    this.url = null;
    this.entryID = null;
    this.heard = false;
    const { audio } = this;
    audio.pause();
    audio.removeAttribute("src");
    delete audio.dataset.entryId;
    audio.load();
    this.set("idle");
  }

  /** What tests and the measurement hook read. */
  status() {
    const a = this.audio;
    return {
      paused: a.paused,
      currentTime: a.currentTime,
      readyState: a.readyState,
      entryId: this.entryID,
      liveState: this.state,
      attempts: this.attempts,
      src: a.getAttribute("src") || "",
    };
  }
}

let relay = null;

/** The page's one live relay, made on first use. */
export function liveRelay() {
  if (!relay) relay = new LiveRelay();
  return relay;
}
