// The fallback player ("Sync: basic"): plays a station's timeline through
// one <audio> element, for browsers without the Web Audio API or tracks it
// can't decode. It starts each entry at the offset the clock says, moves to
// the next one at its start, and corrects drift (a gentle rate change under
// 250 ms, a seek beyond). Media elements give no sample-accurate schedule,
// so expect tens of milliseconds between devices, not single ones. A live
// entry plays from the live relay (player-base.js, live-relay.js) while
// this element rests.

import { mp3URL, PlayerBase } from "./player-base.js";
import { entryAt, isHeld, isLive, nextBoundary, timelineNow } from "./timeline.js";

// How long after a seek or start the audio clock is read to learn its lag.
const SETTLE_MS = 200;
const SEEK_THRESHOLD_S = 0.25;
// Right after tuning in, a seek isn't heard as a glitch: lock on tightly.
const LOCK_THRESHOLD_S = 0.04;
const LOCK_SEEKS = 4;
const RATE_THRESHOLD_S = 0.02;
const MAX_RATE_DELTA = 0.03;
const SEEK_COOLDOWN_MS = 1200;

const MIME = {
  mp3: "audio/mpeg",
  flac: "audio/flac",
  ogg: 'audio/ogg; codecs="vorbis"',
  opus: 'audio/ogg; codecs="opus"',
  m4a: 'audio/mp4; codecs="mp4a.40.2"',
  wav: "audio/wav",
  aiff: "audio/aiff",
};

// A device's audio start-up and seek lags are steady: remember them.
const LEADS_KEY = "wavelength.audioLeads";
const DEFAULT_LEADS = { seek: 0.06, start: 0.2 };

function loadLeads() {
  try {
    const saved = JSON.parse(localStorage.getItem(LEADS_KEY) || "null");
    if (saved && Number.isFinite(saved.seek) && Number.isFinite(saved.start)) {
      return { seek: Math.min(0.6, Math.max(0, saved.seek)), start: Math.min(0.6, Math.max(0, saved.start)) };
    }
  } catch {}
  return { ...DEFAULT_LEADS };
}

function saveLeads(leads) {
  try {
    localStorage.setItem(LEADS_KEY, JSON.stringify(leads));
  } catch {}
}

export class BasicPlayer extends PlayerBase {
  constructor(clock) {
    super(clock, "basic");
    this.audio = document.getElementById("wl-audio");
    if (!this.audio) {
      this.audio = document.createElement("audio");
      this.audio.id = "wl-audio";
      document.body.append(this.audio);
    }
    this.audio.preload = "auto";
    this.loadToken = 0;
    // How far ahead to aim a seek (while playing) or a start (from paused),
    // learned from the drift once the audio has settled after each one.
    this.leads = loadLeads();
    this.pendingLead = null; // {kind, settleAt}
    this.locked = false;
    this.lockSeeks = 0;
    this.lastSeekAt = -Infinity;
    this.boundaryTimer = null;
    this.transcoded = false;

    this.audio.addEventListener("playing", () => {
      if (this.wantPlay && this.tunedAt !== null && this.firstSoundAt === null) this.firstSoundAt = performance.now();
      if (this.wantPlay) this.setState("playing");
      this.markSettling();
    });
    this.audio.addEventListener("waiting", () => {
      if (this.wantPlay && this.entry) this.setState("loading");
    });
    this.audio.addEventListener("seeked", () => {
      if (!this.audio.paused) this.markSettling();
    });
    this.audio.addEventListener("error", () => this.onError());
  }

  setState(state) {
    // Tests read the state off the element too.
    if (this.state !== state) this.audio.dataset.state = state;
    super.setState(state);
  }

  /** Arriving on a station: play from the timeline's offset. */
  start({ tunedAt = performance.now() } = {}) {
    this.wantSound(tunedAt);
    this.startTicking();
    this.reconcile();
  }

  /** The user pressed stop/pause: silence, but keep following the timeline. */
  pause() {
    this.wantPlay = false;
    this.audio.pause();
    this.stopLive();
    this.setState("paused");
  }

  /** Play again, live: jump to where the station is now. */
  resume() {
    this.wantSound(performance.now());
    this.startTicking();
    const entry = this.entry;
    this.locked = false;
    this.lockSeeks = 0;
    // A live show: ask the relay afresh, from this gesture.
    this.stopLive();
    if (isLive(entry)) {
      this.reconcile();
    } else if (entry && this.audio.dataset.entryId === entry.id && this.audio.readyState >= 1) {
      this.seekTo(entry);
      this.play();
    } else if (entry) {
      this.load(entry);
    } else {
      this.reconcile();
    }
  }

