// The broadcast's mixing desk, in Web Audio: the microphone and an optional
// music bed (a local file, looped) each through its own fader, the bed also
// through a talk-over gain that lowers it while the DJ speaks, into one mix
// that goes to a MediaStreamAudioDestinationNode (what MediaRecorder
// encodes) and to an AnalyserNode (the level meter).
//
//   mic ─▶ micFader ─┬──────────────────────▶ mix ─┬─▶ destination (stream)
//                    └─▶ voice analyser             └─▶ mix analyser (meter)
//   bed ─▶ bedFader ─▶ duck ─▶ mix
//                          └─▶ speakers, only when "hear the music here" is on
//
// One desk per time on the air: closing it stops the microphone's tracks,
// the bed and the AudioContext. The decisions (levels, ducking) are in
// broadcast-model.js.

import { DUCK, duckStep, duckTarget, faderGain, levelsOf, toDb } from "./broadcast-model.js";

/** How often the talk-over looks at the voice (ms): a timer, so it works while the page is hidden. */
const DUCK_EVERY_MS = 40;

/** Whether this browser can go live at all (microphone, Web Audio, MediaRecorder, WebSocket). */
export function canBroadcast() {
  return Boolean(
    typeof navigator !== "undefined" && navigator.mediaDevices && navigator.mediaDevices.getUserMedia &&
    (window.AudioContext || window.webkitAudioContext) && typeof MediaRecorder !== "undefined" && typeof WebSocket !== "undefined",
  );
}

export class BroadcastDesk {
  /** Call from a click: the AudioContext may only start on a gesture. */
  constructor() {
    const Context = window.AudioContext || window.webkitAudioContext;
    const ctx = new Context({ latencyHint: "interactive" });
    this.ctx = ctx;
    this.closed = false;
    this.mix = ctx.createGain();
    this.meter = ctx.createAnalyser();
    this.meter.fftSize = 2048;
    this.meter.smoothingTimeConstant = 0;
    this.destination = ctx.createMediaStreamDestination();
    this.mix.connect(this.destination);
    this.mix.connect(this.meter);

    this.micFader = ctx.createGain();
    this.voice = ctx.createAnalyser();
    this.voice.fftSize = 1024;
    this.micFader.connect(this.mix);
    this.micFader.connect(this.voice);
    this.micSource = null;
    this.micStream = null;
    this.micDeviceID = null;

    this.bedFader = ctx.createGain();
    this.duck = ctx.createGain();
    this.bedFader.connect(this.duck);
    this.duck.connect(this.mix);
    this.bedAudio = null;
    this.bedSource = null;
    this.bedURL = null;
    this.monitoring = false;

    this.ducking = true;
    this.duckState = null;
    this.duckApplied = false;
    this.onDuck = null;
    this.meterBuffer = new Float32Array(this.meter.fftSize);
    this.voiceBuffer = new Float32Array(this.voice.fftSize);
    this.duckTimer = setInterval(() => this.listenForVoice(), DUCK_EVERY_MS);
    ctx.resume().catch(() => {});
  }

  /** The stream MediaRecorder encodes. */
  get stream() {
    return this.destination.stream;
  }

  /**
   * Opens the microphone (`deviceID`, or the browser's default) and puts it
   * on the desk in place of the one before, whose tracks stop. Rejects with
   * getUserMedia's error.
   */
  async openMic(deviceID = null) {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: deviceID ? { deviceId: { exact: deviceID } } : true });
    if (this.closed) {
      stopTracks(stream);
      return null;
    }
    const source = this.ctx.createMediaStreamSource(stream);
    source.connect(this.micFader);
    const before = { source: this.micSource, stream: this.micStream };
    this.micSource = source;
    this.micStream = stream;
    const track = stream.getAudioTracks()[0];
    const settings = track && track.getSettings ? track.getSettings() : {};
    this.micDeviceID = settings.deviceId || deviceID || null;
    if (before.source) before.source.disconnect();
    if (before.stream) stopTracks(before.stream);
    return stream;
  }

  setMicLevel(fader) {
    this.micFader.gain.setTargetAtTime(faderGain(fader), this.ctx.currentTime, 0.02);
  }

  /** Puts `file` (a File from <input type=file>) on the bed, paused; null takes it off. */
  setBed(file) {
    this.clearBed();
    if (!file) return null;
    // An element of its own per desk: an element joins one AudioContext only.
    const audio = new Audio();
    audio.loop = true;
    audio.preload = "auto";
    this.bedURL = URL.createObjectURL(file);
    audio.src = this.bedURL;
    this.bedSource = this.ctx.createMediaElementSource(audio);
    this.bedSource.connect(this.bedFader);
    this.bedAudio = audio;
    return audio;
  }

  clearBed() {
    if (this.bedAudio) {
      this.bedAudio.pause();
      this.bedAudio.removeAttribute("src");
      this.bedAudio.load();
    }
    if (this.bedSource) this.bedSource.disconnect();
    if (this.bedURL) URL.revokeObjectURL(this.bedURL);
    this.bedAudio = null;
    this.bedSource = null;
    this.bedURL = null;
  }

  setBedLevel(fader) {
    this.bedFader.gain.setTargetAtTime(faderGain(fader), this.ctx.currentTime, 0.02);
  }

  /** Plays or pauses the bed; resolves once playing (rejects when the file won't play). */
  async playBed(play) {
    if (!this.bedAudio) return;
    if (!play) {
      this.bedAudio.pause();
      return;
    }
    await this.ctx.resume();
    await this.bedAudio.play();
  }

  /** Whether the DJ hears the bed on this device (headphones: the microphone would hear speakers). */
  setMonitor(on) {
    if (on === this.monitoring) return;
    this.monitoring = on;
    if (on) this.duck.connect(this.ctx.destination);
    else this.duck.disconnect(this.ctx.destination);
  }

  setDucking(on) {
    this.ducking = Boolean(on);
    this.listenForVoice();
  }

  /** The talk-over, one look at the voice: the bed glides down or back up on a change. */
  listenForVoice() {
    if (this.closed) return;
    this.voice.getFloatTimeDomainData(this.voiceBuffer);
    const voiceDb = toDb(levelsOf(this.voiceBuffer).rms);
    const was = this.duckState ? this.duckState.ducked : false;
    this.duckState = duckStep(this.duckState, voiceDb, performance.now(), { enabled: this.ducking });
    if (this.duckState.ducked === was && this.duckApplied) return;
    this.duckApplied = true;
    const { gain, timeConstant } = duckTarget(this.duckState.ducked, DUCK);
    const param = this.duck.gain;
    const now = this.ctx.currentTime;
    param.cancelScheduledValues(now);
    param.setValueAtTime(param.value, now);
    param.setTargetAtTime(gain, now, timeConstant);
    if (this.onDuck) this.onDuck(this.duckState.ducked);
  }

  /** The outgoing mix's {rms, peak} now. */
  levels() {
    if (this.closed) return { rms: 0, peak: 0 };
    this.meter.getFloatTimeDomainData(this.meterBuffer);
    return levelsOf(this.meterBuffer);
  }

  /** Everything off: the microphone's tracks end, the bed stops, the context closes. */
  close() {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.duckTimer);
    this.onDuck = null;
    if (this.micSource) this.micSource.disconnect();
    if (this.micStream) stopTracks(this.micStream);
    this.micSource = null;
    this.micStream = null;
    this.clearBed();
    stopTracks(this.destination.stream);
    this.ctx.close().catch(() => {});
  }
}

function stopTracks(stream) {
  for (const track of stream.getTracks()) track.stop();
}
