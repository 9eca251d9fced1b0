// The stations on the dial, in dial order: the ones you hold keys for
// first, then the server's order (on the air first, busiest first).

import { api } from "./api.js";
import { ownerKeys } from "./keys.js";

let cached = [];

export function dialOrder(stations) {
  const own = new Set(ownerKeys.stationIDs());
  const mine = stations.filter((s) => own.has(s.id));
  const live = stations.filter((s) => !own.has(s.id) && s.onAir);
  const quiet = stations.filter((s) => !own.has(s.id) && !s.onAir);
  return [...mine, ...live, ...quiet];
}

export async function loadStations() {
  cached = dialOrder(await api.stations());
  return cached;
}

export function cachedStations() {
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

export function isOwn(stationID) {
  return Boolean(ownerKeys.get(stationID));
}

/** FM band position of a frequency code, 0…1. */
export const BAND_MIN = 87.5;
export const BAND_MAX = 108;
export function bandPosition(frequency) {
  const f = parseFloat(frequency);
  if (!Number.isFinite(f)) return 0.5;
  return Math.min(1, Math.max(0, (f - BAND_MIN) / (BAND_MAX - BAND_MIN)));
}
