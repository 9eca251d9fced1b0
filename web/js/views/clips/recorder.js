// The voice clip recorder: the DJ booth's "Voice clip" (it plays next) and
// a listener's "Send a shout-out" (it waits for the host). A button opens
// a small panel:
//
// - Record (aria-pressed while recording) and Stop; it stops by itself at
//   30 s, with the time left on a countdown that is said politely at 20, 10
//   and 5 s left (not every tick);
// - the microphone's level as moving bars on a canvas (role="meter" with
//   aria-valuenow at most once a second), then the recording's waveform;
// - Preview (plays the recording here), Re-record, an optional note (one
//   line, at most 120 characters);
// - Play next / Send, "Sending…", then what happened; a refusal is shown
//   word for word beside it and the recording is kept to send again.
//
// The decisions (states, countdown, note, bars) are recorder-model.js's;
// the microphone is mic.js's. This file holds the controller (the panel's
// state, opening and closing, sending, a guest's name, the wiring); the
// DOM is recorder-view.js, a take recorder-take.js, the waveform
// recorder-wave.js and the preview recorder-preview.js. Names and notes
// only ever go in as text.

import { setText } from "../../ui/dom.js";
import { CLIP_MAX_MS, canSend, cleanNote, initialRecorder, isTaking, recorderStep, sendErrorText } from "./recorder-model.js";
import { buildClipView, keepFocus, showLevel, showOpened, showRecorder } from "./recorder-view.js";
import { createPreview } from "./recorder-preview.js";
import { record, stop, stopTimers } from "./recorder-take.js";
import { drawWave } from "./recorder-wave.js";

let panels = 0;

/**
 * @param {{
 *   mode: "dj" | "listener",
 *   openText: string, hint: string, heading: string, sendText: string,
 *   onSend: (blob: Blob, note: string) => Promise<{clip: object, text: string}>,
 *   join?: {needed: () => boolean, onJoin: (name: string) => Promise<void>},
 * }} options
 */
export function createClipPanel({ mode, openText, hint, heading, sendText, onSend, join = null }) {
  panels += 1;
  const number = panels;
  const view = buildClipView((name) => `clip-${mode}-${name}-${number}`, { mode, openText, hint, heading, sendText });
  const p = {
    view, state: initialRecorder(), opened: false, mic: null, timer: null, capTimer: null,
    levels: [], history: [], shape: [],
    dispatch, say,
    draw: (progress = null) => drawWave(view.canvas, { taking: isTaking(p.state), bars: isTaking(p.state) ? p.history : p.shape, progress }),
  };
  p.preview = createPreview(view, p.draw);

  function dispatch(event) {
    const before = p.state;
    p.state = recorderStep(p.state, event, { maxMs: CLIP_MAX_MS });
    render(before);
    return p.state;
  }

  function render(before = null) {
    showRecorder(view, p.state, { opened: p.opened, joinNeeded: Boolean(join && join.needed()), before });
    // The recording to preview: a new one, once.
    const blob = p.state.recording ? p.state.recording.blob : null;
    if (blob !== p.preview.for) p.preview.use(blob);
  }

  function say(text) {
    setText(view.status, text);
  }

  function open() {
    if (p.opened) return;
    p.opened = true;
    showOpened(view, true);
    p.state = initialRecorder();
    render();
    say("");
    p.draw();
    view.heading.focus();
  }

  /** Folds the panel back to its button: the microphone and the recording go. */
  function close() {
    if (p.mic) {
      p.mic.close();
      p.mic = null;
    }
    stopTimers(p);
    p.preview.stop();
    const hadFocus = view.el.contains(document.activeElement);
    p.opened = false;
    p.state = initialRecorder();
    p.shape = [];
    p.history = [];
    p.levels = [];
    showLevel(view, 0, performance.now());
    render();
    say("");
    showOpened(view, false);
    if (hadFocus && view.el.isConnected && !view.el.hidden) view.openButton.focus();
  }

  /** Taken off the screen (the booth closed, shout-outs turned off): everything stops. */
  function detach() {
    close();
    view.el.remove();
  }

  function destroy() {
    close();
    p.preview.use(null);
  }

  wire(p, { open, close, render, onSend, join });
  return {
    el: view.el,
    open,
    close,
    detach,
    destroy,
    /** Draws again for a change outside (a guest just joined). */
    refresh: () => render(),
    /** Says `text` in the panel's polite status (news about the clip sent). */
    say,
    get opened() {
      return p.opened;
    },
    get state() {
      return p.state;
    },
  };
}

/** Play next / Send: the recording and its note go; a refusal keeps the recording to send again. */
async function send(p, onSend) {
  if (!canSend(p.state)) return;
  const { view } = p;
  p.preview.stop();
  const { blob } = p.state.recording;
  const note = cleanNote(view.noteInput.value);
  view.noteInput.value = note;
  p.dispatch({ type: "send" });
  p.say(`Sending ${Math.max(1, Math.round(blob.size / 1024))} KB…`);
  let answer;
  try {
    answer = await onSend(blob, note);
  } catch (error) {
    if (!p.opened) return;
    p.dispatch({ type: "failed", message: sendErrorText(error) });
    p.say("Your recording is still here: send it again, or re-record.");
    keepFocus(view, view.sendButton);
    return;
  }
  if (!p.opened) return;
  view.noteInput.value = "";
  p.shape = [];
  p.dispatch({ type: "sent", clip: answer && answer.clip, text: (answer && answer.text) || "Sent." });
  p.draw();
  keepFocus(view, view.recordButton);
}

/** A guest gives the name the host will see, then records. */
async function joinNow(p, event, join, render) {
  event.preventDefault();
  if (!join) return;
  const { view } = p;
  const name = view.joinInput.value.trim();
  if (!name) {
    setText(view.joinStatus, "Type the name the host will see.");
    view.joinInput.focus();
    return;
  }
  setText(view.joinStatus, "Joining…");
  try {
    await join.onJoin(name);
    setText(view.joinStatus, "");
    render();
    keepFocus(view, view.recordButton);
    if (view.el.contains(document.activeElement) === false) view.recordButton.focus();
  } catch (error) {
    setText(view.joinStatus, (error && error.message) || "Couldn't join. Try again.");
  }
}

/** The panel's buttons, keys and forms. */
function wire(p, { open, close, render, onSend, join }) {
  const { view } = p;
  view.openButton.addEventListener("click", open);
  view.closeButton.addEventListener("click", close);
  view.recordButton.addEventListener("click", () => (p.state.status === "recording" ? stop(p) : record(p)));
  view.stopButton.addEventListener("click", () => stop(p));
  view.rerecordButton.addEventListener("click", () => record(p));
  view.previewButton.addEventListener("click", () => p.preview.toggle());
  view.sendButton.addEventListener("click", () => send(p, onSend));
  view.noteInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      send(p, onSend);
    }
  });
  view.joinForm.addEventListener("submit", (event) => joinNow(p, event, join, render));
  view.box.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && p.state.status !== "sending" && p.state.status !== "recording") {
      event.preventDefault();
      close();
    }
  });
}
