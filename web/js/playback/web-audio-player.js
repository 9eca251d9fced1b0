// Plays a station's timeline with the Web Audio API ("Sync: Web Audio"),
// scheduled against the synced server clock:
//
// - Each entry's file is fetched whole and decoded (decodeAudioData); the
//   entry then plays from an AudioBufferSourceNode started at the context
//   time that corresponds to its server start, or, when tuning in mid-song,
//   a few milliseconds from now at the offset the clock says.
// - Tuning in, the entry playing starts from a piece: only the seconds
//   around the play position, fetched with an HTTP Range request and
//   decoded on their own (range-start.js); the whole file is fetched and
//   decoded behind it and playback moves over to it sample-exactly (swap).
//   A station link's piece is decoded before the app has loaded, on the
//   context made then (early-audio.js): the player takes both, and its
//   first reconcile can schedule the first sound.
// - Server time ↔ performance time comes from the ServerClock; performance
//   time ↔ the context time being *heard* from getOutputTimestamp() (see
//   audio-clock.js), so output latency is part of the schedule.
// - Prepare: the next entry is fetched and decoded ahead (always the first
//   upcoming one, so a skip finds it ready, and anything due within 10 s),
//   and scheduled to start exactly when the current one expires: gapless,
//   and every device changes at the same server instant. Timeline updates
//   (a skip, a reorder) re-time or replace the scheduled sources.
// - Drift correction: the position heard is compared with where the clock
//   says the entry is. Small errors are pulled in with tiny playbackRate
//   steps (at most 0.2 %, about 3.5 cents: inaudible), with a short
//   cooldown between steps; past 20 ms the source is replaced at the right
//   offset (a hard resync with 5 ms fades), then 2 s of cooldown.
// - A track this browser can't decode is asked for again as MP3, and if
//   that fails too, plays through the <audio> element (basic mode) while it
//   lasts.
// - A live entry (a source took the timeline over) is never fetched: its
//   relay plays through the live <audio> element (player-base.js,
//   live-relay.js), while the songs around it are scheduled as ever, so the
//   one after it starts on its start.

import { AudioClock } from "./audio-clock.js";
import { BasicPlayer } from "./basic-player.js";
import { mp3URL, PlayerBase } from "./player-base.js";
import { PIECE_FORMATS, pieceLag, quickPiece } from "./quick-decode.js";
import { rangeFormat, rangePiece } from "./range-start.js";
import { takeContext, takePiece, takeWhole, waitPiece } from "./early-audio.js";
import { entryAt, isHeld, isLive, playOrder, timelineNow } from "./timeline.js";
import { levelDb } from "./level.js";

// The gain sum lives in level.js (the live relay uses it too); still exported here.
export { levelDb };

const finite = (x) => typeof x === "number" && Number.isFinite(x);

const PREPARE_AHEAD_MS = 10_000;
// How far beyond the render clock a start is placed (main-thread slack).
const START_MARGIN_S = 0.012;
const FADE_S = 0.005;
// A level change ramps over this long, so it never clicks.
const LEVEL_RAMP_S = 0.2;
// Beyond this the source is re-sought rather than pulled in by the rate:
// at 0.2 % a 20 ms error would take 10 s, and two devices 20 ms apart in
// one room already sound like an echo.
const HARD_RESYNC_MS = 20;
const RATE_START_MS = 0.5;
const RATE_STOP_MS = 0.15;
// The rate correction removes an error with this time constant.
const RATE_TIME_CONSTANT_MS = 1500;
const MAX_RATE_DELTA = 0.002;
const RATE_STEP = 0.0001;
const RATE_COOLDOWN_MS = 400;
const RESYNC_COOLDOWN_MS = 2000;
// Lock-in: for the first seconds after tune-in, while the first probes
// (often slowed down by the page loading) are replaced by better ones, the
// clock steps to each new estimate and errors past 4 ms are re-sought at
// once: a listener who just tuned in doesn't hear a seek of a few ms. After
// that, corrections slew as in the SDK.
const LOCK_MS = 5000;
// …and at least this long after the first probe (4 probes a second then).
const LOCK_SYNC_MS = 10_000;
// A tenth of the round trip, within 4–15 ms: on a slow, jittery link the
// early estimates wander by a few ms, and chasing each would mean a seek
// every half second.
const LOCK_RESYNC_MIN_MS = 4;
const LOCK_RESYNC_MAX_MS = 15;
const LOCK_COOLDOWN_MS = 500;
// An unstarted source whose start moved by more than this is replaced.
const RETIME_S = 0.0003;
const KEEP_BUFFERS = 3;
// Start playing once a probe this good came back, or after half the burst
// (the lock-in below absorbs what later probes correct), or (a server that
// answers no probes) after this long on the hint.
const GOOD_RTT_MS = 2;
const BURST_SAMPLES = 4;
// …or two probes, one of them this good (the estimate is then within half
// of it, and the lock-in below seeks once if a later probe moves it more).
const FAIR_RTT_MS = 6;
const FAIR_SAMPLES = 2;
const SYNC_WAIT_MS = 1500;
const BLOCKED_AFTER_MS = 400;
const IDLE_SUSPEND_MS = 60_000;
const RETRY_MS = 2000;
const HISTORY = 50;
// Formats a browser decodes from the start of a file alone. An MP4 does
// only when its index comes first ("faststart"); one with its index at the
// end fails at once and simply waits for the whole file.
const QUICK_FORMATS = new Set(["mp3", "flac", "ogg", "opus", "wav", "m4a"]);
// A quick start decodes up to this far past the tune-in position…
const QUICK_EXTRA_S = 6;
// …is used only if it reaches at least this far past it…
const QUICK_MIN_AHEAD_S = 2;
// …and isn't tried when it would be most of the file anyway.
const QUICK_MAX_SHARE = 0.7;
// Where the position will be once a quick start is ready to play (s ahead).
const QUICK_LEAD_S = 0.3;

