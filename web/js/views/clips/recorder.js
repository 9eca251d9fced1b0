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
// the microphone is mic.js's. Names and notes only ever go in as text.

import { h, icon, setText } from "../../ui/dom.js";
import { micProblem } from "../identify/model.js";
import { ClipMic, canRecordClips } from "./mic.js";
import {
  CLIP_MAX_MS, NOTE_MAX, barHeight, canSend, cleanNote, downsample, initialRecorder, lengthText, pushLevel,
  recorderControls, recorderStep, sendErrorText,
} from "./recorder-model.js";

const TICK_MS = 50;
const BAR_PX = 5; // a bar and its gap, in CSS pixels
const ARIA_EVERY_MS = 1000;

let panels = 0;

/**
 * @param {{
 *   mode: "dj" | "listener",
 *   openText: string, hint: string, heading: string, sendText: string,
 *   onSend: (blob: Blob, note: string) => Promise<{clip: object, text: string}>,
 *   join?: {needed: () => boolean, onJoin: (name: string) => Promise<void>},
 * }} options
 */
export function createClipPanel({ mode, openText, hint, heading: headingText, sendText, onSend, join = null }) {
  panels += 1;
  const id = (name) => `clip-${mode}-${name}-${panels}`;

  // ---------------------------------------------------------------- DOM
  const openButton = h(
    "button",
    { class: "btn btn-secondary btn-clip-open", type: "button", "aria-expanded": "false", "aria-controls": id("box"), "aria-describedby": id("hint") },
    icon("mic", { size: 22 }),
    openText,
  );
  const hintLine = h("p", { class: "clip-hint", id: id("hint") }, hint);
  const heading = h("h2", { class: "clip-heading", id: id("heading"), tabindex: "-1" }, icon("mic", { size: 20 }), headingText);
  const clock = h("span", { class: "clip-clock", "aria-hidden": "true" }, "0:30");
  const canvas = h("canvas", { class: "clip-wave-canvas", "aria-hidden": "true", height: "56" });
  // A meter only while the panel is open (a folded panel has none to offer).
  const wave = h("div", { class: "clip-wave", id: id("meter"), dataset: { level: "0" } }, canvas);
  const METER_ATTRS = { role: "meter", "aria-label": "Microphone level", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0", "aria-valuetext": "Silent" };
  const status = h("p", { class: "clip-status", role: "status", "aria-live": "polite" });
  const problem = h("p", { class: "form-error clip-error", role: "alert" });

  const recordButton = h("button", { class: "btn btn-primary clip-record", type: "button", "aria-pressed": "false" }, icon("record", { size: 20 }), "Record");
  const stopButton = h("button", { class: "btn clip-stop", type: "button", hidden: true }, icon("stop", { size: 20 }), "Stop");
  const previewButton = h("button", { class: "btn btn-secondary clip-preview", type: "button", "aria-pressed": "false", hidden: true }, icon("play", { size: 20 }), "Preview");
  const rerecordButton = h("button", { class: "btn btn-secondary clip-rerecord", type: "button", hidden: true }, icon("record", { size: 18 }), "Re-record");

  const noteInput = h("input", {
    class: "input clip-note", id: id("note"), type: "text", maxlength: String(NOTE_MAX), autocomplete: "off", enterkeyhint: "send",
    "aria-describedby": id("note-hint"),
  });
  const noteField = h(
    "div",
    { class: "clip-note-field" },
    h("label", { class: "label", for: id("note") }, "Note (optional)"),
    noteInput,
    h("p", { class: "clip-small", id: id("note-hint") }, `One line, up to ${NOTE_MAX} characters: listeners see it with the clip.`),
  );
  const sendButton = h("button", { class: "btn btn-primary clip-send", type: "button", hidden: true }, icon("next", { size: 20 }), h("span", { class: "clip-send-text" }, sendText));
  const closeButton = h("button", { class: "btn btn-ghost clip-close", type: "button" }, "Close");

  const joinInput = h("input", { class: "input clip-join-name", id: id("join"), type: "text", maxlength: "40", autocomplete: "nickname" });
  const joinStatus = h("p", { class: "clip-small clip-join-status", role: "status" });
  const joinForm = h(
    "form",
    { class: "clip-join", novalidate: true, hidden: true },
    h("p", { class: "clip-small" }, "Join with the name the host will see, then record."),
    h("label", { class: "label", for: id("join") }, "Your name"),
    h("div", { class: "input-row" }, joinInput, h("button", { class: "btn btn-primary clip-join-button", type: "submit" }, "Join")),
    joinStatus,
  );

  const body = h(
    "div",
    { class: "clip-body" },
    wave,
    status,
    problem,
    h("div", { class: "clip-buttons" }, recordButton, stopButton, previewButton, rerecordButton),
    noteField,
  );
  const box = h(
    "div",
    { class: "clip-box", id: id("box"), hidden: true },
    h("div", { class: "clip-head" }, heading, clock),
    joinForm,
    body,
    h("div", { class: "clip-actions" }, sendButton, closeButton),
  );
  const el = h("section", { class: `clip-panel clip-panel-${mode}`, "aria-labelledby": id("heading"), dataset: { state: "closed", mode, preview: "none" } }, openButton, hintLine, box);

  // -------------------------------------------------------------- state
  let state = initialRecorder();
  let opened = false;
  let mic = null;
  let timer = null;
  let capTimer = null;
  let levels = [];
  let history = [];
  let shape = [];
  let ariaAt = 0;
  let previewURL = null;
  let previewFor = null;
  const preview = new Audio();
  preview.preload = "auto";
  let frame = 0;

  function dispatch(event) {
    const before = state;
    state = recorderStep(state, event, { maxMs: CLIP_MAX_MS });
    render(before);
    return state;
  }

  function render(before = null) {
    const c = recorderControls(state);
    el.dataset.state = opened ? state.status : "closed";
    recordButton.hidden = !c.record.shown;
    recordButton.disabled = c.record.disabled;
    recordButton.setAttribute("aria-pressed", String(c.record.pressed));
    stopButton.hidden = !c.stop.shown;
    stopButton.disabled = c.stop.disabled;
    previewButton.hidden = !c.preview.shown;
    previewButton.disabled = c.preview.disabled;
    rerecordButton.hidden = !c.rerecord.shown;
    rerecordButton.disabled = c.rerecord.disabled;
    sendButton.hidden = !c.send.shown;
    sendButton.disabled = c.send.disabled;
    if (c.send.busy) sendButton.setAttribute("aria-busy", "true");
    else sendButton.removeAttribute("aria-busy");
    setText(sendButton.querySelector(".clip-send-text"), c.send.busy ? "Sending…" : sendText);
    noteInput.disabled = state.status === "sending";
    closeButton.disabled = state.status === "sending";
    const recording = state.status === "recording" || state.status === "stopping";
    clock.dataset.recording = String(recording);
    setText(clock, recording || state.status === "asking" ? `${c.clock.text} left` : state.recording ? lengthText(state.recording.durationMs) : "0:30");
    setText(problem, state.error);
    if (state.announce && (!before || state.announce !== before.announce)) setText(status, state.announce);
    if (state.sent) el.dataset.clipId = state.sent.id;
    // The recording to preview: a new one, once.
    const blob = state.recording ? state.recording.blob : null;
    if (blob !== previewFor) usePreview(blob);
    const namedNeeded = Boolean(join && join.needed());
    joinForm.hidden = !namedNeeded;
    body.hidden = namedNeeded;
    if (namedNeeded) sendButton.hidden = true;
  }

  function say(text) {
    setText(status, text);
  }

  /** Focus to `target` when it was on a control that is now hidden or disabled (or nowhere). */
  function keepFocus(target) {
    const active = document.activeElement;
    if (!active || active === document.body || (el.contains(active) && (active.hidden || active.closest("[hidden]") || active.disabled))) {
      if (el.isConnected && !target.hidden && !target.disabled) target.focus({ preventScroll: false });
    }
  }

  // ------------------------------------------------------------ the bars
  function barsThatFit() {
    return Math.max(8, Math.floor((canvas.clientWidth || 300) / BAR_PX));
  }

  function draw(progress = null) {
    const width = canvas.clientWidth || 300;
    const height = canvas.clientHeight || 56;
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const g = canvas.getContext("2d");
    if (!g) return;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const recording = state.status === "recording" || state.status === "stopping";
    const bars = recording ? history : shape;
    const count = barsThatFit();
    const mid = height / 2;
    // The dial's glass: a faint centre line.
    g.fillStyle = "rgba(247, 234, 213, 0.12)";
    g.fillRect(0, mid - 0.5, width, 1);
    bars.forEach((value, i) => {
      const x = recording ? width - (bars.length - i) * BAR_PX : i * BAR_PX;
      const barH = Math.max(2, value * (height - 6));
      const lit = progress === null || i / Math.max(1, bars.length) <= progress;
      g.fillStyle = recording ? "#ff6a4d" : lit ? "#ffb347" : "rgba(255, 179, 71, 0.35)";
      g.fillRect(x, mid - barH / 2, BAR_PX - 2, barH);
    });
    if (!recording && !bars.length && count) {
      g.fillStyle = "rgba(255, 179, 71, 0.25)";
      for (let i = 0; i < count; i++) g.fillRect(i * BAR_PX, mid - 1, BAR_PX - 2, 2);
    }
  }

  function showLevel(value, now) {
    const percent = Math.round(value * 100);
    wave.dataset.level = String(percent);
    if (now - ariaAt >= ARIA_EVERY_MS || (percent === 0 && wave.getAttribute("aria-valuenow") !== "0")) {
      ariaAt = now;
      wave.setAttribute("aria-valuenow", String(percent));
      wave.setAttribute("aria-valuetext", percent === 0 ? "Silent" : `${percent} percent`);
    }
  }

  // ------------------------------------------------------------ recording
  async function record() {
    if (!canRecordClips()) {
      setText(problem, "This browser can't record audio: it needs a microphone and MediaRecorder, on a secure https:// address.");
      return;
    }
    stopPreview();
    dispatch({ type: "record" });
    if (state.status !== "asking") return;
    say("Asking for the microphone…");
    const mine = new ClipMic();
    mic = mine;
    try {
      await mine.start();
    } catch (error) {
      if (mic !== mine) return;
      mic = null;
      mine.close();
      const words = micProblem(error);
      dispatch({ type: "micFailed", message: `${words.title}. ${words.text}` });
      say("");
      keepFocus(recordButton);
      return;
    }
    if (mic !== mine) {
      mine.close();
      return;
    }
    levels = [];
    history = [];
    ariaAt = 0;
    const hadFocus = document.activeElement === recordButton || document.activeElement === rerecordButton;
    dispatch({ type: "micOpen", at: performance.now() });
    if (hadFocus) stopButton.focus();
    else keepFocus(stopButton);
    timer = setInterval(tick, TICK_MS);
    // On the dot at 30 s, not up to a tick later (the server allows half a second over).
    capTimer = setTimeout(tick, CLIP_MAX_MS + 1);
  }

  function tick() {
    if (!mic) return;
    const now = performance.now();
    const value = barHeight(mic.level());
    levels.push(value);
    history = pushLevel(history, value, barsThatFit());
    showLevel(value, now);
    dispatch({ type: "tick", at: now });
    draw();
    if (state.status === "stopping") finish();
  }

  function stop() {
    if (state.status !== "recording") return;
    dispatch({ type: "stop", at: performance.now() });
    finish();
  }

  async function finish() {
    clearInterval(timer);
    clearTimeout(capTimer);
    timer = null;
    const mine = mic;
    mic = null;
    if (!mine) return;
    let blob = null;
    try {
      blob = await mine.stop();
    } catch {
      blob = null;
    }
    if (!opened) return;
    shape = downsample(levels, barsThatFit());
    showLevel(0, performance.now());
    dispatch({ type: "stopped", blob });
    draw();
    // Focus was on Stop (now gone): on to Preview, or Record when nothing was kept.
    keepFocus(state.status === "recorded" ? previewButton : recordButton);
  }

  // ------------------------------------------------------------ preview
  function usePreview(blob) {
    stopPreview();
    if (previewURL) URL.revokeObjectURL(previewURL);
    previewURL = null;
    previewFor = blob;
    el.dataset.preview = "none";
    if (blob) {
      previewURL = URL.createObjectURL(blob);
      preview.src = previewURL;
    } else {
      preview.removeAttribute("src");
    }
  }

  function stopPreview() {
    if (!preview.paused) preview.pause();
    cancelAnimationFrame(frame);
    frame = 0;
  }

  function previewFrame() {
    frame = 0;
    if (preview.paused) return;
    const d = preview.duration;
    draw(Number.isFinite(d) && d > 0 ? preview.currentTime / d : null);
    frame = requestAnimationFrame(previewFrame);
  }

  async function togglePreview() {
    if (!previewURL) return;
    if (!preview.paused) {
      preview.pause();
      return;
    }
    try {
      if (preview.ended) preview.currentTime = 0;
      await preview.play();
    } catch (error) {
      if (error && error.name === "AbortError") return;
      setText(problem, "The preview won't play in this browser; the clip can still be sent.");
    }
  }

  preview.addEventListener("playing", () => {
    previewButton.setAttribute("aria-pressed", "true");
    previewButton.replaceChildren(icon("stop", { size: 20 }), "Preview");
    el.dataset.preview = "playing";
    if (!frame) frame = requestAnimationFrame(previewFrame);
  });
  const previewStopped = (ended) => {
    previewButton.setAttribute("aria-pressed", "false");
    previewButton.replaceChildren(icon("play", { size: 20 }), "Preview");
    if (ended) el.dataset.preview = "ended";
    else if (el.dataset.preview === "playing") el.dataset.preview = "paused";
    draw();
  };
  preview.addEventListener("pause", () => previewStopped(false));
  preview.addEventListener("ended", () => previewStopped(true));

  // ------------------------------------------------------------ sending
  async function send() {
    if (!canSend(state)) return;
    stopPreview();
    const { blob } = state.recording;
    const note = cleanNote(noteInput.value);
    noteInput.value = note;
    dispatch({ type: "send" });
    say(`Sending ${Math.max(1, Math.round(blob.size / 1024))} KB…`);
    let answer;
    try {
      answer = await onSend(blob, note);
    } catch (error) {
      if (!opened) return;
      dispatch({ type: "failed", message: sendErrorText(error) });
      say("Your recording is still here: send it again, or re-record.");
      keepFocus(sendButton);
      return;
    }
    if (!opened) return;
    noteInput.value = "";
    shape = [];
    dispatch({ type: "sent", clip: answer && answer.clip, text: (answer && answer.text) || "Sent." });
    draw();
    keepFocus(recordButton);
  }

  // ------------------------------------------------------------ open, close
  function open() {
    if (opened) return;
    opened = true;
    openButton.hidden = true;
    hintLine.hidden = true;
    openButton.setAttribute("aria-expanded", "true");
    box.hidden = false;
    for (const [name, value] of Object.entries(METER_ATTRS)) wave.setAttribute(name, value);
    state = initialRecorder();
    render();
    say("");
    draw();
    heading.focus();
  }

  /** Folds the panel back to its button: the microphone and the recording go. */
  function close() {
    if (mic) {
      mic.close();
      mic = null;
    }
    clearInterval(timer);
    clearTimeout(capTimer);
    timer = null;
    stopPreview();
    const hadFocus = el.contains(document.activeElement);
    opened = false;
    state = initialRecorder();
    shape = [];
    history = [];
    levels = [];
    showLevel(0, performance.now());
    render();
    say("");
    box.hidden = true;
    for (const name of Object.keys(METER_ATTRS)) wave.removeAttribute(name);
    openButton.hidden = false;
    hintLine.hidden = false;
    openButton.setAttribute("aria-expanded", "false");
    if (hadFocus && el.isConnected && !el.hidden) openButton.focus();
  }

  /** Taken off the screen (the booth closed, shout-outs turned off): everything stops. */
  function detach() {
    close();
    el.remove();
  }

  function destroy() {
    close();
    usePreview(null);
  }

  async function joinNow(event) {
    event.preventDefault();
    if (!join) return;
    const name = joinInput.value.trim();
    if (!name) {
      setText(joinStatus, "Type the name the host will see.");
      joinInput.focus();
      return;
    }
    setText(joinStatus, "Joining…");
    try {
      await join.onJoin(name);
      setText(joinStatus, "");
      render();
      keepFocus(recordButton);
      if (el.contains(document.activeElement) === false) recordButton.focus();
    } catch (error) {
      setText(joinStatus, (error && error.message) || "Couldn't join. Try again.");
    }
  }

  // ------------------------------------------------------------ wiring
  openButton.addEventListener("click", open);
  closeButton.addEventListener("click", close);
  recordButton.addEventListener("click", () => (state.status === "recording" ? stop() : record()));
  stopButton.addEventListener("click", stop);
  rerecordButton.addEventListener("click", record);
  previewButton.addEventListener("click", togglePreview);
  sendButton.addEventListener("click", send);
  noteInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      send();
    }
  });
  joinForm.addEventListener("submit", joinNow);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.status !== "sending" && state.status !== "recording") {
      event.preventDefault();
      close();
    }
  });

  return {
    el,
    open,
    close,
    detach,
    destroy,
    /** Draws again for a change outside (a guest just joined). */
    refresh: () => render(),
    /** Says `text` in the panel's polite status (news about the clip sent). */
    say,
    get opened() {
      return opened;
    },
    get state() {
      return state;
    },
  };
}
