// A station link plays before the app has loaded. Once the station has
// answered and its timeline is here, early-station.js loads this module (the
// player's modules are preloaded first) and makes the page's clock and
// player now: the clock takes the probes of the live socket the page opened
// (early-live.js) as they are answered, and the player starts on the
// timeline, taking the AudioContext and the piece decoded ahead
// (early-audio.js). The first sound doesn't wait for the rest of the app's
// modules to load. app.js then claims this clock and player (claimPlayer)
// instead of making its own, and the station screen finds the player
// playing its station (startedEarly) and leaves it be: the sound carries on.
//
// If the app claims first (it loaded before the station answered), nothing
// is made here and the app starts as before. Not claimed within HOLD_MS
// (the app failed to start), the player stops.

import { ServerClock } from "./clock.js";
import { createPlayer, requestedMode } from "./player.js";
import { webAudioSupported } from "./web-audio-player.js";
import { clockEarlyLive } from "../live/early-live.js";

const HOLD_MS = 15_000;

let claimed = false;
let made = null; // {clock, player, stationID, timer}

/**
 * The clock and player a station link made as it opened ({clock, player}),
 * or null; after this call none will be made. Called once, by app.js.
 */
export function claimPlayer() {
  claimed = true;
  if (!made) return null;
  clearTimeout(made.timer);
  return { clock: made.clock, player: made.player };
}

/**
 * Plays station `station` (its StationView: its id, its sound) on
 * `timeline` now, unless the app has claimed the player already or this
 * page asks for the <audio> element (made by the app, with the page).
 */
export function playEarly(station, timeline) {
  if (claimed || made || !station || !timeline) return;
  if (requestedMode() === "basic" || !webAudioSupported()) return;
  const clock = new ServerClock();
  const player = createPlayer(clock);
  if (station.sound) player.setSound(station.sound);
  player.setTimeline(timeline);
  player.start({ tunedAt: performance.now() });
  // The probes from now on; and the live socket's snapshot, if it comes
  // before the app: as fresh or fresher than the timeline fetched (a
  // station asleep shows nothing playing over HTTP until the socket wakes
  // it). The app's connection reads it again.
  clockEarlyLive(station.id, clock, (snapshot) => {
    const t = snapshot.timeline;
    if (!player.wantPlay || (player.timeline && t.revision < player.timeline.revision)) return;
    if (snapshot.station && snapshot.station.sound) player.setSound(snapshot.station.sound);
    player.setTimeline(t);
  });
  made = {
    clock,
    player,
    stationID: station.id,
    timer: setTimeout(() => {
      if (!claimed) player.stop();
    }, HOLD_MS),
  };
}

/** Whether the player plays station `stationID` since the page opened (true once). */
export function startedEarly(stationID, player) {
  const m = made;
  if (!m || m.stationID !== stationID || m.player !== player || !player.wantPlay) return false;
  made = null;
  return true;
}
