// The voice clip recorder's DOM (recorder.js's panel, drawn here): the open
// button and hint, the panel with its heading and clock, the waveform's
// canvas (a role="meter" only while open), Record, Stop, Preview,
// Re-record, the note, Send and Close, and a guest's name form; and the
// functions that show the recorder's state on them, open or fold the
// panel, and the microphone's level. Names, notes and the server's words
// only ever go in as text. What shows is recorder-model.js's decision.

import { h, icon, setText } from "../../ui/dom.js";
import { NOTE_MAX, clockLabel, isTaking, levelText, recorderControls, shouldSayLevel } from "./recorder-model.js";

const METER_ATTRS = { role: "meter", "aria-label": "Microphone level", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0", "aria-valuetext": "Silent" };
const ARIA_EVERY_MS = 1000;

function buttons() {
  return {
    recordButton: h("button", { class: "btn btn-primary clip-record", type: "button", "aria-pressed": "false" }, icon("record", { size: 20 }), "Record"),
    stopButton: h("button", { class: "btn clip-stop", type: "button", hidden: true }, icon("stop", { size: 20 }), "Stop"),
    previewButton: h("button", { class: "btn btn-secondary clip-preview", type: "button", "aria-pressed": "false", hidden: true }, icon("play", { size: 20 }), "Preview"),
    rerecordButton: h("button", { class: "btn btn-secondary clip-rerecord", type: "button", hidden: true }, icon("record", { size: 18 }), "Re-record"),
    closeButton: h("button", { class: "btn btn-ghost clip-close", type: "button" }, "Close"),
  };
}

function noteParts(id) {
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
  return { noteInput, noteField };
}

function joinParts(id) {
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
  return { joinInput, joinStatus, joinForm };
}

/**
 * The whole panel, folded: every element the controller touches, by name,
 * and `el`, the section to show. `id(name)` makes its ids.
 */
export function buildClipView(id, { mode, openText, hint, heading: headingText, sendText }) {
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
  const status = h("p", { class: "clip-status", role: "status", "aria-live": "polite" });
  const problem = h("p", { class: "form-error clip-error", role: "alert" });
  const b = buttons();
  const note = noteParts(id);
  const join = joinParts(id);
  const sendButton = h("button", { class: "btn btn-primary clip-send", type: "button", hidden: true }, icon("next", { size: 20 }), h("span", { class: "clip-send-text" }, sendText));
  const body = h(
    "div",
    { class: "clip-body" },
    wave,
    status,
    problem,
    h("div", { class: "clip-buttons" }, b.recordButton, b.stopButton, b.previewButton, b.rerecordButton),
    note.noteField,
  );
  const box = h(
    "div",
    { class: "clip-box", id: id("box"), hidden: true },
    h("div", { class: "clip-head" }, heading, clock),
    join.joinForm,
    body,
    h("div", { class: "clip-actions" }, sendButton, b.closeButton),
  );
  const el = h("section", { class: `clip-panel clip-panel-${mode}`, "aria-labelledby": id("heading"), dataset: { state: "closed", mode, preview: "none" } }, openButton, hintLine, box);
  return { el, box, body, openButton, hintLine, heading, clock, canvas, wave, status, problem, sendButton, sendText, ...b, ...note, ...join, saidAt: 0 };
}

function showButton(button, { shown, disabled }) {
  button.hidden = !shown;
  button.disabled = disabled;
}

/**
 * Shows the recorder `state` on the panel; `opened` whether it is open,
 * `joinNeeded` whether a guest must give a name first, `before` the state
 * before (its announcement is said only when new).
 */
export function showRecorder(view, state, { opened, joinNeeded, before = null }) {
  const c = recorderControls(state);
  view.el.dataset.state = opened ? state.status : "closed";
  showButton(view.recordButton, c.record);
  view.recordButton.setAttribute("aria-pressed", String(c.record.pressed));
  showButton(view.stopButton, c.stop);
  showButton(view.previewButton, c.preview);
  showButton(view.rerecordButton, c.rerecord);
  showButton(view.sendButton, c.send);
  if (c.send.busy) view.sendButton.setAttribute("aria-busy", "true");
  else view.sendButton.removeAttribute("aria-busy");
  setText(view.sendButton.querySelector(".clip-send-text"), c.send.busy ? "Sending…" : view.sendText);
  view.noteInput.disabled = state.status === "sending";
  view.closeButton.disabled = state.status === "sending";
  view.clock.dataset.recording = String(isTaking(state));
  setText(view.clock, clockLabel(state));
  setText(view.problem, state.error);
  if (state.announce && (!before || state.announce !== before.announce)) setText(view.status, state.announce);
  if (state.sent) view.el.dataset.clipId = state.sent.id;
  view.joinForm.hidden = !joinNeeded;
  view.body.hidden = joinNeeded;
  if (joinNeeded) view.sendButton.hidden = true;
}

/** Opens the panel (true) or folds it back to its button (false). */
export function showOpened(view, opened) {
  view.openButton.hidden = opened;
  view.hintLine.hidden = opened;
  view.openButton.setAttribute("aria-expanded", String(opened));
  view.box.hidden = !opened;
  if (opened) for (const [name, value] of Object.entries(METER_ATTRS)) view.wave.setAttribute(name, value);
  else for (const name of Object.keys(METER_ATTRS)) view.wave.removeAttribute(name);
}

/** The microphone's level (0…1) on the meter; a screen reader hears it at most once a second. */
export function showLevel(view, value, now) {
  const percent = Math.round(value * 100);
  view.wave.dataset.level = String(percent);
  if (shouldSayLevel(percent, now, view.saidAt, view.wave.getAttribute("aria-valuenow"), ARIA_EVERY_MS)) {
    view.saidAt = now;
    view.wave.setAttribute("aria-valuenow", String(percent));
    view.wave.setAttribute("aria-valuetext", levelText(percent));
  }
}

/** The preview button: pressed (a stop sign) while the preview plays. */
export function showPreviewPlaying(view, playing) {
  view.previewButton.setAttribute("aria-pressed", String(playing));
  view.previewButton.replaceChildren(icon(playing ? "stop" : "play", { size: 20 }), "Preview");
}

/** Focus to `target` when it was on a control that is now hidden or disabled (or nowhere). */
export function keepFocus(view, target) {
  const active = document.activeElement;
  const { el } = view;
  if (!active || active === document.body || (el.contains(active) && (active.hidden || active.closest("[hidden]") || active.disabled))) {
    if (el.isConnected && !target.hidden && !target.disabled) target.focus({ preventScroll: false });
  }
}
