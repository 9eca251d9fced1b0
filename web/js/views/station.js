// The listener screen, and for the station's owner and co-DJs the DJ booth:
// album art, what's on, progress, Up Next, the listener count, live from
// the station's WebSocket; plus search with add/remove toggles, skip,
// delete, reorder, hold and seek. Your role comes from the server (GET
// …/access at load, then the WebSocket's `access` messages), so the booth
// opens and closes live when the owner grants or takes back co-DJ.
// Being removed, the host ending the session and access refusals end the
// screen with a notice and never reconnect.
//
// This module puts the screen together and answers the router; the parts
// are in station/: the state (state.js), the DOM (layout.js and a module
// per part), tuning in and following the station live (tune-in.js), your
// role and the booth (role.js), the buttons' actions (actions.js), a live
// show on the timeline (live-show.js, in now playing), the settings shown over the
// station (settings-overlay.js) and the end (over.js). Each takes the
// screen's `view`: its state, the clock, the player and the DOM parts.

import { createLayout } from "./station/layout.js";
import { refreshRole } from "./station/role.js";
import { focusSettings, setMode } from "./station/settings-overlay.js";
import { createStationState, isDJ, modeOf, stationLine } from "./station/state.js";
import { openSession, startPlayer, startStation } from "./station/tune-in.js";
import { stopStudio } from "./station/studio.js";
import { destroyLyrics } from "./station/lyrics.js";
import { closeHistoryMode } from "./station/history-mode.js";
import { destroyChat } from "./station/chat-actions.js";
import { destroyClips } from "./station/clips.js";
import { earlyFor } from "../live/early-station.js";

const SCHEDULE_PARTS = new Set(["schedule", "show", "shows"]);

export function createStationView({ clock, player }, route) {
  const tunedAt = performance.now();
  const state = createStationState(route);
  const view = {
    // The tune-in action (a click, a link, a typed frequency) is now: tune-in
    // to first sound is measured from here.
    tunedAt,
    state,
    // The station and its timeline, asked for before the screen is built
    // (or as the page opened, for a link): see early-station.js.
    early: earlyFor(state.stationID),
    route,
    clock,
    player,
    /** Find tracks ({library, nowBar}) while the booth is open. */
    findTracks: null,
    /** The settings shown over the station, while open. */
    settingsView: null,
    frameTimer: null,
    disconnectMedia: () => {},
    onPlayerState: null,
    onPlayerMode: null,
    onForbidden: () => refreshRole(view),
    /** Your thumbs on plays (entry id → true, false), from the acks. */
    myThumbs: new Map(),
    /** The track ids of your liked songs. */
    liked: new Set(),
  };
  // The link is known to be right (the page asked as it opened): the live
  // connection opens now (or takes over the one the page opened, its clock
  // probes answered: early-live.js), and the player starts before the
  // screen is built, so the first sound doesn't wait for the DOM. Otherwise
  // both start once the station answers. The caller has taken down the
  // previous screen (whose destroy() stops the shared player) already.
  if (view.early && view.early.stationKnown) {
    state.session = openSession(view);
    state.session.start();
    startPlayer(view);
  }
  createLayout(view);

  queueMicrotask(() => {
    if (!state.destroyed) startStation(view);
  });

  return {
    el: view.el,
    update(nextRoute) {
      if (nextRoute.path[0] !== "station" || nextRoute.path[1] !== state.stationID) return false;
      // The schedule and its shows are screens of their own.
      if (SCHEDULE_PARTS.has(nextRoute.path[2])) return false;
      const next = modeOf(nextRoute);
      // Settings open over the playing station when the booth is yours;
      // otherwise the app shows the settings screen on its own.
      if ((next === "settings" || next === "screen") && !(state.ready && isDJ(state))) return false;
      // Over (removed, ended, refused): coming back is a fresh start.
      if (state.over) return false;
      setMode(view, next);
      if (next === "settings" && view.settingsView) {
        focusSettings(view);
      } else if (!view.settingsView && !view.historyView) {
        const { session } = state;
        document.title = session && session.station && session.station.name ? `${stationLine(session.station)} · Wavelength` : document.title;
      }
      return true;
    },
    get title() {
      const over = view.settingsView || view.historyView;
      return over ? over.title : undefined;
    },
    focusTarget: () => {
      const over = view.settingsView || view.historyView;
      return over && over.focusTarget ? over.focusTarget() : view.header.stationName;
    },
    destroy() {
      state.destroyed = true;
      clearInterval(view.frameTimer);
      stopStudio(view);
      destroyLyrics(view);
      destroyChat(view);
      destroyClips(view);
      if (view.stopCalibration) view.stopCalibration();
      view.identify.destroy();
      closeHistoryMode(view);
      view.np.staticFx.destroy();
      if (view.onPlayerState) player.removeEventListener("state", view.onPlayerState);
      if (view.onPlayerMode) player.removeEventListener("mode", view.onPlayerMode);
      view.disconnectMedia();
      if (view.settingsView) view.settingsView.destroy();
      if (view.findTracks) view.findTracks.library.destroy();
      if (state.session) state.session.close();
      player.stop();
    },
  };
}
