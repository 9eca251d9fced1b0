// The station's history shown over the station (#/station/ID/history,
// views/history/screen.js), so the music keeps playing while you look up
// "what was that song?": the station's grid and header step aside, and the
// history's now playing follows the live session, frame by frame.

import { fill } from "../../ui/dom.js";
import { stationPath } from "../../router.js";
import { progressOf } from "./state.js";
import { timelineNow } from "../../playback/timeline.js";
import { createHistoryView } from "../history/screen.js";
import { current } from "./actions.js";

export function openHistoryMode(view) {
  if (view.historyView) return;
  const { state } = view;
  if (!view.historyHost) {
    view.historyHost = document.createElement("div");
    view.historyHost.className = "history-host";
    view.el.append(view.historyHost);
  }
  view.historyView = createHistoryView(
    { path: stationPath(state.stationID, "history"), query: new URLSearchParams() },
    {
      station: state.session && state.session.station && state.session.station.name ? state.session.station : null,
      source: {
        current: () => current(view),
        leftMs() {
          const entry = current(view);
          if (!entry) return null;
          const { span, pos } = progressOf(entry, timelineNow(state.session.timeline, view.clock.now()));
          return span - pos;
        },
      },
    },
  );
  fill(view.historyHost, view.historyView.el);
  view.historyHost.hidden = false;
  view.grid.hidden = true;
  view.header.bar.hidden = true;
  view.el.classList.add("mode-history");
  document.title = view.historyView.title;
  window.scrollTo(0, 0);
  view.historyView.focusTarget().focus({ preventScroll: true });
}

export function closeHistoryMode(view) {
  if (!view.historyView) return;
  const hadFocus = view.historyHost.contains(document.activeElement);
  view.historyView.destroy();
  view.historyView = null;
  fill(view.historyHost);
  view.historyHost.hidden = true;
  view.grid.hidden = false;
  view.header.bar.hidden = false;
  view.el.classList.remove("mode-history");
  if (hadFocus) view.header.stationName.focus({ preventScroll: true });
}

/** Each frame: the history's now playing and countdown. */
export function renderHistoryMode(view) {
  if (view.historyView) view.historyView.tick();
}