export function webAudioSupported() {
  return typeof window !== "undefined" && Boolean(window.AudioContext || window.webkitAudioContext);
}

function timingKey(entry) {
  return `${entry.track.id}|${entry.start}|${entry.offsetMs || 0}`;
}

class Voice {
  constructor(player, entry, item, startCtx, fileOffset, fadeIn, rate = 1) {
    const ctx = player.ctx;
    this.ctx = ctx;
    this.entry = entry;
    this.key = timingKey(entry);
    this.buffer = item.buffer;
    // The file position (s) of the buffer's first sample: 0 for a whole
    // file, more for a quick-start piece from the middle of one.
    this.base = item.base || 0;
    this.url = item.url;
    this.startCtx = startCtx;
    this.fileOffset = fileOffset;
    this.segments = [{ ctx: startCtx, pos: fileOffset, rate }];
    this.rate = rate;
    this.stopCtx = Infinity;
    this.fadeOut = false;
    this.source = ctx.createBufferSource();
    this.source.buffer = this.buffer;
    if (rate !== 1) this.source.playbackRate.value = rate;
    // Every track at one loudness: the server's measured gain (dB) for it,
    // on a node of its own so fades never touch it.
    this.levelDb = levelDb(entry, player.sound);
    this.level = ctx.createGain();
    this.level.gain.value = 10 ** (this.levelDb / 20);
    this.gain = ctx.createGain();
    this.source.connect(this.level);
    this.level.connect(this.gain);
    this.gain.connect(player.master);
    if (fadeIn) {
      this.gain.gain.setValueAtTime(0, startCtx);
      this.gain.gain.linearRampToValueAtTime(1, startCtx + FADE_S);
    }
    this.source.onended = () => this.dispose();
    this.source.start(startCtx, Math.max(0, fileOffset - this.base));
  }

  started(ctxTime) {
    return ctxTime >= this.startCtx;
  }

  /** The file position (s) at context time `c`, or null when silent. */
  positionAt(c) {
    if (c < this.startCtx || c >= this.stopCtx) return null;
    let seg = this.segments[0];
    for (const s of this.segments) if (s.ctx <= c) seg = s;
    const pos = seg.pos + (c - seg.ctx) * seg.rate;
    return pos < this.base + this.buffer.duration ? pos : null;
  }

  /** Like positionAt, but before this source starts, the one it replaced. */
  heardAt(c) {
    if (c < this.startCtx && this.before) return this.before.positionAt(c);
    return this.positionAt(c);
  }

  /** Changes the rate at context time `at` (a render-quantum boundary). */
  setRate(rate, at) {
    const pos = this.positionAt(at);
    if (pos === null) return;
    this.segments = this.segments.filter((s) => s.ctx < at);
    this.segments.push({ ctx: at, pos, rate });
    if (this.segments.length > 64) this.segments.splice(0, this.segments.length - 64);
    this.rate = rate;
    this.source.playbackRate.setValueAtTime(rate, at);
  }

  /** Stops at context time `c`; a cut mid-sound fades out just before. */
  stopAt(c, fade) {
    this.stopCtx = c;
    const g = this.gain.gain;
    const now = this.ctx.currentTime;
    if (fade) {
      const from = Math.max(now, c - FADE_S);
      g.cancelScheduledValues(from);
      g.setValueAtTime(1, from);
      g.linearRampToValueAtTime(0, Math.max(from + 0.001, c));
      this.fadeOut = true;
    } else if (this.fadeOut) {
      g.cancelScheduledValues(now);
      g.setValueAtTime(1, now);
      this.fadeOut = false;
    }
    try {
      this.source.stop(Math.max(c, now));
    } catch {
      // Already stopped.
    }
  }

  /** Moves the loudness gain to `db` from context time `at`, with a short ramp. */
  setLevel(db, at) {
    if (db === this.levelDb) return;
    const g = this.level.gain;
    const from = Math.max(this.ctx.currentTime, at);
    g.cancelScheduledValues(from);
    g.setValueAtTime(10 ** (this.levelDb / 20), from);
    g.linearRampToValueAtTime(10 ** (db / 20), from + LEVEL_RAMP_S);
    this.levelDb = db;
  }

  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    try {
      this.source.onended = null;
      this.source.stop();
    } catch {}
    try {
      this.source.disconnect();
      this.level.disconnect();
      this.gain.disconnect();
    } catch {}
  }
}

export class WebAudioPlayer extends PlayerBase {
  constructor(clock) {
    super(clock, "webaudio");
    this.ctx = null;
    this.master = null;
    this.audioClock = null;
    this.voices = new Map(); // entry id → Voice
    this.buffers = new Map(); // track id → {track, url, status, buffer, promise, usedAt, retryAt}
    this.fallback = null;
    this.fallbackEntryID = null;
    this.wantSince = 0;
    this.lastResyncAt = -Infinity;
    this.lastRateAt = -Infinity;
    this.lockUntil = -Infinity;
    this.resyncs = 0;
    this.errors = []; // recent {at, errorMs}
    this.wakeTimer = null;
    this.idleTimer = null;
    this.sound = null; // the station's {targetLufs, levelDb, since}
    this.outputDelayMs = 0; // this route's measured extra delay (room/route-delays.js)
    clock.addEventListener("sync", () => {
      if (this.wantPlay && !this.currentVoice()) this.reconcile();
    });
  }

  // --- The AudioContext ---------------------------------------------------

