// The meter's microphone: one raw capture (no echo cancellation, noise
// suppression or gain control, which would move and smear the chirps) in
// the player's own AudioContext, through an AudioWorklet. The samples stay
// in this page: the estimator (arrivals.js) reads them here, and only its
// figures are ever sent.

export class MeterError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Most a capture may hold (s): a calibration of twelve devices is ~30 s. */
const MAX_SECONDS = 60;

/**
 * Opens the microphone → {begin(), stop() → {samples, startFrame, rate, gaps}, close()}.
 * Nothing is kept until begin(): the meter opens it when it calls the room
 * (so a refused microphone says so at once) and records only once it
 * measures, however long the devices took to join.
 */
export async function openMeter(ctx) {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    throw new MeterError("no-microphone", "This browser offers no microphone here (it needs https, or localhost).");
  }
  if (!ctx.audioWorklet) throw new MeterError("no-microphone", "This browser can't record raw sound (no AudioWorklet).");
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 },
    });
  } catch (error) {
    if (error && (error.name === "NotAllowedError" || error.name === "SecurityError")) {
      throw new MeterError("denied", "The microphone was not allowed. Allow it for this site to measure the room.");
    }
    throw new MeterError("no-microphone", "No microphone was found on this device.");
  }
  try {
    await ctx.audioWorklet.addModule(new URL("./recorder-worklet.js", import.meta.url));
  } catch {
    stream.getTracks().forEach((t) => t.stop());
    throw new MeterError("no-microphone", "The recorder could not start in this browser.");
  }
  const source = ctx.createMediaStreamSource(stream);
  const node = new AudioWorkletNode(ctx, "room-recorder", { numberOfInputs: 1, numberOfOutputs: 0, channelCount: 1 });
  let blocks = [];
  let total = 0;
  let recording = false;
  const limit = MAX_SECONDS * ctx.sampleRate;
  node.port.onmessage = ({ data }) => {
    if (!recording || total >= limit) return;
    blocks.push(data);
    total += data.samples.length;
  };
  source.connect(node);
  let stopped = false;
  const close = () => {
    if (stopped) return;
    stopped = true;
    source.disconnect();
    stream.getTracks().forEach((t) => t.stop());
  };
  return {
    close,
    /** Starts keeping what the microphone hears. */
    begin() {
      blocks = [];
      total = 0;
      recording = true;
    },
    /** Ends the capture: the samples laid out by frame, gaps as silence. */
    stop() {
      node.port.postMessage("stop");
      return new Promise((resolve) => {
        setTimeout(() => {
          close();
          node.port.onmessage = null;
          if (!blocks.length) return resolve({ samples: new Float32Array(0), startFrame: 0, rate: ctx.sampleRate, gaps: 0 });
          const startFrame = blocks[0].frame;
          const last = blocks[blocks.length - 1];
          const length = Math.min(limit, last.frame + last.samples.length - startFrame);
          const samples = new Float32Array(length);
          let gaps = 0;
          let expected = startFrame;
          for (const block of blocks) {
            if (block.frame !== expected) gaps += 1;
            const at = block.frame - startFrame;
            if (at < length) samples.set(block.samples.subarray(0, length - at), at);
            expected = block.frame + block.samples.length;
          }
          resolve({ samples, startFrame, rate: ctx.sampleRate, gaps });
        }, 150);
      });
    },
  };
}
