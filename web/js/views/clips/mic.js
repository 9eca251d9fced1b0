// The microphone for one voice clip, as going live from the browser does it
// (go-live/broadcast-audio.js): getUserMedia, an AnalyserNode for the level
// and MediaRecorder for the recording (Opus in WebM where the browser has
// it). One ClipMic per take: stop() resolves to the Blob and releases the
// microphone (its tracks end, the browser's recording light goes out);
// close() lets everything go without a recording.

import { chooseMimeType } from "../identify/model.js";
import { peakOf } from "./recorder-model.js";

/** Whether this browser can record a clip at all. */
export function canRecordClips() {
  return Boolean(
    typeof navigator !== "undefined" && navigator.mediaDevices && navigator.mediaDevices.getUserMedia &&
    typeof MediaRecorder !== "undefined",
  );
}

export class ClipMic {
  /** Make it in the click that asked: the AudioContext may only start on a gesture. */
  constructor() {
    const Context = window.AudioContext || window.webkitAudioContext;
    this.ctx = Context ? new Context() : null;
    this.analyser = null;
    this.samples = null;
    this.stream = null;
    this.source = null;
    this.recorder = null;
    this.chunks = [];
    this.closed = false;
    if (this.ctx) this.ctx.resume().catch(() => {});
  }

  /** Opens the microphone and starts recording; rejects with getUserMedia's or MediaRecorder's error. */
  async start() {
    // A voice, not music: the browser's echo cancelling and noise
    // suppression help (the station may be playing in the room).
    const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
    if (this.closed) {
      stopTracks(stream);
      throw new DOMException("Closed", "AbortError");
    }
    this.stream = stream;
    if (this.ctx) {
      this.source = this.ctx.createMediaStreamSource(stream);
      this.analyser = this.ctx.createAnalyser();
      this.analyser.fftSize = 1024;
      this.analyser.smoothingTimeConstant = 0;
      this.samples = new Float32Array(this.analyser.fftSize);
      this.source.connect(this.analyser);
    }
    try {
      const mimeType = chooseMimeType((type) => MediaRecorder.isTypeSupported(type));
      this.recorder = new MediaRecorder(stream, mimeType ? { mimeType, audioBitsPerSecond: 64_000 } : undefined);
    } catch (error) {
      this.close();
      throw error;
    }
    this.recorder.addEventListener("dataavailable", (event) => {
      if (event.data && event.data.size) this.chunks.push(event.data);
    });
    this.recorder.start(250);
  }

  /** The microphone's loudest sample just now, 0…1 (0 before it opens and after). */
  level() {
    if (!this.analyser || this.closed) return 0;
    this.analyser.getFloatTimeDomainData(this.samples);
    return peakOf(this.samples);
  }

  /** Stops recording: resolves to the recording (a Blob); the microphone is released either way. */
  stop() {
    const recorder = this.recorder;
    if (!recorder || recorder.state === "inactive") {
      this.close();
      return Promise.resolve(new Blob(this.chunks, { type: "audio/webm" }));
    }
    return new Promise((resolve, reject) => {
      recorder.addEventListener("stop", () => {
        const type = recorder.mimeType || (this.chunks[0] && this.chunks[0].type) || "audio/webm";
        const blob = new Blob(this.chunks, { type });
        this.close();
        resolve(blob);
      }, { once: true });
      recorder.addEventListener("error", (event) => {
        this.close();
        reject(event.error || new Error("Recording failed."));
      }, { once: true });
      try {
        recorder.stop();
      } catch (error) {
        this.close();
        reject(error);
      }
    });
  }

  /** Everything off: the recorder, the microphone's tracks, the AudioContext. */
  close() {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.recorder && this.recorder.state !== "inactive") this.recorder.stop();
    } catch {}
    if (this.source) this.source.disconnect();
    if (this.stream) stopTracks(this.stream);
    if (this.ctx) this.ctx.close().catch(() => {});
    this.analyser = null;
  }
}

function stopTracks(stream) {
  for (const track of stream.getTracks()) track.stop();
}
