// Warms the station the dial shows (the one "Tune in" would open): once
// the needle has rested on it for a moment, its station, timeline and the
// audio around its play position are fetched (early-station.js), so tuning
// in finds them there. One station at a time, only one that plays and that
// a tap opens (not one behind an access code), and not when the browser
// asks to save data.

import { askEarly } from "../../live/early-station.js";

const REST_MS = 400;
let timer = null;
let warmedID = null;

/** The dial shows `station` now (`opens`: a tap tunes straight in). */
export function warmShown(station, opens) {
  clearTimeout(timer);
  if (!station || !station.nowPlaying || !opens || station.id === warmedID) return;
  const saving = typeof navigator !== "undefined" && navigator.connection && navigator.connection.saveData;
  if (saving) return;
  timer = setTimeout(() => {
    // Still on the dial (not tuned in or gone elsewhere meanwhile).
    if (document.body.dataset.route !== "dial") return;
    warmedID = station.id;
    askEarly(station.id);
  }, REST_MS);
}
