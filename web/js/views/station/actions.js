// What the station screen's buttons do: listen/stop and flipping stations
// for everyone; for the booth the DJ commands (skip, hold, seek, queue or
// take off a track), sent through the station's live session.
//
// Every function takes the screen's `view` (views/station.js): its state,
// the player and the DOM parts.

import { toast } from "../../ui/toast.js";
import { navigate, stationPath } from "../../router.js";
import { neighbour } from "../../api/stations.js";
import { positionIn, timelineNow } from "../../playback/timeline.js";
import { markWaiting, renderHold } from "./controls.js";
import { renderPlayer } from "./now-playing.js";
import { currentEntry, entryToRemove, isHeldNow, seekTarget, upcomingEntries } from "./state.js";
import { ErrorCode } from "../../api/error-codes.js";

export const current = (view) => currentEntry(view.state.session, view.clock.now());
export const upcoming = (view) => upcomingEntries(view.state.session, view.clock.now());

/** How far into `entry` the station is now (ms). */
export function positionNow(view, entry) {
  return positionIn(entry, timelineNow(view.state.session.timeline, view.clock.now()));
}

/**
 * Sends a DJ command; toasts `success` when it is applied. While the
 * connection is down the command waits, and `button` says so. Throws what
 * the server refused, after saying why (a `forbidden` also asks the server
 * for your role again, through view.onForbidden).
 */
export async function command(view, cmd, success, button = null) {
  const { session } = view.state;
  if (!session) return;
  try {
    await session.command(cmd, {
      onWaiting: () => {
        markWaiting(button, true);
        toast("No signal: sent as soon as the station is back.");
      },
    });
    markWaiting(button, false);
    if (success) toast(success);
  } catch (error) {
    markWaiting(button, false);
    if (error.code === ErrorCode.forbidden) {
      // The server's word: e.g. listeners cannot skip, delete or reorder.
      toast(error.message || "Only the station's DJs can do that.", { kind: "error" });
      view.onForbidden();
    } else if (error.code !== ErrorCode.notCurrent && error.code !== "closed") {
      toast(error.message, { kind: "error" });
    }
    throw error;
  }
}

/** Find tracks' toggle: queues the track next, or takes it off Up Next. */
export async function toggleTrack(view, track) {
  const entry = entryToRemove(upcoming(view), track.id);
  if (entry) await command(view, { op: "remove", entryID: entry.id });
  else await command(view, { op: "queueNext", trackID: track.id });
  if (view.findTracks) view.findTracks.library.refreshToggles();
}

export async function skip(view) {
  const { skipButton } = view.controls;
  const entry = current(view);
  if (!entry || skipButton.disabled) return;
  skipButton.disabled = true;
  try {
    await command(view, { op: "skip", entryID: entry.id }, null, skipButton);
  } catch {
    // Reported.
  } finally {
    skipButton.disabled = false;
  }
}

export async function toggleHold(view) {
  const { holdButton } = view.controls;
  if (holdButton.disabled) return;
  holdButton.disabled = true;
  const held = () => isHeldNow(view.state.session);
  try {
    await command(view, { op: held() ? "resume" : "pause" }, held() ? "Resumed for everyone." : "Paused for everyone.", holdButton);
  } catch {
    // Reported.
  } finally {
    holdButton.disabled = false;
    renderHold(view.controls, held());
  }
}

/** Moves the station to `positionMs` into the current entry, for everyone. */
export async function seek(view, positionMs) {
  const entry = current(view);
  if (!entry) return;
  try {
    await command(view, { op: "seek", positionMs: seekTarget(entry, positionMs) });
  } catch {
    // Reported.
  }
}

/** Listen or stop on this device; the station plays on for everyone. */
export function togglePlay(view) {
  const { player } = view;
  if (player.wantPlay && player.state !== "blocked") player.pause();
  else player.resume();
  renderPlayer(view, () => togglePlay(view));
}

/** Tunes to the station `step` places along the band. */
export async function flip(view, step) {
  const { state } = view;
  if (state.flipping) return;
  state.flipping = true;
  const next = await neighbour(state.stationID, step);
  state.flipping = false;
  if (next && next.id !== state.stationID && !state.destroyed) navigate(stationPath(next.id));
  else if (!state.destroyed) toast("No other station on the band yet.");
}
