// Your role on the station, live: it comes from the server (GET …/access at
// load, then the WebSocket's `access` messages), and the booth opens and
// closes with it: its controls, the seekable progress bar, Find tracks and
// the settings.

import { navigate, stationPath } from "../../router.js";
import { toast } from "../../ui/toast.js";
import { fetchAccess } from "../../live/station-session.js";
import { current, toggleTrack, upcoming } from "./actions.js";
import { hideBooth, showBooth } from "./booth.js";
import { arrangeControls, renderHold } from "./controls.js";
import { buildFindTracks, tearDownFindTracks } from "./find-tracks.js";
import { openSettingsHere, setMode } from "./settings-overlay.js";
import { isDJ, isHeldNow, normalRole, roleChangeText } from "./state.js";
import { startStudio, stopStudio } from "./studio.js";
import { renderClips } from "./clips.js";

/** Shows the screen for the role in view.state (the booth, or a listener's screen). */
export function applyRole(view) {
  const { state, el } = view;
  const dj = isDJ(state);
  el.dataset.role = state.role || "none";
  el.classList.toggle("is-owner", dj);
  view.header.settingsLink.hidden = !dj;
  view.queue.setOwner(dj);
  arrangeControls(view.controls, dj);
  if (dj) {
    if (!view.findTracks) openFindTracks(view);
    el.classList.add("has-flip-row");
    renderHold(view.controls, isHeldNow(state.session));
    showBooth(view.booth, { progress: view.np.progress, nowCol: view.nowCol }, state.stationID, state.role, (e) => openSettingsHere(view, e));
    startStudio(view);
  } else {
    stopStudio(view);
    el.classList.remove("has-flip-row");
    hideBooth(view.booth, { progress: view.np.progress });
    if (view.findTracks) {
      tearDownFindTracks(view.addCol, view.findTracks);
      view.findTracks = null;
    }
    if (state.mode === "add" || state.mode === "settings" || state.mode === "screen") {
      navigate(stationPath(state.stationID), { replace: true });
    }
  }
  // The booth's voice clip and inbox, or a listener's shout-out.
  renderClips(view);
  // The booth's reports: loaded as the booth opens. Your own station isn't yours to report.
  const reportStation = view.nowCol.querySelector(".report-station");
  if (reportStation) reportStation.hidden = dj;
  if (view.reports && view.reports.el.hidden === dj) {
    view.reports.el.hidden = !dj;
    if (dj) view.reports.refresh();
  }
  setMode(view, state.mode);
}

function openFindTracks(view) {
  view.findTracks = buildFindTracks(view.addCol, view.state.stationID, {
    isQueued: (trackID) => upcoming(view).some((e) => e.track.id === trackID),
    isOnAir: (trackID) => {
      const entry = current(view);
      return Boolean(entry && entry.track.id === trackID);
    },
    toggle: (track) => toggleTrack(view, track),
  });
  const { session } = view.state;
  if (session && session.timeline) view.findTracks.nowBar.update(current(view));
}

/** Takes the server's word on your role; once the screen is up, opens or closes the booth and says so. */
export function setRole(view, next) {
  const { state } = view;
  const value = normalRole(next);
  if (value === state.role) return;
  const was = state.role;
  state.role = value;
  if (!state.ready) return;
  applyRole(view);
  const text = roleChangeText(was, value);
  if (text) toast(text);
}

/** Asks the server for your role again (after it refused a command). */
export async function refreshRole(view) {
  try {
    const access = await fetchAccess(view.state.stationID);
    if (!view.state.destroyed && access) setRole(view, access.role);
  } catch {
    // The WebSocket will tell us.
  }
}