  ensureContext() {
    if (!this.ctx) {
      const Ctor = window.AudioContext || window.webkitAudioContext;
      // The context a station link made as the page opened, if there is one.
      this.ctx = takeContext() || new Ctor({ latencyHint: "interactive" });
      this.master = this.ctx.createGain();
      this.master.connect(this.ctx.destination);
      this.audioClock = new AudioClock(this.ctx);
      this.audioClock.extra = this.outputDelayMs / 1000;
      this.ctx.onstatechange = () => {
        this.audioClock.readings = [];
        this.audioClock.source = "none";
        this.runningSince = this.ctx.state === "running" ? performance.now() : 0;
        if (this.wantPlay) this.reconcile();
      };
    }
    if (this.ctx.state === "suspended" && this.wantPlay) this.ctx.resume().catch(() => {});
    return this.ctx;
  }

  /**
   * The output route's measured delay (ms): every start moves that much
   * earlier, so the sound is heard on time. What plays now is started again
   * at the corrected place; a delay longer than the lead time starts the
   * song that much further in.
   */
  setOutputDelay(ms) {
    if (!Number.isFinite(ms) || ms === this.outputDelayMs) return;
    this.outputDelayMs = ms;
    if (!this.audioClock) return;
    this.audioClock.extra = ms / 1000;
    this.audioClock.cached = null;
    const voice = this.currentVoice();
    const item = voice && this.buffers.get(voice.entry.track.id);
    if (item && item.buffer === voice.buffer) this.replace(voice, voice.entry, item);
  }

  /**
   * Plays `samples` (at the context's rate) so that each copy is *heard*
   * at one of `serverTimes` (ms), through the same output and correction
   * as the music, which is silenced from now until `quietUntil` so the
   * chirps are all the meter hears of this device. → how many were too
   * late to schedule.
   */
  playChirps(samples, serverTimes, quietUntil) {
    const ctx = this.ensureContext();
    const buffer = ctx.createBuffer(1, samples.length, ctx.sampleRate);
    buffer.copyToChannel(samples, 0);
    let late = 0;
    for (const at of serverTimes) {
      const when = this.ctxAtServer(at);
      if (!(when > ctx.currentTime + 0.01)) {
        late += 1;
        continue;
      }
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(ctx.destination);
      source.start(when);
    }
    const now = ctx.currentTime;
    this.master.gain.cancelScheduledValues(now);
    this.master.gain.setTargetAtTime(0, now, 0.03);
    this.master.gain.setTargetAtTime(1, Math.max(now, this.ctxAtServer(quietUntil)), 0.1);
    return late;
  }

  /** The music back at once (a calibration that stopped). */
  unduck() {
    if (!this.ctx) return;
    this.master.gain.cancelScheduledValues(this.ctx.currentTime);
    this.master.gain.setTargetAtTime(1, this.ctx.currentTime, 0.05);
  }

  /** From a user gesture (the tune-in click): lets the context run. */
  unlock() {
    this.ensureContext();
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    if (!this.wantPlay) this.suspendWhenIdle();
  }

