// The dial's radio face: the glowing readout (frequency, name, what's on),
// the FM band with a mark per station and the needle, and the previous /
// tune in / next buttons. createRadio builds the elements once; the render
// functions bring them up to date with the dial's state.

import { h, fill, setText, icon, listenersText } from "../../ui/dom.js";
import { session } from "../../api/session.js";
import { stationHref } from "../../router.js";
import { bandPosition, BAND_MIN, BAND_MAX } from "../../api/stations.js";
import { frequencyDecimals, frequencyMHz } from "../../ui/frequency.js";
import { isOwn, onBand, selectedStation, stationLink } from "./state.js";
import { visibilityBadge } from "./lists.js";
import { warmShown } from "./warm.js";

const SWEEP_MS = 420;

/** The band's printed scale: a tick every 0.5 MHz, a label every 2. */
function bandScale() {
  const scale = h("div", { class: "band-scale", "aria-hidden": "true" });
  for (let tenths = 880; tenths <= 1080; tenths += 5) {
    const f = tenths / 10;
    const major = tenths % 20 === 0;
    const tick = h("span", { class: major ? "tick tick-major" : tenths % 10 === 0 ? "tick tick-mid" : "tick" });
    tick.style.left = `${bandPosition(f) * 100}%`;
    scale.append(tick);
    if (major) {
      const label = h("span", { class: `tick-label${tenths % 40 === 0 ? "" : " tick-label-minor"}` }, String(f));
      label.style.left = `${bandPosition(f) * 100}%`;
      scale.append(label);
    }
  }
  return scale;
}

/**
 * @param {{onStep: (delta: number) => void, onTune: () => void}} actions
 * @returns the face's elements, and `sweepFrame`, the running sweep's animation frame
 */
export function createRadio({ onStep, onTune }) {
  const freqNum = h("span", { class: "freq-num" }, "—");
  const readoutName = h("p", { class: "readout-name" }, "Scanning the band…");
  const readoutNow = h("p", { class: "readout-now" });
  const readoutMeta = h("p", { class: "readout-meta" });
  const readout = h(
    "div",
    { class: "readout", "aria-live": "polite", "aria-atomic": "true" },
    h("p", { class: "readout-freq" }, freqNum, h("span", { class: "freq-unit" }, "FM")),
    readoutName,
    readoutNow,
    readoutMeta,
  );

  const scale = bandScale();
  const marks = h("div", { class: "band-marks", "aria-hidden": "true" });
  const needle = h("div", { class: "needle", "aria-hidden": "true" });
  const band = h(
    "div",
    {
      class: "band",
      role: "slider",
      tabindex: "0",
      "aria-label": "Tuning dial: left and right arrows change station, Enter tunes in",
      "aria-valuemin": String(BAND_MIN),
      "aria-valuemax": String(BAND_MAX),
    },
    h("div", { class: "band-glass" }, scale, marks, needle),
  );

  const prevButton = h(
    "button",
    { class: "btn btn-round btn-flip", type: "button", "aria-label": "Previous station", onclick: () => onStep(-1) },
    icon("prev", { size: 30 }),
  );
  const nextButton = h(
    "button",
    { class: "btn btn-round btn-flip", type: "button", "aria-label": "Next station", onclick: () => onStep(1) },
    icon("next", { size: 30 }),
  );
  const tuneButton = h(
    "button",
    { class: "btn btn-primary btn-tune", type: "button", onclick: () => onTune() },
    icon("play", { size: 26 }),
    h("span", { class: "tune-label" }, "Tune in"),
  );
  const controls = h("div", { class: "dial-controls" }, prevButton, tuneButton, nextButton);

  const radio = h("section", { class: "radio", "aria-label": "Tuner" }, readout, band, controls);
  return { radio, freqNum, readoutName, readoutNow, readoutMeta, scale, marks, needle, band, prevButton, nextButton, tuneButton, sweepFrame: null };
}

export function placeNeedle(face, k) {
  face.needle.style.left = `calc(16px + (100% - 32px) * ${k.toFixed(4)})`;
}

/** The frequency (MHz) under a pointer at `clientX`, clamped to the band. */
export function frequencyAt(face, clientX) {
  const rect = face.scale.getBoundingClientRect();
  const k = Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
  return BAND_MIN + k * (BAND_MAX - BAND_MIN);
}

export function stopSweep(face) {
  cancelAnimationFrame(face.sweepFrame);
}

