// One take of the voice clip recorder: asking for the microphone, the
// 50 ms tick that reads its level (bars, meter, countdown, the stop at
// 30 s on the dot), Stop, and the recording handed over at the end. Each
// function takes the panel `p` (recorder.js: its view, state, microphone,
// timers and bars); the microphone itself is mic.js.

import { setText } from "../../ui/dom.js";
import { micProblem } from "../identify/model.js";
import { ClipMic, canRecordClips } from "./mic.js";
import { CLIP_MAX_MS, barHeight, downsample, pushLevel } from "./recorder-model.js";
import { keepFocus, showLevel } from "./recorder-view.js";
import { barsThatFit } from "./recorder-wave.js";

const TICK_MS = 50;

/** Stops the tick and the 30 s cap. */
export function stopTimers(p) {
  clearInterval(p.timer);
  clearTimeout(p.capTimer);
  p.timer = null;
}

/** The microphone didn't open: why, and focus back on Record. */
function micFailed(p, mine, error) {
  p.mic = null;
  mine.close();
  const words = micProblem(error);
  p.dispatch({ type: "micFailed", message: `${words.title}. ${words.text}` });
  p.say("");
  keepFocus(p.view, p.view.recordButton);
}

/** Record (or Re-record): asks for the microphone, then takes until Stop or 30 s. */
export async function record(p) {
  const { view } = p;
  if (!canRecordClips()) {
    setText(view.problem, "This browser can't record audio: it needs a microphone and MediaRecorder, on a secure https:// address.");
    return;
  }
  p.preview.stop();
  p.dispatch({ type: "record" });
  if (p.state.status !== "asking") return;
  p.say("Asking for the microphone…");
  const mine = new ClipMic();
  p.mic = mine;
  try {
    await mine.start();
  } catch (error) {
    if (p.mic === mine) micFailed(p, mine, error);
    return;
  }
  if (p.mic !== mine) {
    mine.close();
    return;
  }
  p.levels = [];
  p.history = [];
  view.saidAt = 0;
  const hadFocus = document.activeElement === view.recordButton || document.activeElement === view.rerecordButton;
  p.dispatch({ type: "micOpen", at: performance.now() });
  if (hadFocus) view.stopButton.focus();
  else keepFocus(view, view.stopButton);
  p.timer = setInterval(() => tick(p), TICK_MS);
  // On the dot at 30 s, not up to a tick later (the server allows half a second over).
  p.capTimer = setTimeout(() => tick(p), CLIP_MAX_MS + 1);
}

function tick(p) {
  if (!p.mic) return;
  const now = performance.now();
  const value = barHeight(p.mic.level());
  p.levels.push(value);
  p.history = pushLevel(p.history, value, barsThatFit(p.view.canvas));
  showLevel(p.view, value, now);
  p.dispatch({ type: "tick", at: now });
  p.draw();
  if (p.state.status === "stopping") finish(p);
}

/** Stop, while recording. */
export function stop(p) {
  if (p.state.status !== "recording") return;
  p.dispatch({ type: "stop", at: performance.now() });
  finish(p);
}

async function finish(p) {
  stopTimers(p);
  const mine = p.mic;
  p.mic = null;
  if (!mine) return;
  let blob = null;
  try {
    blob = await mine.stop();
  } catch {
    blob = null;
  }
  if (!p.opened) return;
  p.shape = downsample(p.levels, barsThatFit(p.view.canvas));
  showLevel(p.view, 0, performance.now());
  p.dispatch({ type: "stopped", blob });
  p.draw();
  // Focus was on Stop (now gone): on to Preview, or Record when nothing was kept.
  keepFocus(p.view, p.state.status === "recorded" ? p.view.previewButton : p.view.recordButton);
}