  /** A context with nothing to play still keeps the audio device busy. */
  suspendWhenIdle() {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (!this.wantPlay && this.ctx && this.ctx.state === "running") this.ctx.suspend().catch(() => {});
    }, IDLE_SUSPEND_MS);
  }

  setMode(mode) {
    if (this.mode === mode) return;
    this.mode = mode;
    this.dispatchEvent(new CustomEvent("mode", { detail: { mode } }));
  }

  // --- The player interface (the rest is in PlayerBase) -------------------

  start({ tunedAt = performance.now() } = {}) {
    this.wantSound(tunedAt);
    this.wantSince = performance.now();
    clearTimeout(this.idleTimer);
    this.ensureContext();
    this.startTicking();
    this.reconcile();
  }

  pause() {
    this.wantPlay = false;
    this.stopVoices(true);
    this.stopFallback();
    this.stopLive();
    this.clock.setPlaying(false);
    this.setState("paused");
  }

  resume() {
    this.wantSound(performance.now());
    this.wantSince = performance.now();
    clearTimeout(this.idleTimer);
    this.unlock();
    this.startTicking();
    // A live show: ask the relay afresh, from this gesture.
    this.stopLive();
    this.reconcile();
  }

  stop() {
    this.wantPlay = false;
    this.timeline = null;
    this.entry = null;
    clearTimeout(this.wakeTimer);
    this.stopTicking();
    this.stopVoices(true);
    this.stopFallback();
    this.stopLive();
    this.buffers.clear();
    this.errors = [];
    this.clock.setPlaying(false);
    this.setState("idle");
    this.setMode("webaudio");
    this.announceEntry(null);
    this.suspendWhenIdle();
  }

  /** After a reconnect or an error: retry tracks that failed to load. */
  recover() {
    for (const [id, item] of this.buffers) {
      if (item.status === "failed") this.buffers.delete(id);
    }
    if (this.fallback) this.fallback.recover();
    this.reconcile();
  }

  tick() {
    if (this.audioClock) {
      this.audioClock.sample();
      const heard = this.audioClock.ctxAt(performance.now());
      for (const voice of this.voices.values()) if (voice.before && heard >= voice.startCtx) voice.before = null;
    }
    this.clock.advance();
    this.reconcile();
    this.correct();
    if (this.wantPlay && this.live && isLive(this.entry)) this.live.check();
  }

  // --- Buffers: fetch and decode ------------------------------------------

  urlFor(track, mp3) {
    return mp3 ? mp3URL(track) : track.audioURL;
  }

  /**
   * The track's buffer, loading it if needed. `quickAt` (file position, s)
   * asks for a quick start too: the first part of the file, up to a little
   * past that position, is decoded on its own as soon as it has arrived, so
   * a mid-song tune-in doesn't wait for the whole file to decode. The whole
   * file follows, and playback moves over to it sample-exactly.
   */
  load(track, quickAt = null) {
    let item = this.buffers.get(track.id);
    if (item && item.status === "failed" && performance.now() >= item.retryAt) {
      this.buffers.delete(track.id);
      item = null;
    }
    if (item) {
      item.usedAt = performance.now();
      return item;
    }
    item = {
      track,
      url: this.urlFor(track, false),
      status: "loading",
      buffer: null,
      base: 0,
      complete: false,
      duration: track.durationMs / 1000,
      usedAt: performance.now(),
      retryAt: 0,
      // The tune-in this item is the first sound of (its stages), if any.
      stages: quickAt !== null ? this.stages : null,
    };
    this.buffers.set(track.id, item);
    // A station link's piece, decoded as the page opened: ready now, and the
    // whole file is fetched behind it.
    const early = quickAt !== null && this.ctx ? takePiece(item.url, this.ctx, quickAt - QUICK_LEAD_S, QUICK_MIN_AHEAD_S + QUICK_LEAD_S) : null;
    if (early) {
      this.stage("audioAsked", performance.now(), item.stages);
      this.useEarly(item, early);
      quickAt = null;
    }
    item.promise = item.complete ? Promise.resolve() : this.fetchDecode(item, quickAt);
    this.evict();
    return item;
  }

  /** Item `item` plays from the piece decoded as the page opened (early-audio.js). */
  useEarly(item, early) {
    item.buffer = early.buffer;
    item.base = early.start;
    item.status = "ready";
    if (early.complete) {
      // The whole file (a format not cut into ranges).
      item.complete = true;
      item.duration = early.buffer.duration;
    }
    item.timing = {
      first: early.complete ? "early whole" : "early",
      headMs: early.timing ? early.timing.headMs : null,
      rangeMs: early.timing ? early.timing.rangeMs : null,
      partialFrom: early.start,
      partialSeconds: early.buffer.duration,
    };
    this.stage("partialDecoded", early.decodedAt, item.stages);
  }

  loaded(item) {
    if (this.buffers.get(item.track.id) === item) this.reconcile();
  }

  async fetchBytes(url, onProgress) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const total = Number(response.headers.get("Content-Length")) || 0;
    if (!onProgress || !response.body || !total) return new Uint8Array(await response.arrayBuffer());
    let bytes = new Uint8Array(total);
    let received = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (received + value.length > bytes.length) {
        const bigger = new Uint8Array(Math.max(bytes.length * 2, received + value.length));
        bigger.set(bytes.subarray(0, received));
        bytes = bigger;
      }
      bytes.set(value, received);
      received += value.length;
      onProgress(bytes, received, total);
    }
    return bytes.subarray(0, received);
  }

  async fetchDecode(item, quickAt) {
    const ctx = this.ensureContext();
    const started = performance.now();
    this.stage("audioAsked", started, item.stages);
    if (quickAt !== null) {
      // Still being decoded ahead, as the page opened: that is nearer.
      const early = await waitPiece(item.url, ctx, quickAt - QUICK_LEAD_S, QUICK_MIN_AHEAD_S + QUICK_LEAD_S);
      if (early && !item.complete) {
        this.useEarly(item, early);
        this.loaded(item);
        if (item.complete) return;
        quickAt = null;
      }
    }
    let whole = null;
    if (quickAt !== null && rangeFormat(item.track.format)) {
      // The seconds around the position first, from a byte range.
      whole = await this.decodeRange(item, quickAt, started);
      if (item.status === "ready") quickAt = null; // the piece plays: no quick start from the whole file
    }
    for (const mp3 of [false, true]) {
      const url = this.urlFor(item.track, mp3);
      let quick = null;
      let onProgress = null;
      const format = mp3 ? "mp3" : item.track.format;
      if (quickAt !== null && item.duration > 0 && (QUICK_FORMATS.has(format) || PIECE_FORMATS.has(format))) {
        const share = (quickAt + QUICK_EXTRA_S) / item.duration;
        const piece = PIECE_FORMATS.has(format) && quickAt > 1.5;
        onProgress = (bytes, received, total) => {
          if (quick) return;
          const enough = Math.ceil(Math.min(total, total * share * 1.1 + 32768));
          if (received < enough) return;
          if (piece) {
            // A piece from the middle of the file, as soon as it's here.
            const found = quickPiece(format, bytes, received, quickAt, QUICK_EXTRA_S);
            if (found) {
              quick = this.decodeQuick(item, found.bytes, found.start, quickAt, started, "piece");
              return;
            }
            if (received < total) return;
          }
          if (share <= QUICK_MAX_SHARE && QUICK_FORMATS.has(format)) {
            // The start of the file, up to a little past the position.
            quick = this.decodeQuick(item, bytes.slice(0, enough), 0, quickAt, started, "prefix");
          }
        };
      }
      let bytes;
      const fetchFrom = performance.now();
      // The whole file a link fetched as the page opened, behind its piece.
      const ahead = mp3 || whole ? null : takeWhole(url);
      try {
        bytes = !mp3 && whole ? whole : ahead ? await ahead : await this.fetchBytes(url, onProgress);
      } catch (error) {
        // The network or the server: try again later, same format.
        if (quick) await quick;
        if (item.status === "ready" && item.buffer) {
          // The piece plays; the whole file is asked for again later.
          item.wholeFailedAt = performance.now();
          setTimeout(() => this.refetchWhole(item), RETRY_MS);
          return;
        }
        item.status = "failed";
        item.retryAt = performance.now() + RETRY_MS;
        item.error = String(error);
        // Come back when the retry is due: nothing else may wake the player
        // before the next track boundary (a busy server answers 429, a
        // loaded one can time out), and the station would stay silent.
        setTimeout(() => this.loaded(item), RETRY_MS + 10);
        return;
      }
      const fetched = performance.now();
      this.stage("fullFetched", fetched, item.stages);
      if (quick) await quick;
      const decodeFrom = performance.now();
      try {
        const buffer = await ctx.decodeAudioData(bytes.buffer.byteLength === bytes.length ? bytes.buffer : bytes.slice().buffer);
        item.buffer = buffer;
        item.base = 0;
        item.duration = buffer.duration;
        item.complete = true;
        item.url = url;
        item.status = "ready";
        item.timing = {
          ...(item.timing || {}),
          requestedAt: started,
          fetchMs: fetched - fetchFrom,
          decodeMs: performance.now() - decodeFrom,
          bytes: bytes.length,
        };
        this.stage("fullDecoded", performance.now(), item.stages);
        this.loaded(item);
        return;
      } catch (error) {
        item.error = String(error);
        whole = null;
        // This browser can't decode the format: ask for an MP3 once.
      }
    }
    if (!item.buffer) item.status = "undecodable";
    this.loaded(item);
  }

  /**
   * Tuning in mid-song: fetches only the seconds around file second `at`
   * (a Range request) and decodes them; the item is then ready with that
   * piece (not complete). Returns the whole file's bytes when the server
   * sent them anyway (a short file, or a range it ignored), else null.
   */
  async decodeRange(item, at, started) {
    let got;
    try {
      got = await rangePiece(item.url, item.track.format, item.duration, at, QUICK_EXTRA_S);
    } catch {
      return null; // the whole file is asked for next, as before
    }
    if (!got) return null;
    if (got.whole) return got.whole;
    const fetched = performance.now();
    this.stage("rangeFetched", fetched, item.stages);
    try {
      const buffer = await this.ctx.decodeAudioData(got.bytes.buffer);
      if (item.complete || got.start > at || got.start + buffer.duration < at + QUICK_MIN_AHEAD_S) return null;
      item.buffer = buffer;
      item.base = got.start;
      item.status = "ready";
      item.timing = {
        first: "range",
        requestedAt: started,
        headMs: got.timing.headMs,
        rangeMs: got.timing.rangeMs,
        rangeBytes: got.timing.rangeBytes,
        rangeTries: got.timing.tries,
        partialDecodeMs: performance.now() - fetched,
        partialFrom: got.start,
        partialSeconds: buffer.duration,
      };
      this.stage("partialDecoded", performance.now(), item.stages);
      this.loaded(item);
    } catch {
      // Not decodable in part: the whole file follows.
    }
    return null;
  }

  /** The piece plays but the whole file didn't come: ask again (no quick start). */
  refetchWhole(item) {
    if (this.buffers.get(item.track.id) !== item || item.complete) return;
    this.fetchDecode(item, null);
  }

  /** Decodes a quick-start piece; usable if it reaches well past `at`. */
  async decodeQuick(item, bytes, base, at, started, kind) {
    const from = performance.now();
    const size = bytes.length;
    try {
      const buffer = await this.ctx.decodeAudioData(bytes.buffer);
      if (item.complete || base > at || base + buffer.duration < at + QUICK_MIN_AHEAD_S) return;
      item.buffer = buffer;
      item.base = base;
      item.status = "ready";
      item.timing = {
        quick: kind,
        quickAt: from - started,
        quickDecodeMs: performance.now() - from,
        quickBytes: size,
        quickFrom: base,
        quickSeconds: buffer.duration,
      };
      this.loaded(item);
    } catch {
      // Not decodable in part (e.g. an MP4 with its index at the end).
    }
  }

  evict() {
    if (this.buffers.size <= KEEP_BUFFERS) return;
    const inUse = new Set([...this.voices.values()].map((v) => v.entry.track.id));
    if (this.entry) inUse.add(this.entry.track.id);
    const candidates = [...this.buffers.entries()].filter(([id]) => !inUse.has(id)).sort((a, b) => a[1].usedAt - b[1].usedAt);
    while (this.buffers.size > KEEP_BUFFERS && candidates.length) this.buffers.delete(candidates.shift()[0]);
  }

  // --- Scheduling ----------------------------------------------------------

  currentVoice() {
    return this.entry ? this.voices.get(this.entry.id) || null : null;
  }

  clockReady() {
    const clock = this.clock;
    if (clock.synced && (clock.rtt <= GOOD_RTT_MS || clock.sampleCount >= BURST_SAMPLES)) return true;
    if (clock.synced && clock.sampleCount >= FAIR_SAMPLES && clock.rtt <= FAIR_RTT_MS) return true;
    return performance.now() - this.wantSince > SYNC_WAIT_MS;
  }

  /** Output timestamps flowing (or not coming: then the latency figures). */
  audioReady() {
    this.audioClock.sample();
    if (this.audioClock.source === "output-timestamp") return true;
    if (!this.runningSince) this.runningSince = performance.now();
    return performance.now() - this.runningSince > 300;
  }

  /**
   * The station's loudness target or level changed: every voice moves to
   * it at the server instant `sound.since`, so the room hears it together.
   */
  setSound(sound) {
    if (!sound) return;
    this.sound = sound;
    this.liveLevel();
    if (!this.ctx || !this.audioClock) return;
    const at = finite(sound.since) ? this.ctxAtServer(sound.since) : this.ctx.currentTime;
    for (const voice of this.voices.values()) voice.setLevel(levelDb(voice.entry, sound), at);
  }

  /** The context time at which server time `server` is heard. */
  ctxAtServer(server) {
    return this.audioClock.ctxAt(this.clock.perfAtServer(server));
  }

  reconcile() {
    if (!this.timeline) return;
    const perf = performance.now();
    const realNow = this.clock.serverAt(perf);
    const held = isHeld(this.timeline, realNow);
    const now = timelineNow(this.timeline, realNow);
    const entry = entryAt(this.timeline, now);
    const previous = this.entry;
    const changed = (entry ? `${entry.id}:${entry.track.id}` : null) !== (previous ? `${previous.id}:${previous.track.id}` : null);
    this.entry = entry;
    if (changed) this.announceEntry(entry, previous);
    this.wakeAtNextBoundary(now);
    if (!this.wantPlay) return;

    const ctx = this.ensureContext();
    if (this.timeline.pausedAt != null) {
      // The DJ paused the station: everyone falls silent at that instant
      // (or at once, if it's past) and waits for the timeline to resume.
      const at = ctx.currentTime + this.margin();
      const stop = this.audioClock ? Math.max(at, this.ctxAtServer(this.timeline.pausedAt)) : at;
      for (const voice of this.voices.values()) {
        if (voice.stopCtx > stop) voice.stopAt(stop, voice.started(stop));
      }
      if (held) {
        this.voices.clear();
        this.stopFallback();
        this.stopLive();
        this.clock.setPlaying(false);
        this.setState("held");
        return;
      }
    }
    // A live entry has no file: its relay plays (below), never fetched.
    const order = playOrder(this.timeline).filter((e) => e.expiration > now && !isLive(e));
    const upcoming = order.filter((e) => e.start > now);
    const wanted = order.filter((e) => e.start <= now + PREPARE_AHEAD_MS);
    if (upcoming[0] && !wanted.includes(upcoming[0])) wanted.push(upcoming[0]);

    // Fetch and decode: the current entry first, then the rest one by one.
    const items = new Map();
    let busy = false;
    for (const e of wanted) {
      const have = this.buffers.get(e.track.id);
      if (have && have.status !== "failed") {
        have.usedAt = perf;
        items.set(e.id, have);
        if (!have.complete) busy = true;
        continue;
      }
      if (busy && e !== entry) continue;
      // Tuning in (mid-song or not): a quick start near where it will be.
      const quickAt = e === entry ? Math.max(0, (now - e.start + (e.offsetMs || 0)) / 1000) + QUICK_LEAD_S : null;
      const item = this.load(e.track, quickAt);
      items.set(e.id, item);
      if (!item.complete) busy = true;
    }

    // Sources whose entries aren't wanted any more: ended, removed, moved
    // beyond the prepare window, or cut away. Not started yet: dropped;
    // sounding: faded out now.
    const wantedIDs = new Set(wanted.map((e) => e.id));
    const running = ctx.state === "running";
    const soon = ctx.currentTime + this.margin();
    for (const [id, voice] of this.voices) {
      if (wantedIDs.has(id)) continue;
      this.voices.delete(id);
      if (!running || voice.stopCtx <= ctx.currentTime || !voice.started(soon)) voice.dispose();
      else if (voice.stopCtx > soon) voice.stopAt(soon, true);
    }

    // The undecodable current entry plays through the <audio> element.
    const item = entry ? items.get(entry.id) : null;
    if (entry && item && item.status === "undecodable") this.useFallback(entry);
    else this.stopFallback();

    if (entry) this.stage("timeline", perf);
    const clockReady = this.clockReady();
    if (clockReady) this.stage("clockReady", perf);
    const audioReady = running && this.audioReady();
    if (audioReady) this.stage("audioReady", perf);
    if (running && clockReady && audioReady) {
      this.audioClock.sample();
      for (const e of wanted) {
        const it = items.get(e.id);
        if (it && it.status === "ready" && (it.complete || e === entry)) this.schedule(e, it);
      }
    }
    if (isLive(entry)) this.playLive(entry);
    else this.stopLive();
    this.updateState(entry, item, ctx);
  }

  /** Starts, re-times or keeps the source for entry `e`. */
  schedule(e, item) {
    const ctx = this.ctx;
    let voice = this.voices.get(e.id);
    const startCtx = this.ctxAtServer(e.start);
    const endCtx = this.ctxAtServer(e.expiration);
    const earliest = ctx.currentTime + this.margin();
    if (voice && voice.disposed) {
      this.voices.delete(e.id);
      voice = null;
    }
    if (voice) {
      if (voice.key === timingKey(e) && voice.buffer !== item.buffer && item.complete && voice.started(earliest)) {
        // The whole file is decoded: carry on from it, sample-exactly.
        this.swap(voice, e, item);
        return;
      }
      if (voice.key !== timingKey(e) || voice.buffer !== item.buffer) {
        // The entry moved (or its file changed) under a scheduled source.
        this.replace(voice, e, item);
        return;
      }
      if (!voice.started(ctx.currentTime + 0.05) && voice.fileOffset === (e.offsetMs || 0) / 1000 && Math.abs(startCtx - voice.startCtx) > RETIME_S) {
        // Not started yet and the clocks moved: start it at the new time.
        this.replace(voice, e, item);
        return;
      }
      const cut = (e.offsetMs + e.durationMs) / 1000 < item.duration - 0.005;
      if (endCtx <= earliest) {
        if (voice.stopCtx > earliest) voice.stopAt(earliest, true);
      } else if (Math.abs(endCtx - voice.stopCtx) > RETIME_S && voice.stopCtx > earliest) {
        voice.stopAt(endCtx, cut);
      }
      return;
    }
    if (endCtx <= earliest) return;
    voice = this.createVoice(e, item, startCtx, earliest);
    if (!voice) return;
    const cut = (e.offsetMs + e.durationMs) / 1000 < item.duration - 0.005;
    voice.stopAt(endCtx, cut);
  }

  /**
   * Moves a playing source over to the whole file's buffer, sample-exactly:
   * the new source starts on a render-quantum boundary at the position the
   * old one reaches there. The two decodes are compared around that point
   * first; if the piece turns out to sit elsewhere in the file than its
   * position said, the sound carries on unbroken and the position is
   * corrected instead (the drift correction then pulls it in).
   */
  swap(voice, e, item) {
    const ctx = this.ctx;
    const quantum = 128 / ctx.sampleRate;
    const at = Math.ceil((ctx.currentTime + this.margin()) / quantum) * quantum;
    let pos = voice.positionAt(at);
    this.voices.delete(e.id);
    if (pos === null) {
      voice.dispose();
      return;
    }
    const lag = pieceLag(voice.buffer, voice.base, item.buffer, pos);
    this.lastSwap = { base: voice.base, at: pos, lagSamples: lag };
    if (lag) pos += lag / ctx.sampleRate;
    const next = new Voice(this, e, item, at, pos, false, voice.rate);
    next.before = voice;
    voice.before = null;
    next.stopAt(voice.stopCtx, (e.offsetMs + e.durationMs) / 1000 < item.duration - 0.005);
    voice.stopAt(at, false);
    this.voices.set(e.id, next);
    this.swaps = (this.swaps || 0) + 1;
    this.stage("swapped", this.audioClock.perfAt(at), item.stages);
  }

  /** How far beyond the render clock a new start goes (s). */
  margin() {
    return Math.max(START_MARGIN_S, 1.5 * (this.ctx.baseLatency || 0));
  }

  /** A new source: at the entry's start, or now at the right offset. */
  createVoice(e, item, startCtx, earliest, margin = this.margin()) {
    const ctx = this.ctx;
    let at = startCtx;
    let offset = (e.offsetMs || 0) / 1000;
    let fadeIn = offset > 0;
    if (startCtx < earliest) {
      at = ctx.currentTime + margin;
      offset = (this.clock.serverAt(this.audioClock.perfAt(at)) - e.start + (e.offsetMs || 0)) / 1000;
      fadeIn = true;
    }
    const base = item.base || 0;
    if (offset < base || offset >= base + item.buffer.duration - (item.complete ? 0 : QUICK_MIN_AHEAD_S / 2)) return null;
    const voice = new Voice(this, e, item, at, offset, fadeIn);
    // A start placed behind the render clock would begin late with no
    // trace in the schedule: check, and place it further ahead if so.
    if (ctx.currentTime + 128 / ctx.sampleRate > at) {
      voice.dispose();
      if (margin > 0.2) return null;
      return this.createVoice(e, item, startCtx, ctx.currentTime + margin * 2, margin * 2);
    }
    this.voices.set(e.id, voice);
    if (this.firstSoundAt === null && this.tunedAt !== null && e.id === (this.entry && this.entry.id)) {
      this.firstSoundAt = this.audioClock.perfAt(at);
      this.firstSoundCtxAt = at;
      this.stage("firstSound", this.firstSoundAt);
      const probing = this.clock.firstProbeAt !== null ? this.clock.firstProbeAt + LOCK_SYNC_MS : 0;
      this.lockUntil = Math.max(this.firstSoundAt + LOCK_MS, probing);
    }
    return voice;
  }

  /** Replaces a source sample-exactly (or at the entry's start). */
  replace(voice, e, item) {
    const ctx = this.ctx;
    const earliest = ctx.currentTime + this.margin();
    this.voices.delete(e.id);
    const startCtx = this.ctxAtServer(e.start);
    const playing = voice.started(earliest);
    const next = this.createVoice(e, item, startCtx, earliest);
    if (next) {
      const cut = (e.offsetMs + e.durationMs) / 1000 < item.duration - 0.005;
      next.stopAt(this.ctxAtServer(e.expiration), cut);
    }
    if (playing) {
      voice.stopAt(next ? next.startCtx + FADE_S : earliest, true);
      if (next) next.before = voice;
      voice.before = null;
    } else {
      voice.dispose();
    }
  }

  // --- Drift correction ----------------------------------------------------

  /** How far the heard position is from the clock's (ms, + = ahead). */
  measure(perf = performance.now()) {
    const voice = this.currentVoice();
    if (!voice || !this.audioClock) return null;
    const c = this.audioClock.ctxAt(perf);
    // Right after a swap or resync the new source isn't heard yet: wait.
    if (c < voice.startCtx) return null;
    const pos = voice.positionAt(c);
    if (pos === null) return null;
    const e = voice.entry;
    const expected = this.clock.serverAt(perf) - e.start + (e.offsetMs || 0);
    return { voice, errorMs: pos * 1000 - expected };
  }

  correct() {
    if (!this.wantPlay || !this.ctx || this.ctx.state !== "running") return;
    const perf = performance.now();
    const m = this.measure(perf);
    if (!m) return;
    const { voice, errorMs } = m;
    this.errors.push({ at: perf, errorMs });
    if (this.errors.length > HISTORY) this.errors.shift();
    const ctx = this.ctx;
    if (voice.stopCtx - ctx.currentTime < 0.5) return;
    const locking = perf < this.lockUntil;
    const lockLimit = Math.min(LOCK_RESYNC_MAX_MS, Math.max(LOCK_RESYNC_MIN_MS, this.clock.rtt / 10));
    if (Math.abs(errorMs) > (locking ? lockLimit : HARD_RESYNC_MS)) {
      if (perf - this.lastResyncAt > (locking ? LOCK_COOLDOWN_MS : RESYNC_COOLDOWN_MS)) {
        this.lastResyncAt = perf;
        this.resyncs += 1;
        const item = this.buffers.get(voice.entry.track.id);
        if (item && item.buffer === voice.buffer) this.replace(voice, this.entry, item);
      }
      return;
    }
    if (perf - this.lastRateAt < RATE_COOLDOWN_MS || perf - this.lastResyncAt < 300) return;
    let rate = 1;
    if (Math.abs(errorMs) >= RATE_START_MS || (voice.rate !== 1 && Math.abs(errorMs) > RATE_STOP_MS)) {
      const delta = Math.max(-MAX_RATE_DELTA, Math.min(MAX_RATE_DELTA, errorMs / RATE_TIME_CONSTANT_MS));
      rate = 1 - Math.round(delta / RATE_STEP) * RATE_STEP;
    }
    if (rate !== voice.rate) {
      const quantum = 128 / ctx.sampleRate;
      const at = Math.ceil((ctx.currentTime + START_MARGIN_S) / quantum) * quantum;
      voice.setRate(rate, at);
      this.lastRateAt = perf;
    }
  }

  // --- State, fallback and housekeeping -----------------------------------

  updateState(entry, item, ctx) {
    const voice = this.currentVoice();
    this.clock.setPlaying(Boolean(voice) && performance.now() >= this.lockUntil);
    if (isLive(entry)) {
      // The relay's state (liveChanged), not the context's.
      this.liveChanged();
    } else if (!entry) {
      this.setState("waiting");
    } else if (this.fallbackEntryID === entry.id && this.fallback) {
      this.setState(this.fallback.state);
    } else if (ctx.state !== "running") {
      if (performance.now() - this.wantSince > BLOCKED_AFTER_MS) this.setState("blocked");
      else this.setState("loading");
    } else if (voice) {
      this.setState("playing");
    } else if (item && item.status === "failed") {
      this.setState("error");
    } else {
      this.setState("loading");
    }
  }

  useFallback(entry) {
    if (!this.fallback) {
      this.fallback = new BasicPlayer(this.clock);
      this.fallback.addEventListener("state", () => {
        if (this.fallbackEntryID) this.reconcile();
      });
    }
    const single = { ...this.timeline, current: entry, upNext: [], history: [] };
    if (this.fallbackEntryID !== entry.id) {
      this.fallbackEntryID = entry.id;
      this.fallback.setTimeline(single);
      this.fallback.start({ tunedAt: this.tunedAt ?? performance.now() });
    }
    this.setMode("basic");
  }

  stopFallback() {
    if (!this.fallbackEntryID) return;
    this.fallbackEntryID = null;
    this.fallback.stop();
    this.setMode("webaudio");
  }

  stopVoices(fade) {
    if (!this.ctx) return;
    const at = this.ctx.currentTime + START_MARGIN_S;
    for (const voice of this.voices.values()) {
      if (fade && voice.started(at) && voice.stopCtx > at) voice.stopAt(at, true);
      else voice.dispose();
    }
    this.voices.clear();
  }

  wakeAtNextBoundary(now) {
    clearTimeout(this.wakeTimer);
    let next = null;
    const held = this.timeline.pausedAt != null && now >= this.timeline.pausedAt;
    for (const e of held ? [] : playOrder(this.timeline)) {
      for (const t of [e.start, e.expiration]) if (t > now && (next === null || t < next)) next = t;
    }
    const pausedAt = this.timeline.pausedAt;
    if (pausedAt != null && pausedAt > now && (next === null || pausedAt < next)) next = pausedAt;
    if (next !== null) this.wakeTimer = setTimeout(() => this.reconcile(), Math.min(2 ** 31 - 1, next - now + 2));
  }

  // --- Measurement ---------------------------------------------------------

  /** The file position heard at performance time `perf`. */
  positionAt(perf) {
    if (this.fallbackEntryID && this.fallback) return this.fallback.positionAt(perf);
    const voice = this.currentVoice();
    if (!voice || !this.audioClock) return null;
    const pos = voice.heardAt(this.audioClock.ctxAt(perf));
    return pos === null ? null : { entry: voice.entry, positionMs: pos * 1000 };
  }

  get firstSoundMs() {
    if (this.fallbackEntryID && this.fallback && this.fallback.firstSoundMs !== null) return this.fallback.firstSoundMs;
    return super.firstSoundMs;
  }

  status() {
    if (this.wantPlay && isLive(this.entry) && this.live) return this.liveStatus();
    if (this.fallbackEntryID && this.fallback) return { ...this.fallback.status(), mode: "basic", state: this.state };
    const at = this.positionAt(performance.now());
    const voice = this.currentVoice();
    return {
      mode: this.mode,
      paused: at === null,
      currentTime: at ? at.positionMs / 1000 : 0,
      readyState: at ? 4 : 0,
      entryId: voice ? voice.entry.id : this.wantPlay && this.entry ? this.entry.id : null,
      state: this.state,
      src: voice ? voice.url : "",
    };
  }

  /** Internals for measurement: latencies, rate, corrections. */
  details() {
    const ctx = this.ctx;
    const voice = this.currentVoice();
    const item = this.entry ? this.buffers.get(this.entry.track.id) : null;
    return {
      contextState: ctx ? ctx.state : null,
      sampleRate: ctx ? ctx.sampleRate : null,
      baseLatencyMs: ctx && ctx.baseLatency !== undefined ? ctx.baseLatency * 1000 : null,
      outputLatencyMs: ctx && ctx.outputLatency !== undefined ? ctx.outputLatency * 1000 : null,
      renderLeadMs: this.audioClock ? this.audioClock.lead * 1000 : null,
      audioClockSource: this.audioClock ? this.audioClock.source : null,
      rate: voice ? voice.rate : null,
      resyncs: this.resyncs,
      locking: performance.now() < this.lockUntil,
      swaps: this.swaps || 0,
      lastSwap: this.lastSwap || null,
      voices: this.voices.size,
      load: item ? item.timing || null : null,
      // The current entry's audio: fetched and decoded yet, whole or a piece.
      buffer: item ? { status: item.status, complete: Boolean(item.complete), base: item.base || 0 } : null,
      recentErrorsMs: this.errors.slice(-10).map((e) => e.errorMs),
      // When (server time) and where (file s) the current source started.
      voice: voice
        ? {
            entryID: voice.entry.id,
            startServer: this.clock.serverAt(this.audioClock.perfAt(voice.startCtx)),
            fileOffset: voice.fileOffset,
            base: voice.base,
            levelDb: voice.levelDb,
            complete: voice.buffer === (item && item.complete ? item.buffer : null),
          }
        : null,
    };
  }
}
