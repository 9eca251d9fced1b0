// The broadcast's line to the server: a WebSocket to
// /api/stations/ID/broadcast (the session cookie, as the rest of the app),
// the "start" message, and once the server says "onAir" a MediaRecorder on
// the desk's mix (Opus in WebM, 128 kbps) whose chunks go out every 250 ms
// as binary messages of at most 64 KiB. The server answers "error" with its
// own sentence and closes; closing the socket (1000) ends the source.
//
// Events (each at most once, and none after stop() or cancel()):
// onAir(), onError({code, message}, wasLive), onClosed({code, reason, live})
// for a close the server said nothing about, and onUplink(slow) when the
// audio waiting to go out grows past what the line can carry, or drains.

import {
  BITS_PER_SECOND, TIMESLICE_MS, broadcastURL, frameRanges, readServerMessage, startMessage, titleMessage, uplinkSlow,
} from "./broadcast-model.js";

/** How long stop() waits for the recorder's last chunk before closing anyway (ms). */
const LAST_CHUNK_MS = 1500;

export class BroadcastLink {
  /** Connects at once; `title` goes in the start message. */
  constructor({ stationID, stream, mimeType, title = "", events = {} }) {
    this.stream = stream;
    this.mimeType = mimeType;
    this.events = events;
    /** connecting | live | ending | closed */
    this.state = "connecting";
    this.recorder = null;
    this.slow = false;
    const ws = new WebSocket(broadcastURL(location, stationID));
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.state === "connecting") ws.send(startMessage({ mimeType, title }));
    });
    ws.addEventListener("message", (event) => this.heard(event.data));
    ws.addEventListener("close", (event) => this.closedByServer(event));
  }

  get live() {
    return this.state === "live";
  }

  heard(data) {
    if (typeof data !== "string" || this.state === "closed") return;
    const message = readServerMessage(data);
    if (!message) return;
    if (message.type === "onAir" && this.state === "connecting") {
      try {
        this.startRecorder();
      } catch (error) {
        this.fail({ code: "recorder", message: `This browser couldn't start recording: ${(error && error.message) || error}` });
        return;
      }
      this.state = "live";
      this.emit("onAir");
    } else if (message.type === "error") {
      this.fail(message);
    }
  }

  startRecorder() {
    const recorder = new MediaRecorder(this.stream, { mimeType: this.mimeType, audioBitsPerSecond: BITS_PER_SECOND });
    recorder.addEventListener("dataavailable", (event) => this.send(event.data));
    recorder.addEventListener("error", (event) => {
      const error = event.error || event;
      this.fail({ code: "recorder", message: `Recording stopped: ${(error && (error.message || error.name)) || "the browser's recorder failed"}.` });
    });
    recorder.start(TIMESLICE_MS);
    this.recorder = recorder;
  }

  /** One recorder chunk, as binary messages of at most 64 KiB, in order. */
  send(blob) {
    const { ws } = this;
    if (!blob || !blob.size || ws.readyState !== WebSocket.OPEN) return;
    for (const [start, end] of frameRanges(blob.size)) ws.send(start === 0 && end === blob.size ? blob : blob.slice(start, end));
    this.checkUplink();
  }

  checkUplink() {
    const slow = uplinkSlow(this.ws.bufferedAmount);
    if (slow === this.slow) return;
    this.slow = slow;
    this.emit("onUplink", slow);
  }

  /** A new title while live; false when there is no line to send it on. */
  sendTitle(title) {
    if (this.state !== "live" || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(titleMessage(title));
    return true;
  }

  /** Ends the broadcast: the recorder's last chunk goes out, then the socket closes with 1000. */
  async stop() {
    if (this.state === "closed" || this.state === "ending") return;
    this.state = "ending";
    const { recorder } = this;
    if (recorder && recorder.state !== "inactive") {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, LAST_CHUNK_MS);
        recorder.addEventListener("stop", () => {
          clearTimeout(timer);
          resolve();
        }, { once: true });
        try {
          recorder.stop();
        } catch {
          clearTimeout(timer);
          resolve();
        }
      });
    }
    this.close();
  }

  /** Gives up at once (before going on the air, or the page going away). */
  cancel() {
    this.close();
  }

  close() {
    this.state = "closed";
    this.events = {};
    this.stopRecorder();
    const { ws } = this;
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) {
      try {
        ws.close(1000, "Off the air");
      } catch {
        // Already closing.
      }
    }
  }

  stopRecorder() {
    const { recorder } = this;
    this.recorder = null;
    if (recorder && recorder.state !== "inactive") {
      try {
        recorder.stop();
      } catch {
        // Already stopped.
      }
    }
  }

  /** The server's error (or the recorder's): said once, then the line closes. */
  fail(error) {
    if (this.state === "closed") return;
    const wasLive = this.state === "live" || this.state === "ending";
    const { events } = this;
    this.close();
    if (events.onError) events.onError(error, wasLive);
  }

  closedByServer(event) {
    if (this.state === "closed") return;
    if (this.state === "ending") {
      // Stopping anyway: the server was quicker.
      this.state = "closed";
      this.stopRecorder();
      return;
    }
    const live = this.state === "live";
    const { events } = this;
    this.state = "closed";
    this.events = {};
    this.stopRecorder();
    if (events.onClosed) events.onClosed({ code: event.code, reason: event.reason, live });
  }

  emit(name, ...args) {
    const handler = this.events[name];
    if (handler) handler(...args);
  }
}
