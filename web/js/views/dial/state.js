// The dial's state, apart from the screen that shows it: the server's
// sections, every station in dial order, those of them with a place on the
// band, which one is selected, the frequency the readout shows (where a
// sweep starts from) and whether the library is empty. Plain data and pure
// functions: the render modules read it, views/dial.js changes it.

import { api } from "../../api/api.js";
import { buildHash, stationHref } from "../../router.js";
import { isFrequency } from "../../ui/frequency.js";

export function createDialState() {
  return {
    /** The server's sections ({kind, stations}), none empty, no station twice. */
    sections: [],
    /** Every station in dial order. */
    all: [],
    /** Those of `all` with a frequency: the marks on the band. */
    stations: [],
    selectedID: null,
    /** The frequency (MHz) the readout shows now, or null: a sweep starts there. */
    shownFrequency: null,
    libraryEmpty: false,
  };
}

export function isOwn(station) {
  return station.role === "owner" || station.role === "codj";
}

export function onBand(station) {
  return isFrequency(station.frequency);
}

/** Where a station's card leads: a code-protected station you haven't joined asks for its code. */
export function stationLink(station) {
  if (station.visibility === "code" && station.role === "none") {
    return station.frequency ? buildHash(["join", station.frequency]) : buildHash(["join"]);
  }
  return stationHref(station.id);
}

export function selectedStation(state) {
  return state.all.find((s) => s.id === state.selectedID) || null;
}

/** The station `delta` places along the band from the selected one (wrapping), or null. */
export function stepTarget(state, delta) {
  const { stations } = state;
  if (!stations.length) return null;
  const at = stations.findIndex((s) => s.id === state.selectedID);
  const index = at === -1 ? (delta > 0 ? -1 : 0) : at;
  return stations[(index + delta + stations.length) % stations.length];
}

/** The station on the band nearest to `frequency` (MHz), or null. */
export function nearestStation(state, frequency) {
  const distance = (s) => Math.abs(parseFloat(s.frequency) - frequency);
  return state.stations.reduce((best, s) => (!best || distance(s) < distance(best) ? s : best), null);
}

/**
 * Takes a fresh dial: drops repeated stations and emptied sections, and
 * keeps the selection if its station is still there (else selects the first
 * on the band, or the first at all).
 */
export function applySections(state, loaded) {
  const seen = new Set();
  state.sections = loaded
    .map((section) => ({ ...section, stations: section.stations.filter((s) => s && s.id && !seen.has(s.id) && seen.add(s.id)) }))
    .filter((section) => section.stations.length);
  state.all = state.sections.flatMap((section) => section.stations);
  state.stations = state.all.filter(onBand);
  if (!state.all.some((s) => s.id === state.selectedID)) {
    state.selectedID = state.stations.length ? state.stations[0].id : state.all.length ? state.all[0].id : null;
    state.shownFrequency = null;
  }
}

/**
 * GET /api/dial, or for a server without it the public list split into on
 * the air and quiet.
 */
export async function loadDial() {
  try {
    const dial = await api.dial();
    return (dial && Array.isArray(dial.sections) ? dial.sections : []).filter((s) => s && Array.isArray(s.stations) && s.stations.length);
  } catch (error) {
    if (error.status !== 404) throw error;
    const list = await api.stations();
    return [
      { kind: "discover", stations: list.filter((s) => s.onAir) },
      { kind: "quiet", stations: list.filter((s) => !s.onAir) },
    ].filter((s) => s.stations.length);
  }
}
