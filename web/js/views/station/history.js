// "Just played": the last five tracks under Up Next, hidden while there are
// none, re-rendered only when the list changes.

import { h, fill, artwork } from "../../ui/dom.js";
import { historyItems } from "./state.js";

export function createHistory() {
  const list = h("ol", { class: "history" });
  const panel = h(
    "section",
    { class: "panel history-panel", "aria-labelledby": "history-heading" },
    h("h2", { id: "history-heading", class: "section-title" }, "Just played"),
    list,
  );
  return { panel, list };
}

export function renderHistory(history, timeline) {
  const items = historyItems(timeline);
  history.panel.hidden = items.length === 0;
  const sig = items.map((e) => e.id).join(",");
  if (history.list.dataset.sig === sig) return;
  history.list.dataset.sig = sig;
  fill(
    history.list,
    items.map((e) =>
      h(
        "li",
        { class: "history-row" },
        artwork(e.track, { size: "xs" }),
        h("span", { class: "history-text" }, h("span", { class: "history-title" }, e.track.title), h("span", { class: "history-sub" }, e.track.artist)),
      ),
    ),
  );
}
