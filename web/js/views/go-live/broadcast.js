// "Go live" in the DJ booth: broadcast from this browser. The booth shows a
// Go live button (owners and co-DJs; the server says who may really go
// live: the owner, or a host of the show on the air now); it opens a
// studio panel:
//
// - the microphone (a picker when there is more than one), with its fader;
// - an optional music bed, a local audio file played into the mix with its
//   own fader, a talk-over switch that lowers it while the DJ speaks, and
//   "hear the music here" for headphones;
// - the outgoing mix's level meter (role="meter", the bar at animation rate,
//   aria-valuenow at most once a second);
// - the show's title (what listeners see), sent again while live;
// - Go on the air / Stop, "On the air" with the time, and the server's
//   refusals word for word (always as text).
//
// The panel outlives the booth's redraws: one per station, kept while the
// page stays on that station (#/station/ID…). Leaving the station ends a
// broadcast; so does closing the page (it asks first).
//
// This file holds the page-level rules (one panel per station, leaving the
// station or the page ends a broadcast, which station this page broadcasts
// to); one panel is broadcast-panel.js, its DOM broadcast-view.js, the
// mixing desk broadcast-audio.js (driven by broadcast-desk.js), the line to
// the server broadcast-link.js (driven by broadcast-air.js), and the
// numbers and words broadcast-model.js.

import { parseHash } from "../../router.js";
import { toast } from "../../ui/toast.js";
import { ACTIVE } from "./broadcast-model.js";
import { createPanel } from "./broadcast-panel.js";

let current = null;

/**
 * The Go live panel for `stationID`: {el, detach()}. The same one while the
 * page stays on the station, so a broadcast survives the booth's redraws.
 */
export function broadcastPanel(stationID) {
  if (current && current.stationID === stationID && !current.gone) return current;
  if (current) leaveBooth(current);
  current = createPanel(stationID, {
    onActive: (active) => announceActive(stationID, active),
    onGone: (panel) => {
      if (current === panel) current = null;
    },
  });
  return current;
}

/**
 * The station this page broadcasts to now, or null: a player shouldn't play
 * the DJ's own relay back into their microphone. A change is also said as a
 * "wavelength:broadcast" event on window ({detail: {stationID, active}}).
 */
export function broadcastingTo() {
  return current && !current.gone && ACTIVE.has(current.state) ? current.stationID : null;
}

function announceActive(stationID, active) {
  dispatchEvent(new CustomEvent("wavelength:broadcast", { detail: { stationID, active } }));
}

addEventListener("hashchange", () => {
  if (!current || current.gone) return;
  const { path } = parseHash();
  if (path[0] === "station" && path[1] === current.stationID) return;
  leaveBooth(current);
});

/** The page left the panel's station: a broadcast under way ends, and says so. */
function leaveBooth(panel) {
  const wasActive = ACTIVE.has(panel.state);
  panel.leave();
  if (wasActive) toast("You left the booth, so the broadcast ended.");
}

addEventListener("beforeunload", (event) => {
  if (current && !current.gone && ACTIVE.has(current.state)) {
    event.preventDefault();
    event.returnValue = "";
  }
});

addEventListener("pagehide", () => {
  if (current && !current.gone) current.leave();
});

if (typeof navigator !== "undefined" && navigator.mediaDevices && navigator.mediaDevices.addEventListener) {
  navigator.mediaDevices.addEventListener("devicechange", () => {
    if (current && !current.gone) current.devicesChanged();
  });
}