  /** Leaving the station: stop and let go of the audio. */
  stop() {
    this.wantPlay = false;
    this.timeline = null;
    this.entry = null;
    this.loadToken += 1;
    clearTimeout(this.boundaryTimer);
    clearTimeout(this.retryTimer);
    this.stopTicking();
    this.stopLive();
    this.audio.pause();
    this.audio.removeAttribute("src");
    delete this.audio.dataset.entryId;
    this.audio.load();
    this.setState("idle");
    this.announceEntry(null);
  }

  reconcile() {
    clearTimeout(this.boundaryTimer);
    if (!this.timeline) return;
    const realNow = this.clock.now();
    if (isHeld(this.timeline, realNow)) {
      // The DJ paused the station: silence until the timeline resumes.
      const entry = entryAt(this.timeline, this.timeline.pausedAt);
      if ((entry && entry.id) !== (this.entry && this.entry.id)) {
        const previous = this.entry;
        this.entry = entry;
        this.announceEntry(entry, previous);
      }
      this.loadToken += 1;
      this.audio.pause();
      this.stopLive();
      delete this.audio.dataset.entryId;
      if (this.wantPlay) this.setState("held");
      return;
    }
    const now = timelineNow(this.timeline, realNow);
    const entry = entryAt(this.timeline, now);
    const boundary = nextBoundary(this.timeline, now);
    if (boundary !== null) {
      this.boundaryTimer = setTimeout(() => this.reconcile(), Math.max(0, boundary - now) + 5);
    }
    if (!entry) {
      this.stopLive();
      if (this.entry) {
        this.entry = null;
        this.loadToken += 1;
        this.audio.pause();
        delete this.audio.dataset.entryId;
        this.announceEntry(null);
      }
      if (this.wantPlay) this.setState("waiting");
      return;
    }
    const changed = !this.entry || this.entry.id !== entry.id || this.entry.track.id !== entry.track.id;
    const previous = this.entry;
    this.entry = entry;
    if (changed) this.announceEntry(entry, previous);
    if (isLive(entry)) {
      // A live show: the file's element rests (and lets go of its file),
      // the relay plays.
      if (this.audio.getAttribute("src")) {
        this.loadToken += 1;
        this.audio.pause();
        this.audio.removeAttribute("src");
        delete this.audio.dataset.entryId;
        this.audio.load();
      }
      if (this.wantPlay) this.playLive(entry);
      return;
    }
    this.stopLive();
    if (this.wantPlay && (changed || (this.audio.dataset.entryId !== entry.id && this.state !== "loading"))) {
      this.load(entry);
    } else if (this.wantPlay && this.audio.paused && !this.audio.ended && this.state !== "blocked" && this.state !== "loading") {
      this.seekTo(entry);
      this.play();
    }
  }

  sourceFor(track) {
    const mime = MIME[track.format];
    const playable = !mime || this.audio.canPlayType(mime) !== "";
    if (playable && !this.transcoded) return track.audioURL;
    return mp3URL(track);
  }

  load(entry) {
    const token = ++this.loadToken;
    clearTimeout(this.retryTimer);
    this.transcoded = false;
    this.locked = false;
    this.lockSeeks = 0;
    this.setState("loading");
    this.audio.playbackRate = 1;
    this.audio.dataset.entryId = entry.id;
    this.audio.src = this.sourceFor(entry.track);
    const onMeta = () => {
      if (token !== this.loadToken) return;
      this.seekTo(entry);
      this.play();
    };
    this.audio.addEventListener("loadedmetadata", onMeta, { once: true });
  }

