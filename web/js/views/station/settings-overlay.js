// The screen's modes (main, add, settings, screen, history), and the station
// settings shown over the station for its owner and co-DJs, so the music
// keeps playing (#/station/ID/settings); the party screen likewise
// (#/station/ID/screen, room.js).

import { fill } from "../../ui/dom.js";
import { stationHref, stationPath } from "../../router.js";
import { createSettingsView } from "../settings.js";
import { renderStationHeader } from "./header.js";
import { openRoom, closeRoom } from "./room-mode.js";
import { openHistoryMode, closeHistoryMode } from "./history-mode.js";
import { isDJ } from "./state.js";

/** Switches to `next` mode: the add column (booth only), the settings, or neither. */
export function setMode(view, next) {
  const { state } = view;
  state.mode = next;
  const dj = isDJ(state);
  view.el.classList.toggle("mode-add", state.mode === "add" && dj);
  const settings = state.mode === "settings" && dj && state.ready;
  const room = state.mode === "screen" && dj && state.ready;
  // The history is for anyone who may listen, not only the booth.
  const past = state.mode === "history" && !state.over;
  // Close before opening: a closing overlay shows the grid again, which
  // must not undo the one opening (history → settings by Back/Forward).
  if (!settings) closeSettings(view);
  if (!room) closeRoom(view);
  if (!past) closeHistoryMode(view);
  if (settings) openSettings(view);
  if (room) openRoom(view);
  if (past) openHistoryMode(view);
  if (state.mode === "add" && view.findTracks) {
    const { library } = view.findTracks;
    requestAnimationFrame(() => library.focusSearch());
  }
}

// The settings open over this screen so the music keeps playing here: the
// address changes without a route change (the app would otherwise swap
// this screen for the settings screen); Back and the settings' own back
// link come here again as an ordinary route update.
export function openSettingsHere(view, event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (!view.state.ready || !isDJ(view.state)) return;
  event.preventDefault();
  history.pushState(history.state, "", stationHref(view.state.stationID, "settings"));
  setMode(view, "settings");
  focusSettings(view);
}

/** Puts focus on the open settings' heading. */
export function focusSettings(view) {
  const target = view.settingsView && view.settingsView.focusTarget && view.settingsView.focusTarget();
  if (target) target.focus({ preventScroll: true });
}

function openSettings(view) {
  if (view.settingsView) return;
  const { state, settingsHost } = view;
  view.settingsView = createSettingsView(
    { path: stationPath(state.stationID, "settings"), query: new URLSearchParams() },
    { session: state.session, role: () => state.role },
  );
  fill(settingsHost, view.settingsView.el);
  settingsHost.hidden = false;
  view.grid.hidden = true;
  view.header.bar.hidden = true;
  view.el.classList.add("mode-settings");
  document.title = view.settingsView.title || "Station settings · Wavelength";
  window.scrollTo(0, 0);
}

export function closeSettings(view) {
  if (!view.settingsView) return;
  const { state, settingsHost } = view;
  const hadFocus = settingsHost.contains(document.activeElement);
  view.settingsView.destroy();
  view.settingsView = null;
  fill(settingsHost);
  settingsHost.hidden = true;
  view.grid.hidden = false;
  view.header.bar.hidden = false;
  view.el.classList.remove("mode-settings");
  if (state.session && state.session.station && state.session.station.name) renderStationHeader(view.header, view.el, state.session.station, state.mode);
  if (hadFocus) view.header.stationName.focus({ preventScroll: true });
}
