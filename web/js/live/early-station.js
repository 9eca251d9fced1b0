// A station link's first requests, sent before the app has loaded. index.html
// runs this module on its own (async), so on a link like /#/station/ID the
// station, its timeline and the audio around the play position are being
// fetched while the rest of the app's modules still load; the station
// screen then takes what was asked (takeEarly) instead of asking again:
//
// - the station (GET /api/stations/ID): the screen's lookup, and the proof
//   that the link is right before the live connection opens;
// - its timeline (GET …/timeline): the player can fetch and schedule the
//   song playing before the live connection's snapshot arrives;
// - the head and a byte range of the song playing, around where it will be
//   (range-start.js warm()): the player's own requests find them done.
// - once the station has answered, its live connection (early-live.js): the
//   WebSocket's handshake, its snapshot and the clock's probes, so the clock
//   is ready when the screen tunes in. Only for a link: the dial's warm-up
//   (views/dial/warm.js) doesn't connect, as a connection counts a listener.
// - for a link, with the station and its timeline, the page's player
//   (early-player.js, loaded then): it plays before the app has loaded.
//
// A station nobody listens to is asleep: its timeline shows nothing playing
// until the live connection wakes it, so nothing is warmed then.

import { api } from "../api/api.js";
import { warm } from "../playback/range-start.js";
import { prepareContext, preparePiece } from "../playback/early-audio.js";
import { openEarlyLive } from "./early-live.js";

// Answers older than this are asked again (the screen's lookups are fresh).
const FRESH_MS = 10_000;
// A link's player starts on a timeline at most this old (as the screen's).
const PLAY_FRESH_MS = 3000;
// A warm-up covers this much more than a tune-in's piece: the position moves
// on while the app loads.
const WARM_SECONDS = 10;
// A link's piece, decoded ahead (early-audio.js), lasts this long past the
// position: the app loads meanwhile, and the player wants 2 s more from
// where it starts.
const PREPARE_SECONDS = 8;
// The warm-up starts at the position now: the player, asking later, asks
// from further on, so its range lies inside the one warmed and is shared.

const early = new Map(); // station id → {at, station, timeline}

/** The station id of a station route (#/station/ID, not its sub-pages), or null. */
export function stationOfHash(hash) {
  const match = /^#\/station\/([^/?#]+)\/?(?:\?.*)?$/.exec(hash || "");
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/**
 * Asks for station `id`, its timeline and the audio playing on it now;
 * `link`: the page opened on it, so the audio is decoded ahead too.
 */
export function askEarly(id, { link = false } = {}) {
  const at = performance.now();
  const station = api.station(id);
  const timeline = api.timeline(id);
  // Unhandled rejections are the screen's to report, once it asks.
  station.catch(() => {});
  // The timeline as it came, for the screen to give the player at once.
  timeline.then((t) => {
    asked.timelineNow = t;
    warmTimeline(t, at, link);
  }, () => {});
  const asked = { at, station, timeline, timelineNow: null, stationKnown: false };
  // Known to be there: the screen may open the live connection at once.
  station.then(() => (asked.stationKnown = true), () => {});
  early.set(id, asked);
  return asked;
}

/** What was asked for station `id` lately ({station, timeline} promises), once; or null. */
export function takeEarly(id) {
  const asked = early.get(id);
  early.delete(id);
  return asked && performance.now() - asked.at < FRESH_MS ? asked : null;
}

/** The station screen's first requests: those the page sent as it opened, or new ones. */
export function earlyFor(id) {
  const asked = takeEarly(id);
  if (asked) return asked;
  askEarly(id);
  return takeEarly(id);
}

/**
 * Warms the head and range of the song playing on timeline `t` (fetched at
 * `asked`); `prepare`: decodes them too (early-audio.js).
 */
export function warmTimeline(t, asked = performance.now(), prepare = false) {
  const entry = t && t.current;
  if (!entry || !entry.track || entry.source === "live" || !entry.track.audioURL || !Number.isFinite(t.serverTime)) return;
  if (t.pausedAt != null) return;
  // The server's clock when it answered, moved on by the time since.
  const now = t.serverTime + (performance.now() - asked) / 2;
  const position = (now - entry.start + (entry.offsetMs || 0)) / 1000;
  if (!(position >= 0) || position * 1000 >= (entry.offsetMs || 0) + entry.durationMs) return;
  const { audioURL, format, durationMs } = entry.track;
  if (prepare && preparePiece(audioURL, format, durationMs / 1000, position, PREPARE_SECONDS)) return;
  warm(audioURL, format, durationMs / 1000, position, WARM_SECONDS);
}

// Run by index.html as the page opens: a station link starts at once.
if (typeof location !== "undefined") {
  const id = stationOfHash(location.hash);
  if (id && !early.has(id)) {
    const asked = askEarly(id, { link: true });
    // The AudioContext while the station's requests are out (making one
    // can take a long task; the live socket's probes come after it).
    prepareContext();
    asked.station.then(() => openEarlyLive(id), () => {});
    Promise.all([asked.station, asked.timeline, import("../playback/early-player.js")]).then(
      ([station, timeline, { playEarly }]) => {
        if (performance.now() - asked.at < PLAY_FRESH_MS) playEarly(station, timeline);
      },
      () => {},
    );
  }
}
