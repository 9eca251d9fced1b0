// Picks the page's player: Web Audio, scheduled against the synced clock
// ("Sync: Web Audio"), or the classic <audio> element ("Sync: basic") where
// the Web Audio API is missing or when asked for with `?audio=basic` (in the
// address's query or the hash's). Also the measurement hook tests and the
// benchmark read: window.__wavelength.report().

import { BasicPlayer } from "./basic-player.js";
import { requestedMode } from "./early-audio.js";
import { WebAudioPlayer, webAudioSupported } from "./web-audio-player.js";

export { requestedMode };

export const MODE_LABELS = { webaudio: "Sync: Web Audio", basic: "Sync: basic" };

export function createPlayer(clock) {
  const asked = requestedMode();
  if (asked !== "basic" && webAudioSupported()) return new WebAudioPlayer(clock);
  return new BasicPlayer(clock);
}

// Wall-clock time with sub-millisecond resolution: Date.now() ticks once a
// millisecond, so find the performance time of its ticks and count from
// there. A tick's performance time can only be read late (the thread may be
// preempted between the two reads), so the largest of a few is kept. The
// server's clock is the wall clock of the machine it runs on, so a harness
// on that machine compares this with the page's estimate of it.
let wallBase = null;
let wallBaseAt = -Infinity;

function tickEdge() {
  const first = Date.now();
  const limit = performance.now() + 3;
  let wall = first;
  let at = performance.now();
  while (wall === first && at < limit) {
    wall = Date.now();
    at = performance.now();
  }
  return wall !== first ? wall - at : null;
}

function wallAt(perf) {
  const now = performance.now();
  if (wallBase === null || now - wallBaseAt > 5000) {
    let best = null;
    for (let i = 0; i < 4; i++) {
      const edge = tickEdge();
      if (edge !== null && (best === null || edge > best)) best = edge;
    }
    wallBase = best ?? Date.now() - performance.now();
    wallBaseAt = now;
  }
  return wallBase + perf;
}

/**
 * What the page hears and believes, at one instant: the entry, the file
 * position heard (positionMs, from the schedule), the page's estimate of the
 * server clock (serverTime) and the true wall clock (wallTime) at that same
 * instant, the clock estimate, the mode and tune-in to first sound.
 */
export function createReport(clock, player) {
  return function report() {
    const perf = performance.now();
    const serverTime = clock.serverAt(perf);
    const wallTime = wallAt(perf);
    const heard = player.positionAt(perf);
    const entry = heard ? heard.entry : player.entry;
    const estimate = clock.estimate;
    const result = {
      entryID: entry ? entry.id : null,
      trackID: entry ? entry.track.id : null,
      entryStart: entry ? entry.start : null,
      offsetMs: entry ? entry.offsetMs || 0 : null,
      positionMs: heard ? heard.positionMs : null,
      serverTime,
      wallTime,
      perfTime: perf,
      clockOffsetMs: clock.offset,
      estimatedOffsetMs: estimate ? estimate.offset : null,
      rttMs: estimate ? estimate.bestRoundTrip : null,
      probes: clock.sampleCount,
      mode: player.mode,
      state: player.state,
      firstSoundMs: player.firstSoundMs,
      firstSoundAt: player.firstSoundAt ?? null,
      tunedAt: player.tunedAt ?? null,
      // From the tune-in to the first sound and on (performance ms): the
      // timeline known, the audio asked for, its head and range fetched, the
      // piece decoded, clock and output ready, the first sound, then the
      // whole file fetched and decoded behind it and the move over to it.
      stages: player.stages ? { ...player.stages } : null,
      format: entry && entry.track ? entry.track.format || null : null,
      syncErrorMs: heard ? heard.positionMs - (serverTime - heard.entry.start + (heard.entry.offsetMs || 0)) : null,
    };
    if (player.details) result.details = player.details();
    // A live show's relay, while one plays (it has no position on the timeline).
    if (player.live && player.live.url) result.live = player.live.status();
    return result;
  };
}
