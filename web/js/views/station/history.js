// "Just played": the last five tracks under Up Next, re-rendered only when
// the list changes, and the way into the station's whole history
// (#/station/ID/history: search it, "what was on at 9:14?", a day's
// playlist), and beside it the way to the station's schedule of shows
// (#/station/ID/schedule). The panel stays for those links even before
// anything has played. A live show reads "Live: <title> — <DJ>" with how
// long it really ran (live-model.js).

import { h, fill, artwork } from "../../ui/dom.js";
import { stationHref } from "../../router.js";
import { historyItems } from "./state.js";
import { isLive, liveHistorySub, liveHistoryTitle } from "./live-model.js";
import { isVoice, voiceRowText } from "../clips/clips-model.js";
import { voiceArt } from "../clips/voice-art.js";

export function createHistory(stationID) {
  const list = h("ol", { class: "history", "aria-labelledby": "history-heading" });
  const empty = h("p", { class: "empty history-empty" }, "Songs show up here once they've played.");
  const panel = h(
    "section",
    { class: "panel history-panel", "aria-labelledby": "history-heading" },
    h(
      "div",
      { class: "history-head" },
      h("h2", { id: "history-heading", class: "section-title" }, "Just played"),
      h(
        "span",
        { class: "history-links" },
        h("a", { class: "history-all", href: stationHref(stationID, "history") }, "Full history", h("span", { "aria-hidden": "true" }, "→")),
        // The station's shows on a schedule (views/schedule/screen.js).
        h("a", { class: "schedule-link", href: stationHref(stationID, "schedule") }, "Schedule", h("span", { "aria-hidden": "true" }, "→")),
      ),
    ),
    list,
    empty,
  );
  return { panel, list, empty };
}

export function renderHistory(history, timeline) {
  const items = historyItems(timeline);
  history.list.hidden = items.length === 0;
  history.empty.hidden = items.length > 0;
  const sig = items.map((e) => `${e.id}@${e.expiration}`).join(",");
  if (history.list.dataset.sig === sig) return;
  history.list.dataset.sig = sig;
  fill(
    history.list,
    items.map((e) => {
      const live = isLive(e);
      // A voice clip: "Voice clip · Name" and the note (clips-model.js).
      const voice = isVoice(e) ? voiceRowText(e) : null;
      return h(
        "li",
        { class: `history-row${live ? " is-live" : ""}${voice ? " is-voice" : ""}`, dataset: { entryId: e.id } },
        voice ? voiceArt("xs") : artwork(e.track, { size: "xs" }),
        h(
          "span",
          { class: "history-text" },
          h("span", { class: "history-title" }, live ? liveHistoryTitle(e) : voice ? voice.title : e.track.title),
          h("span", { class: "history-sub" }, live ? liveHistorySub(e) : voice ? voice.sub : e.track.artist),
        ),
      );
    }),
  );
}
