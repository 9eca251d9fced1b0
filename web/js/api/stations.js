// The stations on the dial, in dial order: yours, friends on the air,
// friends quiet, then public stations on the air (the server's /api/dial).

import { api } from "./api.js";

let cached = [];

export async function loadStations() {
  try {
    const dial = await api.dial();
    cached = (dial.sections || []).flatMap((section) => section.stations || []);
  } catch {
    cached = await api.stations();
  }
  return cached;
}

/** The station `step` places away on the dial (wrapping), or null. */
export async function neighbour(stationID, step) {
  let list = cached;
  if (!list.some((s) => s.id === stationID)) {
    try {
      list = await loadStations();
    } catch {
      return null;
    }
  }
  if (list.length < 2) return null;
  const index = list.findIndex((s) => s.id === stationID);
  const next = (index + step + list.length) % list.length;
  return list[index === -1 ? 0 : next];
}

/** FM band position of a frequency code, 0…1. */
export const BAND_MIN = 87.5;
export const BAND_MAX = 108;
export function bandPosition(frequency) {
  const f = parseFloat(frequency);
  if (!Number.isFinite(f)) return 0.5;
  return Math.min(1, Math.max(0, (f - BAND_MIN) / (BAND_MAX - BAND_MIN)));
}
