// One play in the history list: its art (or the warm placeholder), title,
// artist and album, when it began (local time), and when known how many
// listened at once and who picked it. Tags go in as text, never markup. A
// live show reads "Live: <title> — <DJ>", with how long it really ran.

import { h, artwork, icon } from "../../ui/dom.js";
import { playListenersText, playedAtText, sourceText } from "./model.js";
import { isLive, liveHistorySub, liveHistoryTitle } from "../station/live-model.js";

export function playRow(entry, now = Date.now()) {
  const { track } = entry;
  const live = isLive(entry);
  const listeners = playListenersText(entry.listeners);
  const source = sourceText(entry.source);
  return h(
    "li",
    { class: `log-row${live ? " is-live" : ""}`, dataset: { entryId: entry.id, start: String(entry.start) } },
    artwork(track, { size: "sm" }),
    h(
      "div",
      { class: "log-text" },
      h("span", { class: "log-title" }, live ? liveHistoryTitle(entry) : track.title),
      h("span", { class: "log-sub" }, live ? liveHistorySub(entry, now) : [track.artist, track.album].filter(Boolean).join(" · ")),
    ),
    h(
      "div",
      { class: "log-meta" },
      h("time", { class: "log-time", datetime: new Date(entry.start).toISOString() }, playedAtText(entry.start, now)),
      listeners
        ? h("span", { class: "log-ears", title: `At most ${listeners}` }, icon("ear", { size: 14 }), h("span", { "aria-hidden": "true" }, String(entry.listeners)), h("span", { class: "visually-hidden" }, `, ${listeners}`))
        : null,
      source ? h("span", { class: "log-source" }, source) : null,
    ),
  );
}
