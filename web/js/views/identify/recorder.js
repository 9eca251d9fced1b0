// Records a clip from the microphone for "What's this song?": asks for the
// microphone, records `ms` with MediaRecorder and resolves to the Blob. The
// microphone's tracks are stopped whatever happens (done, cancelled, failed),
// so the browser's "recording" light goes out.

import { CLIP_MS, chooseMimeType } from "./model.js";

function unsupported() {
  const error = new Error("This browser can't record audio.");
  error.name = "NotSupportedError";
  return error;
}

function aborted() {
  return new DOMException("Cancelled", "AbortError");
}

/** True when this browser can record from a microphone at all. */
export function canRecord() {
  return Boolean(typeof navigator !== "undefined" && navigator.mediaDevices && navigator.mediaDevices.getUserMedia && typeof MediaRecorder !== "undefined");
}

/**
 * recordClip({ms, signal, onMic, onTick}) → Promise<Blob>.
 * onMic() once the microphone is open (recording starts); onTick(elapsedMs)
 * about four times a second. Rejects with the getUserMedia / MediaRecorder
 * error (a DOMException by name), or an AbortError when `signal` aborts.
 */
export async function recordClip({ ms = CLIP_MS, signal, onMic, onTick } = {}) {
  if (!canRecord()) throw unsupported();
  if (signal && signal.aborted) throw aborted();
  // Music, not a call: the browser's voice processing (echo cancelling,
  // noise suppression, automatic gain) would smear what is recognised.
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
  });
  const stopMic = () => {
    for (const track of stream.getTracks()) track.stop();
  };
  if (signal && signal.aborted) {
    stopMic();
    throw aborted();
  }
  let recorder;
  try {
    const mimeType = chooseMimeType((type) => MediaRecorder.isTypeSupported(type));
    recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
  } catch (error) {
    stopMic();
    throw error;
  }
  const chunks = [];
  let timer = null;
  let ticker = null;
  try {
    return await new Promise((resolve, reject) => {
      let cancelled = false;
      const onAbort = () => {
        cancelled = true;
        if (recorder.state !== "inactive") recorder.stop();
        reject(aborted());
      };
      if (signal) signal.addEventListener("abort", onAbort, { once: true });
      recorder.addEventListener("dataavailable", (event) => {
        if (event.data && event.data.size) chunks.push(event.data);
      });
      recorder.addEventListener("error", (event) => {
        if (signal) signal.removeEventListener("abort", onAbort);
        reject(event.error || new Error("Recording failed."));
      });
      recorder.addEventListener("stop", () => {
        if (signal) signal.removeEventListener("abort", onAbort);
        if (cancelled) return;
        resolve(new Blob(chunks, { type: recorder.mimeType || chunks[0]?.type || "audio/webm" }));
      });
      const started = performance.now();
      recorder.start(1000);
      if (onMic) onMic();
      ticker = setInterval(() => onTick && onTick(performance.now() - started), 250);
      timer = setTimeout(() => {
        if (recorder.state !== "inactive") recorder.stop();
      }, ms);
    });
  } finally {
    clearTimeout(timer);
    clearInterval(ticker);
    stopMic();
  }
}
