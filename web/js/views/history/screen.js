// The station's history (#/station/ID/history): what is on now, "what was
// playing at 21:41?", a search over everything it played with the list
// paging back, and a day's playlist as CSV or M3U. For anyone who may
// listen to the station (the server decides).
//
// Opened from the station screen it is shown over the playing station
// (station/history-mode.js passes `source`, the live session's now
// playing, and calls tick() each frame); opened on its own it follows the
// station's timeline by polling. When a song ends, the list gains it.

import { api } from "../../api/api.js";
import { h, fill, setText, icon } from "../../ui/dom.js";
import { stationProblem } from "../../ui/station-problem.js";
import { stationHref } from "../../router.js";
import { visibilityLabel } from "../settings/labels.js";
import { createDownloads } from "./downloads.js";
import { createFinder } from "./finder.js";
import { createNowCard, renderNowCard, timelineSource } from "./now.js";
import { createPlays } from "./plays.js";
import { createIdentify } from "../identify/panel.js";

const TICK_MS = 1000;

/**
 * @param {{path: string[]}} route  #/station/<id>/history
 * @param {{station?: object, source?: {current: () => object|null, leftMs: () => number|null}}} context
 */
export function createHistoryView(route, context = {}) {
  const stationID = route.path[1];
  const embedded = Boolean(context.source);
  const source = context.source || timelineSource(stationID);
  let destroyed = false;
  let timer = null;
  let lastEntry;

  const heading = h("h1", { class: "settings-title log-title-main", tabindex: "-1" }, "What played");
  const sub = h("p", { class: "settings-sub log-station" }, "…");
  const header = h(
    "header",
    { class: "settings-bar log-bar" },
    h("a", { class: "btn-icon btn-back-station", href: stationHref(stationID), "aria-label": "Back to the station" }, icon("back", { size: 26 })),
    h("div", { class: "settings-heading" }, heading, sub),
  );
  const now = createNowCard();
  const finder = createFinder(stationID);
  const plays = createPlays(stationID);
  const downloads = createDownloads(stationID);
  // A song heard in the room, not on this station: ask the library.
  const identify = createIdentify({ place: "history" });
  // Phones read top to bottom: now, the question, the logbook, the day's
  // playlist; wide screens put the logbook beside the rest (styles-history.css).
  const body = h("div", { class: "log-grid" }, now.el, finder.el, plays.el, downloads.el, identify.el);
  const el = h("section", { class: "screen history-screen", dataset: { stationId: stationID, state: "loading" } }, header, body);
  let title = "What played · Wavelength";

  function showStation(station) {
    const frequency = station.frequency ? `${station.frequency} FM` : visibilityLabel(station.visibility, { short: true });
    setText(sub, [frequency, station.name].filter(Boolean).join(" · "));
    title = `What played on ${station.name} · Wavelength`;
    if (!destroyed && el.isConnected && document.body.contains(el)) document.title = title;
  }

  function showProblem(error) {
    fill(body, stationProblem(stationID, error, "history"));
    el.dataset.state = "error";
  }

  /** Now playing and its countdown; a new song means the last one joined the history. */
  function tick() {
    if (destroyed) return;
    const entry = source.current();
    renderNowCard(now, entry, entry ? source.leftMs() : null);
    const key = entry ? entry.id : null;
    if (lastEntry !== undefined && key !== lastEntry) plays.refresh();
    lastEntry = key;
  }

  async function load() {
    if (context.station) showStation(context.station);
    try {
      const station = context.station || (await api.station(stationID));
      if (destroyed) return;
      showStation(station);
    } catch (error) {
      if (!destroyed) showProblem(error);
      return;
    }
    // The card says what is on the air before the screen is ready: drawn
    // before the first timeline answer, it said "Nothing on the air" for a
    // moment and then shrank, moving the form under a tap.
    await Promise.all([plays.load(), embedded ? null : source.start()]);
    if (destroyed) return;
    if (!embedded) timer = setInterval(tick, TICK_MS);
    tick();
    el.dataset.state = "ready";
  }
  load();

  return {
    el,
    get title() {
      return title;
    },
    focusTarget: () => heading,
    tick,
    destroy() {
      destroyed = true;
      clearInterval(timer);
      if (!embedded) source.stop();
      plays.destroy();
      identify.destroy();
    },
  };
}