  onError() {
    if (!this.entry || !this.audio.getAttribute("src")) return;
    const entry = this.entry;
    const code = this.audio.error ? this.audio.error.code : 0;
    if ((code === 3 || code === 4) && !this.transcoded) {
      // A file this browser can't decode: ask the server for an mp3 once.
      this.transcoded = true;
      const token = ++this.loadToken;
      this.audio.src = this.sourceFor(entry.track);
      this.audio.addEventListener(
        "loadedmetadata",
        () => {
          if (token !== this.loadToken) return;
          this.seekTo(entry);
          this.play();
        },
        { once: true },
      );
      return;
    }
    this.setState("error");
    // A network error (the server restarting, Wi-Fi dropping): try again.
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.recover(), 2000);
  }

  /** After an error or a reconnect: reload the current entry if the audio failed. */
  recover() {
    clearTimeout(this.retryTimer);
    if (!this.wantPlay || !this.timeline) return;
    // A live show's relay asks again by itself.
    if (isLive(entryAt(this.timeline, this.clock.now()))) return;
    if (this.state === "error" || this.audio.error) {
      const entry = entryAt(this.timeline, this.clock.now());
      this.entry = null;
      if (entry) {
        this.entry = entry;
        this.load(entry);
      } else {
        this.reconcile();
      }
    }
  }

  play() {
    const attempt = this.audio.play();
    if (!attempt) return;
    attempt
      .then(() => {
        if (this.wantPlay) this.setState("playing");
      })
      .catch((error) => {
        if (error && error.name === "NotAllowedError") {
          this.setState("blocked");
        } else if (error && error.name === "AbortError") {
          // A newer load replaced this one.
        } else if (this.wantPlay) {
          this.setState("error");
        }
      });
  }

  seekTo(entry) {
    const kind = this.audio.paused ? "start" : "seek";
    const target = Math.max(0, this.expectedSeconds(entry) + this.leads[kind]);
    this.pendingLead = { kind, settleAt: null };
    this.lastSeekAt = performance.now();
    this.audio.playbackRate = 1;
    try {
      this.audio.currentTime = target;
    } catch {
      // Not seekable yet; the next tick tries again.
    }
  }

  markSettling() {
    if (this.pendingLead) this.pendingLead.settleAt = performance.now() + SETTLE_MS;
  }

  /** Once playback has settled after a seek or start, learn its lag. */
  learnLead() {
    const pending = this.pendingLead;
    if (!pending || pending.settleAt === null || performance.now() < pending.settleAt) return false;
    const drift = this.drift();
    this.pendingLead = null;
    if (drift === null) return true;
    const lead = this.leads[pending.kind] - drift;
    this.leads[pending.kind] = Math.min(0.6, Math.max(0, lead));
    saveLeads(this.leads);
    return true;
  }

  /** How far the audio is from where the station is, in seconds (+ = ahead). */
  drift() {
    if (!this.entry || this.audio.readyState < 2) return null;
    return this.audio.currentTime - this.expectedSeconds(this.entry);
  }

  tick() {
    if (!this.timeline) return;
    const now = this.clock.now();
    if (this.entry && now >= this.entry.expiration) {
      this.reconcile();
      return;
    }
    if (!this.wantPlay || !this.entry) return;
    if (isLive(this.entry)) {
      if (this.live) this.live.check();
      return;
    }
    if (this.audio.paused || this.audio.seeking || this.audio.readyState < 3) return;
    const drift = this.drift();
    if (drift === null) return;
    const fileEnd = Number.isFinite(this.audio.duration) ? this.audio.duration : Infinity;
    if (this.expectedSeconds(this.entry) >= fileEnd - 0.05) return;
    if (this.pendingLead) {
      // Wait until the audio has settled after the last seek or start.
      if (!this.learnLead()) return;
    }
    if (!this.locked) {
      if (Math.abs(drift) <= LOCK_THRESHOLD_S || this.lockSeeks >= LOCK_SEEKS) {
        this.locked = true;
      } else {
        this.lockSeeks += 1;
        this.seekTo(this.entry);
        return;
      }
    }
    if (Math.abs(drift) > SEEK_THRESHOLD_S) {
      if (performance.now() - this.lastSeekAt > SEEK_COOLDOWN_MS) this.seekTo(this.entry);
    } else if (Math.abs(drift) > RATE_THRESHOLD_S) {
      const delta = Math.max(-MAX_RATE_DELTA, Math.min(MAX_RATE_DELTA, drift / 2));
      this.audio.playbackRate = 1 - delta;
    } else if (this.audio.playbackRate !== 1) {
      this.audio.playbackRate = 1;
    }
  }

  /** What tests and the measurement hook read. */
  status() {
    if (this.wantPlay && isLive(this.entry) && this.live) return this.liveStatus();
    const a = this.audio;
    return {
      mode: this.mode,
      paused: a.paused,
      currentTime: a.currentTime,
      readyState: a.readyState,
      entryId: a.dataset.entryId || null,
      state: this.state,
      src: a.getAttribute("src") || "",
    };
  }

  /** The file position heard at `perf` (ms), with the entry it belongs to. */
  positionAt(perf) {
    const a = this.audio;
    if (!this.entry || a.paused || a.readyState < 2 || a.dataset.entryId !== this.entry.id) return null;
    // A media element gives no output timestamp: its currentTime, as is.
    return { entry: this.entry, positionMs: a.currentTime * 1000 + (perf - performance.now()) * a.playbackRate };
  }
}
