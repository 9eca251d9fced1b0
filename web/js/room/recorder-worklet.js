// The meter's one continuous capture: raw microphone samples (channel 0),
// posted to the page in blocks with the context frame they start at, so a
// dropped block shows as a gap instead of shifting every arrival after it.
// Runs on the audio thread; keeps nothing once posted.

const BLOCK = 4096;

class RoomRecorder extends AudioWorkletProcessor {
  constructor() {
    super();
    this.running = true;
    this.buffer = new Float32Array(BLOCK);
    this.filled = 0;
    this.startFrame = 0;
    this.port.onmessage = (event) => {
      if (event.data === "stop") {
        this.flush();
        this.running = false;
      }
    };
  }

  flush() {
    if (this.filled === 0) return;
    this.port.postMessage({ frame: this.startFrame, samples: this.buffer.slice(0, this.filled) });
    this.filled = 0;
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel || !this.running) return this.running;
    if (this.filled === 0) this.startFrame = currentFrame;
    else if (this.startFrame + this.filled !== currentFrame) {
      // A gap: what was filled goes as it is, and a new block starts here.
      this.flush();
      this.startFrame = currentFrame;
    }
    this.buffer.set(channel, this.filled);
    this.filled += channel.length;
    if (this.filled + 128 > BLOCK) this.flush();
    return true;
  }
}

registerProcessor("room-recorder", RoomRecorder);
