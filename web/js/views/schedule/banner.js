// The top of the schedule: what is on now (by the schedule) and what is
// next, lit like the dial glass, each opening its show. In a polite live
// region, redrawn only when the episodes change, so a screen reader hears
// the change and nothing else.

import { h, fill } from "../../ui/dom.js";
import { stationHref } from "../../router.js";
import { episodeKey, timeText, whenText } from "./model.js";

export function createBanner() {
  const el = h("section", { class: "sched-banner", "aria-live": "polite", "aria-label": "On now and next", hidden: true });
  return { el, shown: null };
}

/** Shows `now` and `next` (EpisodeViews or null) of the station. */
export function renderBanner(banner, { now, next }, stationID, clockNow = Date.now()) {
  const key = `${episodeKey(now)}|${episodeKey(next)}`;
  if (key === banner.shown) return;
  banner.shown = key;
  banner.el.hidden = !now && !next;
  banner.el.dataset.now = now ? now.showID : "";
  banner.el.dataset.next = next ? next.showID : "";
  fill(
    banner.el,
    now
      ? slot("now", h("span", { class: "onair-lamp" }, "On now"), now, `until ${timeText(now.end)}`, stationID)
      : h("div", { class: "sched-slot sched-slot-quiet" }, h("span", { class: "offair-lamp" }, "Off air"), h("p", { class: "sched-slot-line" }, "No show on right now")),
    next ? slot("next", h("span", { class: "sched-slot-label" }, "Next"), next, whenText(next, clockNow), stationID) : null,
  );
}

function slot(kind, label, episode, when, stationID) {
  return h(
    "div",
    { class: `sched-slot sched-slot-${kind}`, dataset: { showId: episode.showID } },
    label,
    h(
      "p",
      { class: "sched-slot-line" },
      h("a", { class: "sched-slot-name", href: stationHref(stationID, "show", episode.showID) }, episode.name),
      h("span", { class: "sched-slot-when" }, when),
      episode.moved ? h("span", { class: "sched-badge sched-badge-moved" }, "moved") : null,
    ),
  );
}
