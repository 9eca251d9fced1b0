// The Go live panel's mixing desk, from the panel's side: opening the
// BroadcastDesk and the microphone (in the click that asked, as the
// AudioContext needs), the list of microphones, the music bed's file and
// play button, the faders and switches. Each function takes the panel `p`
// (broadcast-panel.js: its view, state and desk); the desk itself is
// broadcast-audio.js.

import { micProblem } from "../identify/model.js";
import { BroadcastDesk, canBroadcast } from "./broadcast-audio.js";
import { microphoneChoices } from "./broadcast-model.js";
import { keepFocus, showBedPlaying, showMicrophones } from "./broadcast-view.js";

const BED_WONT_PLAY = "That music file won't play in this browser: choose another.";

/** Fills the microphone picker from the browser's devices. */
export async function listMicrophones(p) {
  if (!p.desk || !navigator.mediaDevices.enumerateDevices) return;
  let devices = [];
  try {
    devices = await navigator.mediaDevices.enumerateDevices();
  } catch {
    return;
  }
  if (!p.desk) return;
  showMicrophones(p.view, microphoneChoices(devices), p.desk.micDeviceID);
}

/** The music bed's <audio>: its play button follows it. */
function wireBed(p, audio) {
  if (!audio) return;
  audio.addEventListener("playing", () => showBedPlaying(p.view, true));
  audio.addEventListener("pause", () => showBedPlaying(p.view, false));
  audio.addEventListener("error", () => {
    if (audio.getAttribute("src")) p.showProblem(BED_WONT_PLAY);
  });
}

/** A new desk set as the panel's controls are. */
function freshDesk(p) {
  const { view } = p;
  const desk = new BroadcastDesk();
  desk.setMicLevel(Number(view.micFader.value));
  desk.setBedLevel(Number(view.bedFader.value));
  desk.setDucking(view.duckSwitch.checked);
  desk.setMonitor(view.monitor.checked);
  desk.onDuck = (down) => {
    view.duckLamp.dataset.on = String(down);
  };
  if (p.bedFile) wireBed(p, desk.setBed(p.bedFile));
  return desk;
}

/** Opens `chosen`, or the browser's default when the chosen microphone has gone. */
async function openMicrophone(desk, chosen) {
  try {
    await desk.openMic(chosen);
  } catch (error) {
    if (!chosen || (error && error.name !== "OverconstrainedError" && error.name !== "NotFoundError")) throw error;
    await desk.openMic(null);
  }
}

/** Opens the desk and the microphone (the first moment of the panel, or again after a broadcast): true when ready. */
export function prepare(p) {
  if (p.desk) return Promise.resolve(true);
  if (p.preparing) return p.preparing;
  if (!canBroadcast()) {
    p.setState("failed");
    p.showProblem("This browser can't go live: it needs a microphone, Web Audio and MediaRecorder, on a secure https:// address.");
    return Promise.resolve(false);
  }
  // Made here, in the click that asked for it: the AudioContext may only start on a gesture.
  const fresh = freshDesk(p);
  p.desk = fresh;
  p.setState("opening");
  p.say("Asking for the microphone…");
  p.meter.start();
  p.preparing = (async () => {
    try {
      await openMicrophone(fresh, p.view.micSelect.value || null);
    } catch (error) {
      if (p.desk === fresh) failMicrophone(p, error);
      return false;
    } finally {
      p.preparing = null;
    }
    if (p.desk !== fresh) return false;
    await listMicrophones(p);
    if (p.desk !== fresh) return false;
    p.setState("ready");
    p.say("Microphone on: check the level, then go on the air.");
    return true;
  })();
  return p.preparing;
}

function failMicrophone(p, error) {
  p.desk.close();
  p.desk = null;
  p.meter.reset();
  const words = micProblem(error);
  p.setState("failed");
  p.say("");
  p.showProblem(`${words.title}. ${words.text}`);
  keepFocus(p.view, p.view.startButton);
}

/** Closes the desk and releases the microphone. */
export function closeDesk(p) {
  if (p.desk) p.desk.close();
  p.desk = null;
  p.meter.reset();
  p.view.duckLamp.dataset.on = "false";
  showBedPlaying(p.view, false);
}

/** The strips' controls: faders, switches, the microphone picker and the music bed. */
export function wireDeskControls(p) {
  const { view } = p;
  view.micFader.addEventListener("input", () => p.desk && p.desk.setMicLevel(Number(view.micFader.value)));
  view.bedFader.addEventListener("input", () => p.desk && p.desk.setBedLevel(Number(view.bedFader.value)));
  view.duckSwitch.addEventListener("change", () => p.desk && p.desk.setDucking(view.duckSwitch.checked));
  view.monitor.addEventListener("change", () => p.desk && p.desk.setMonitor(view.monitor.checked));
  view.micSelect.addEventListener("change", async () => {
    if (!p.desk) return;
    try {
      await p.desk.openMic(view.micSelect.value || null);
      p.showProblem("");
    } catch (error) {
      const words = micProblem(error);
      p.showProblem(`${words.title}. ${words.text}`);
    }
    listMicrophones(p);
  });
  view.bedInput.addEventListener("change", () => {
    p.bedFile = (view.bedInput.files && view.bedInput.files[0]) || null;
    p.showProblem("");
    if (p.desk) wireBed(p, p.desk.setBed(p.bedFile));
    showBedPlaying(view, false);
    view.bedPlay.disabled = !p.desk || !p.bedFile;
  });
  view.bedPlay.addEventListener("click", async () => {
    if (!p.desk || !p.bedFile) return;
    const play = view.bedPlay.getAttribute("aria-pressed") !== "true";
    try {
      await p.desk.playBed(play);
    } catch (error) {
      if (error && error.name === "AbortError") return;
      p.showProblem(BED_WONT_PLAY);
    }
  });
}
