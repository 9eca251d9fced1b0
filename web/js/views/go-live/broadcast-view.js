// The Go live panel's DOM (broadcast.js's panel, drawn here): the open
// button, the studio panel with its meter, microphone and music-bed strips,
// the title form and the buttons, made once, and the small functions that
// show a state, the meter, the music bed's button and the microphones.
// Every word is set as text; nothing here reads from data as markup. The
// decisions (what a state shows, the meter's numbers) are
// broadcast-model.js's; the controller is broadcast-panel.js.

import { h, fill, setText } from "../../ui/dom.js";
import { TITLE_MAX } from "./broadcast-model.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// The microphone and the music note: fixed path data, never from data.
const GLYPHS = {
  mic: "M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM6 11a6 6 0 0 0 12 0M12 17v4M9 21h6",
  note: "M9 18V6l10-2v12M9 18a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0zM19 16a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0z",
};

function glyph(name, size = 22) {
  const svg = document.createElementNS(SVG_NS, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: size, height: size, class: `icon icon-${name}`, "aria-hidden": "true", focusable: "false" })) {
    svg.setAttribute(k, String(v));
  }
  const path = document.createElementNS(SVG_NS, "path");
  for (const [k, v] of Object.entries({ d: GLYPHS[name], fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" })) {
    path.setAttribute(k, v);
  }
  svg.append(path);
  return svg;
}

/** The outgoing level meter and its dB scale. */
function meterParts(id) {
  const meterLit = h("span", { class: "broadcast-meter-lit" });
  const meterPeak = h("span", { class: "broadcast-meter-peak" });
  const meter = h(
    "div",
    {
      class: "broadcast-meter", role: "meter", id: id("meter"), "aria-label": "Outgoing level",
      "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0", "aria-valuetext": "Silent",
    },
    meterLit,
    meterPeak,
  );
  const scale = h(
    "div",
    { class: "broadcast-scale", "aria-hidden": "true" },
    ...[[-60, 0], [-40, 33.3], [-20, 66.7], [-10, 83.3], [0, 100]].map(([db, at]) => h("span", { style: { left: `${at}%` } }, db === 0 ? "0 dB" : String(db))),
  );
  return { meter, scale };
}

/** The microphone's strip: the picker (when there is more than one) and the fader. */
function micStripParts(id) {
  const micSelect = h("select", { class: "input broadcast-mic-select", id: id("mic") });
  const micPick = h("div", { class: "broadcast-field", hidden: true }, h("label", { class: "label", for: id("mic") }, "Microphone"), micSelect);
  const micFader = h("input", { class: "broadcast-fader", id: id("mic-level"), type: "range", min: "0", max: "100", step: "1", value: "100" });
  const micStrip = h(
    "fieldset",
    { class: "broadcast-strip broadcast-strip-mic" },
    h("legend", { class: "broadcast-legend" }, glyph("mic", 18), "Voice"),
    micPick,
    h("label", { class: "label", for: id("mic-level") }, "Microphone level"),
    micFader,
  );
  return { micSelect, micPick, micFader, micStrip };
}

/** The music bed's strip: the file, play, its fader, talk-over and "hear it here". */
function bedStripParts(id) {
  const bedInput = h("input", { class: "broadcast-file", id: id("bed"), type: "file", accept: "audio/*" });
  const bedPlay = h("button", { class: "btn btn-small btn-secondary broadcast-bed-play", type: "button", "aria-pressed": "false", disabled: true }, "Play the music");
  const bedFader = h("input", { class: "broadcast-fader", id: id("bed-level"), type: "range", min: "0", max: "100", step: "1", value: "70" });
  const duckSwitch = h("input", { class: "broadcast-switch-input", id: id("duck"), type: "checkbox", role: "switch", checked: true, "aria-describedby": id("duck-hint") });
  const duckLamp = h("span", { class: "broadcast-duck-lamp", "aria-hidden": "true" }, "Music down");
  const monitor = h("input", { class: "broadcast-check-input", id: id("monitor"), type: "checkbox" });
  const bedStrip = h(
    "fieldset",
    { class: "broadcast-strip broadcast-strip-bed" },
    h("legend", { class: "broadcast-legend" }, glyph("note", 18), "Music bed (optional)"),
    h("label", { class: "label", for: id("bed") }, "A music file from this device"),
    bedInput,
    h("div", { class: "broadcast-bed-row" }, bedPlay),
    h("label", { class: "label", for: id("bed-level") }, "Music level"),
    bedFader,
    h(
      "div",
      { class: "broadcast-switch-row" },
      h("label", { class: "broadcast-switch", for: id("duck") }, duckSwitch, h("span", { class: "broadcast-switch-track", "aria-hidden": "true" }), "Talk over the music"),
      duckLamp,
    ),
    h("p", { class: "broadcast-small", id: id("duck-hint") }, "While you speak the music drops to a fifth, and comes back when you stop."),
    h("label", { class: "broadcast-check", for: id("monitor") }, monitor, "Hear the music on this device (use headphones)"),
  );
  return { bedInput, bedPlay, bedFader, duckSwitch, duckLamp, monitor, bedStrip };
}

/** The show's title form. */
function titleParts(id) {
  const titleInput = h("input", {
    class: "input broadcast-title-input", id: id("title"), type: "text", maxlength: String(TITLE_MAX), placeholder: "Live",
    autocomplete: "off", "aria-describedby": id("title-hint"),
  });
  const titleSend = h("button", { class: "btn btn-small btn-secondary broadcast-title-send", type: "submit", hidden: true }, "Update title");
  const titleForm = h(
    "form",
    { class: "broadcast-title-form", novalidate: true },
    h("label", { class: "label", for: id("title") }, "Show title (optional)"),
    h("div", { class: "input-row broadcast-title-row" }, titleInput, titleSend),
    h("p", { class: "broadcast-small", id: id("title-hint") }, "What listeners see as the show's title; \"Live\" when empty."),
  );
  return { titleInput, titleSend, titleForm };
}

/**
 * The whole panel, closed: every element the controller touches, by name,
 * and `el`, the section to put in the booth. `id(name)` makes its ids.
 */
export function buildBroadcastView(id) {
  const openButton = h(
    "button",
    { class: "btn btn-secondary btn-broadcast", type: "button", "aria-expanded": "false", "aria-controls": id("panel"), "aria-describedby": id("hint") },
    glyph("mic"),
    "Go live",
  );
  const hint = h("p", { class: "broadcast-hint", id: id("hint") }, "Talk to your listeners from this browser, with music under you if you like.");
  const heading = h("h2", { class: "broadcast-heading", id: id("heading"), tabindex: "-1" }, "Go live from this browser");
  const lamp = h("span", { class: "broadcast-lamp offair-lamp" }, "Off the air");
  const clock = h("span", { class: "broadcast-clock", "aria-hidden": "true" }, "0:00");
  const status = h("p", { class: "broadcast-status", role: "status" });
  const problem = h("p", { class: "form-error broadcast-error", role: "alert" });
  const uplink = h("p", { class: "broadcast-uplink", role: "status", hidden: true });
  const { meter, scale } = meterParts(id);
  const mic = micStripParts(id);
  const bed = bedStripParts(id);
  const title = titleParts(id);
  const startButton = h("button", { class: "btn btn-primary broadcast-start", type: "button" }, glyph("mic"), "Go on the air");
  const stopButton = h("button", { class: "btn broadcast-stop", type: "button", hidden: true }, "Stop");
  const closeButton = h("button", { class: "btn btn-ghost broadcast-close", type: "button" }, "Close");
  const panel = h(
    "div",
    { class: "broadcast-panel", id: id("panel"), hidden: true },
    h("div", { class: "broadcast-head" }, heading, h("div", { class: "broadcast-onair" }, lamp, clock)),
    h("div", { class: "broadcast-meter-box" }, meter, scale),
    status,
    problem,
    uplink,
    title.titleForm,
    h("div", { class: "broadcast-actions" }, startButton, stopButton, closeButton),
    mic.micStrip,
    bed.bedStrip,
  );
  const el = h("section", { class: "broadcast", "aria-labelledby": id("heading"), dataset: { state: "closed" } }, openButton, hint, panel);
  return {
    el, panel, openButton, hint, heading, lamp, clock, status, problem, uplink, meter,
    startButton, stopButton, closeButton, ...mic, ...bed, ...title,
  };
}

/** Shows `look` (broadcast-model.js's panelLook) on the panel. */
export function showPanelState(view, state, look) {
  view.el.dataset.state = state;
  view.openButton.hidden = look.open;
  view.hint.hidden = look.open;
  view.openButton.setAttribute("aria-expanded", String(look.open));
  view.panel.hidden = !look.open;
  view.startButton.hidden = look.active;
  view.startButton.disabled = look.startDisabled;
  view.stopButton.hidden = !look.active;
  view.stopButton.disabled = look.stopDisabled;
  setText(view.stopButton, look.stopLabel);
  view.closeButton.hidden = look.active;
  view.titleSend.hidden = !look.titleSend;
  view.lamp.className = `broadcast-lamp ${look.onAir ? "onair-lamp" : "offair-lamp"}`;
  setText(view.lamp, look.lampText);
  view.clock.hidden = !look.onAir;
  view.micSelect.disabled = look.micDisabled;
  view.bedPlay.disabled = look.bedPlayDisabled;
}

/** The music bed's play button: pressed while it plays. */
export function showBedPlaying(view, playing) {
  view.bedPlay.setAttribute("aria-pressed", String(playing));
  setText(view.bedPlay, playing ? "Pause the music" : "Play the music");
}

/** The microphone picker: shown only for two or more, the desk's own selected. */
export function showMicrophones(view, choices, selectedID) {
  view.micPick.hidden = choices.length < 2;
  fill(view.micSelect, ...choices.map((c) => h("option", { value: c.id, selected: c.id === selectedID }, c.label)));
}

/** Puts focus on `target` when it was on something now hidden in the panel (or nowhere). */
export function keepFocus(view, target) {
  const active = document.activeElement;
  if (!active || active === document.body || (view.el.contains(active) && (active.hidden || active.closest("[hidden]") || active.disabled))) {
    if (view.el.isConnected && !target.hidden) target.focus({ preventScroll: false });
  }
}