/** Moves the needle to `frequency`, the readout's digits counting there unless `animate` is off. */
function sweepTo(face, state, frequency, animate) {
  const { radio, freqNum } = face;
  stopSweep(face);
  if (!frequency) {
    // No frequency to show: the needle rests where it was, dimmed.
    radio.classList.add("no-signal");
    radio.classList.remove("is-tuning");
    setText(freqNum, "—");
    state.shownFrequency = null;
    return;
  }
  radio.classList.remove("no-signal");
  const target = frequencyMHz(frequency);
  placeNeedle(face, bandPosition(target));
  const from = state.shownFrequency;
  state.shownFrequency = target;
  const decimals = frequencyDecimals(frequency);
  if (!animate || from === null || from === target || matchMedia("(prefers-reduced-motion: reduce)").matches) {
    setText(freqNum, frequency);
    return;
  }
  radio.classList.add("is-tuning");
  const t0 = performance.now();
  const frame = (t) => {
    const k = Math.min(1, (t - t0) / SWEEP_MS);
    const eased = 1 - Math.pow(1 - k, 3);
    setText(freqNum, (from + (target - from) * eased).toFixed(decimals));
    if (k < 1) face.sweepFrame = requestAnimationFrame(frame);
    else {
      setText(freqNum, frequency);
      radio.classList.remove("is-tuning");
    }
  };
  face.sweepFrame = requestAnimationFrame(frame);
}

/** The readout, the buttons and the slider's value for the selected station. */
export function renderReadout(face, state, { animate = false } = {}) {
  const { radio, freqNum, readoutName, readoutNow, readoutMeta, band, prevButton, nextButton, tuneButton } = face;
  const { all, stations } = state;
  const station = selectedStation(state);
  if (!station) {
    radio.classList.remove("no-signal");
    setText(freqNum, "—");
    setText(readoutName, all.length ? "" : "No stations on the band yet");
    setText(readoutNow, all.length ? "" : session.isUser ? "Start a party below, or tune in to yours." : "Sign up below and you'll be on the air.");
    fill(readoutMeta);
    tuneButton.disabled = true;
    prevButton.disabled = nextButton.disabled = true;
    band.removeAttribute("aria-valuenow");
    band.setAttribute("aria-valuetext", "No stations");
    return;
  }
  tuneButton.disabled = false;
  prevButton.disabled = nextButton.disabled = stations.length < 2 && (stations.length === 0 || onBand(station));
  sweepTo(face, state, station.frequency, animate);
  setText(readoutName, station.name);
  const np = station.nowPlaying;
  setText(readoutNow, np ? `${np.title} — ${np.artist}` : station.onAir ? "Between songs" : "Quiet until someone tunes in");
  readoutNow.classList.toggle("is-quiet", !np);
  const own = isOwn(station);
  const joins = stationLink(station) !== stationHref(station.id);
  warmShown(station, !joins);
  fill(
    readoutMeta,
    station.onAir ? h("span", { class: "onair-lamp" }, "On air") : h("span", { class: "offair-lamp" }, "Off air"),
    h("span", { class: "meta-item" }, icon("ear", { size: 16 }), listenersText(station.listeners)),
    own ? h("span", { class: "own-badge" }, station.role === "codj" ? "Co-DJ" : "Your station") : null,
    visibilityBadge(station),
  );
  const label = own ? "DJ booth" : joins ? "Join" : "Tune in";
  setText(tuneButton.querySelector(".tune-label"), label);
  const where = station.frequency ? ` on ${station.frequency} FM` : "";
  tuneButton.setAttribute("aria-label", `${own ? "Open the DJ booth of" : joins ? "Join" : "Tune in to"} ${station.name}${where}`);
  if (onBand(station)) {
    band.setAttribute("aria-valuenow", String(parseFloat(station.frequency)));
    band.setAttribute("aria-valuetext", `${station.frequency} FM, ${station.name}`);
  } else {
    band.removeAttribute("aria-valuenow");
    band.setAttribute("aria-valuetext", `${station.name}, no frequency`);
  }
}

/** One mark on the band per station with a frequency. */
export function renderMarks(face, state) {
  fill(
    face.marks,
    state.stations.map((station) => {
      const mark = h("span", {
        class: `mark${station.onAir ? " is-live" : ""}${isOwn(station) ? " is-own" : ""}${station.id === state.selectedID ? " is-selected" : ""}`,
        dataset: { id: station.id },
        title: `${station.frequency} ${station.name}`,
      });
      mark.style.left = `${bandPosition(station.frequency) * 100}%`;
      return mark;
    }),
  );
}

export function markSelected(face, id) {
  for (const mark of face.marks.children) mark.classList.toggle("is-selected", mark.dataset.id === id);
}
