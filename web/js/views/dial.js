// The dial: an FM band with every station as a mark, a needle you move
// between them (buttons, arrow keys, dragging), a glowing readout, and the
// station list below in the server's sections (GET /api/dial): your
// stations, friends on the air, friends' quiet stations, then whoever else
// is on the air. A station without a frequency (none right now, or hidden
// from you) stays in the list but has no place on the band. Under the
// lists, "On this network": stations other Wavelength servers on the LAN
// announce (dial/nearby.js), while there are any.
//
// This module wires the screen together and owns its behaviour (selecting,
// tuning in, refreshing, the keyboard and dragging); the state and the
// render functions are in dial/.

import { api } from "../api/api.js";
import { h, fill, setText } from "../ui/dom.js";
import { session } from "../api/session.js";
import { bandPosition } from "../api/stations.js";
import { applySections, createDialState, loadDial, nearestStation, selectedStation, stationLink, stepTarget } from "./dial/state.js";
import { createRadio, frequencyAt, markSelected, placeNeedle, renderMarks, renderReadout, stopSweep } from "./dial/radio.js";
import { renderLists, renderNotices } from "./dial/lists.js";
import { createFrequencyForm, createOwnStationForms } from "./dial/forms.js";
import { clipsAPI } from "../api/clips.js";
import { createNearby } from "./dial/nearby.js";
import { NEARBY_REFRESH_MS, nearbyModel } from "./dial/nearby-model.js";

const REFRESH_MS = 5000;

export function createDialView() {
  const state = createDialState();
  let refreshTimer = null;
  let destroyed = false;

  const face = createRadio({ onStep: (delta) => step(delta), onTune: () => tuneIn() });
  const { radio, band, freqNum } = face;
  const notices = h("div", { class: "notices" });
  const lists = h("div", { class: "station-lists" }, h("p", { class: "loading-line" }, "Scanning the band…"));
  const forms = createOwnStationForms();
  // Stations other servers on this network announce (dial/nearby.js).
  const nearby = createNearby();
  let nearbyTimer = null;
  let nearbyAsking = null;

  const el = h(
    "div",
    { class: "screen dial-screen" },
    h("h1", { class: "visually-hidden", tabindex: "-1" }, "Wavelength: the dial"),
    radio,
    h("div", { class: "dial-side" }, createFrequencyForm(), notices),
    lists,
    nearby.el,
    forms.el,
  );

  function select(id, { animate = true } = {}) {
    state.selectedID = id;
    renderReadout(face, state, { animate });
    markSelected(face, id);
  }

  function step(delta) {
    const target = stepTarget(state, delta);
    if (target) select(target.id);
  }

  function tuneIn(station = selectedStation(state)) {
    if (station) location.hash = stationLink(station);
  }

  async function refresh({ first = false } = {}) {
    clearTimeout(refreshTimer);
    if (!first && document.hidden) {
      refreshTimer = setTimeout(() => refresh(), REFRESH_MS);
      return;
    }
    try {
      const [loaded, health] = await Promise.all([loadDial(), first ? api.health().catch(() => null) : null]);
      if (destroyed) return;
      if (health) state.libraryEmpty = health.tracks === 0;
      applySections(state, loaded);
      renderMarks(face, state);
      renderReadout(face, state, { animate: false });
      renderLists(lists, state, select);
      renderNotices(notices, state, null, refresh);
      el.dataset.state = "ready";
    } catch (error) {
      if (destroyed) return;
      renderNotices(notices, state, error, refresh);
      if (!state.all.length) fill(lists);
      el.dataset.state = "error";
    }
    if (!destroyed) refreshTimer = setTimeout(() => refresh(), REFRESH_MS);
  }

  // "On this network": asked now, every NEARBY_REFRESH_MS while the dial is
  // open and shown, and again when the window comes back into focus.
  async function refreshNearby() {
    clearTimeout(nearbyTimer);
    nearbyTimer = null;
    if (destroyed) return;
    if (document.hidden) {
      nearbyTimer = setTimeout(refreshNearby, NEARBY_REFRESH_MS);
      return;
    }
    if (nearbyAsking) nearbyAsking.abort();
    const asking = new AbortController();
    nearbyAsking = asking;
    try {
      const answer = await clipsAPI.nearby({ signal: asking.signal });
      if (destroyed || nearbyAsking !== asking) return;
      nearby.render(nearbyModel(answer));
    } catch (error) {
      if (destroyed || nearbyAsking !== asking || (error && error.name === "AbortError")) return;
      // A server without the list (404) never will have it; otherwise keep what was shown.
      if (error && error.status === 404) {
        nearby.render(nearbyModel(null));
        nearbyAsking = null;
        return;
      }
    }
    if (nearbyAsking === asking) nearbyAsking = null;
    if (!destroyed) nearbyTimer = setTimeout(refreshNearby, NEARBY_REFRESH_MS);
  }
  const onFocus = () => refreshNearby();
  const onVisible = () => {
    if (!document.hidden) refreshNearby();
  };
  window.addEventListener("focus", onFocus);
  document.addEventListener("visibilitychange", onVisible);

  band.addEventListener("keydown", (event) => {
    const keys = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
    const { stations } = state;
    if (event.key in keys) {
      event.preventDefault();
      step(keys[event.key]);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      if (stations.length) select(stations[event.key === "Home" ? 0 : stations.length - 1].id);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      tuneIn();
    }
  });

  // Dragging across the band moves the needle freely; letting go locks onto
  // the nearest station, like finding a signal.
  let dragging = false;
  band.addEventListener("pointerdown", (event) => {
    if (!state.stations.length) return;
    dragging = true;
    band.setPointerCapture(event.pointerId);
    radio.classList.add("is-dragging");
    radio.classList.remove("no-signal");
    const f = frequencyAt(face, event.clientX);
    placeNeedle(face, bandPosition(f));
    setText(freqNum, f.toFixed(1));
  });
  band.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    const f = frequencyAt(face, event.clientX);
    placeNeedle(face, bandPosition(f));
    setText(freqNum, f.toFixed(1));
    const near = nearestStation(state, f);
    radio.classList.toggle("is-locked", Boolean(near && Math.abs(parseFloat(near.frequency) - f) < 0.25));
  });
  const endDrag = (event) => {
    if (!dragging) return;
    dragging = false;
    radio.classList.remove("is-dragging", "is-locked");
    const near = nearestStation(state, frequencyAt(face, event.clientX));
    state.shownFrequency = frequencyAt(face, event.clientX);
    if (near) select(near.id);
  };
  band.addEventListener("pointerup", endDrag);
  band.addEventListener("pointercancel", endDrag);

  const unsubscribe = session.onChange(() => {
    forms.render();
    refresh();
  });
  forms.render();
  refresh({ first: true });
  refreshNearby();

  return {
    el,
    title: "Wavelength",
    update: (route) => route.path.length === 0,
    destroy() {
      destroyed = true;
      unsubscribe();
      clearTimeout(refreshTimer);
      clearTimeout(nearbyTimer);
      if (nearbyAsking) nearbyAsking.abort();
      window.removeEventListener("focus", onFocus);
      document.removeEventListener("visibilitychange", onVisible);
      stopSweep(face);
    },
  };
}
