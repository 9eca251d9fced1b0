// The studio board in the DJ booth: an "ON AIR · 12 listening" sign kept
// live from the WebSocket's count, the last hour as a hand-drawn SVG chart
// of peaks per minute (GET …/audience, fetched as each minute closes),
// today's figures in words, and the countdown of the song on the air with
// what comes next. Owners and co-DJs only: the server refuses the figures
// to anyone else, and role.js opens and closes the board with the booth.
// The numbers are worked out in studio-model.js.

import { request } from "../../api/api.js";
import { h, setText } from "../../ui/dom.js";
import { holdPlace } from "../../ui/hold-place.js";
import { isLive, timelineNow } from "../../playback/timeline.js";
import { current, upcoming } from "./actions.js";
import { progressOf } from "./state.js";
import {
  MINUTE_MS, audienceSummary, chartLabel, minutePeaks, minuteStart, sparkPaths, timeLeftText, whereText,
} from "./studio-model.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const CHART = { width: 240, height: 56 };
const SPAN_MINUTES = 60;
// A minute is kept by the server as it closes: ask a moment after that.
const AFTER_CLOSE_MS = 1500;
const RETRY_MS = 15_000;
// When the count changes, the figures (where the listeners are) are asked
// again a moment later, but not more often than this.
const RECOUNT_DELAY_MS = 1500;
const RECOUNT_MIN_MS = 10_000;

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

function zone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return "";
  }
}

export function createStudio() {
  const lamp = h("span", { class: "onair-lamp studio-lamp" }, "On air");
  const num = h("span", { class: "studio-num" }, "—");
  const unit = h("span", { class: "studio-unit" }, "listening");
  const where = h("p", { class: "studio-where" });
  const area = svg("path", { class: "studio-area" });
  const line = svg("path", { class: "studio-line" });
  const title = svg("title");
  const chart = svg("svg", {
    class: "studio-svg",
    viewBox: `0 0 ${CHART.width} ${CHART.height}`,
    preserveAspectRatio: "none",
    role: "img",
    "aria-label": "Listeners over the last hour: loading",
    focusable: "false",
  });
  const gradient = svg("linearGradient", { id: "studio-fill", x1: 0, y1: 0, x2: 0, y2: 1 });
  gradient.append(svg("stop", { offset: "0", class: "studio-stop-top" }), svg("stop", { offset: "1", class: "studio-stop-bottom" }));
  const defs = svg("defs");
  defs.append(gradient);
  chart.append(title, defs, svg("line", { class: "studio-grid", x1: 0, x2: CHART.width, y1: 2, y2: 2 }), area, line);
  const top = h("span", { class: "studio-top", "aria-hidden": "true" });
  const summary = h("p", { class: "studio-summary" }, "Counting today's listeners…");
  const left = h("span", { class: "studio-left-num" }, "–:––");
  const next = h("span", { class: "studio-next-text" }, "—");
  const el = h(
    "section",
    { class: "panel studio", "aria-labelledby": "studio-heading", hidden: true },
    h("h2", { id: "studio-heading", class: "section-title" }, "Studio"),
    h(
      "div",
      { class: "studio-board" },
      lamp,
      h("p", { class: "studio-count" }, num, " ", unit),
      where,
    ),
    h(
      "figure",
      { class: "studio-chart" },
      h("div", { class: "studio-plot" }, chart, top),
      h("figcaption", { class: "studio-axis", "aria-hidden": "true" }, h("span", {}, "an hour ago"), h("span", {}, "now")),
    ),
    summary,
    h(
      "dl",
      { class: "studio-clock" },
      h("div", { class: "studio-cell" }, h("dt", {}, "Time left"), h("dd", { class: "studio-left" }, left)),
      h("div", { class: "studio-cell studio-cell-next" }, h("dt", {}, "Next"), h("dd", { class: "studio-next" }, next)),
    ),
  );
  return {
    el, lamp, num, unit, where, chart, title, area, line, top, summary, left, next,
    /** The last /audience answer, and the most listeners seen in the minute in progress. */
    data: null,
    minute: { start: 0, peak: 0 },
    /** The count last shown, and when the figures were last asked for. */
    shownCount: null,
    askedAt: 0,
    timer: null,
    nextAt: 0,
    abort: null,
    open: false,
  };
}

/** Opens the board and starts fetching the figures (the booth opened). */
export function startStudio(view) {
  const { studio } = view;
  if (studio.open) return;
  studio.open = true;
  // First in its column: what someone reads below it stays put as it opens,
  // fills in and closes (see hold-place.js).
  holdPlace(studio.el, () => {
    studio.el.hidden = false;
    renderStudioCount(view);
  });
  loadAudience(view);
}

/** Closes it: no more fetches (the booth closed, or the screen went away). */
export function stopStudio(view) {
  const { studio } = view;
  if (!studio) return;
  studio.open = false;
  studio.shownCount = null;
  holdPlace(studio.el, () => {
    studio.el.hidden = true;
  });
  clearTimeout(studio.timer);
  studio.timer = null;
  if (studio.abort) studio.abort.abort();
  studio.abort = null;
}

async function loadAudience(view) {
  const { studio, state } = view;
  clearTimeout(studio.timer);
  studio.timer = null;
  if (studio.abort) studio.abort.abort();
  const abort = new AbortController();
  studio.abort = abort;
  const tz = zone();
  const query = new URLSearchParams({ minutes: String(SPAN_MINUTES) });
  if (tz) query.set("tz", tz);
  let wait = RETRY_MS;
  studio.askedAt = Date.now();
  try {
    const data = await request(`/api/stations/${encodeURIComponent(state.stationID)}/audience?${query}`, { signal: abort.signal });
    if (!studio.open || abort.signal.aborted) return;
    studio.data = data;
    holdPlace(studio.el, () => renderStudioCount(view));
    // The next fetch just after the minute in progress closes on the server.
    const serverNow = Number(data.serverTime) || view.clock.now();
    wait = minuteStart(serverNow) + MINUTE_MS - serverNow + AFTER_CLOSE_MS;
  } catch (error) {
    if (error && error.name === "AbortError") return;
    if (!studio.open) return;
    if (error.status === 403 || error.status === 401) {
      // Not a DJ here any more: the WebSocket's role change closes the booth.
      setText(studio.summary, "Only the station's owner and co-DJs see its figures.");
      return;
    }
    setText(studio.summary, "Can't reach the figures right now; trying again shortly.");
  }
  if (studio.open) schedule(studio, () => loadAudience(view), wait);
}

function schedule(studio, fn, wait) {
  clearTimeout(studio.timer);
  studio.nextAt = Date.now() + wait;
  studio.timer = setTimeout(fn, wait);
}

/** Someone came or went: ask for the figures again soon, at most every RECOUNT_MIN_MS. */
function recount(view) {
  const { studio } = view;
  const due = Math.max(RECOUNT_DELAY_MS, studio.askedAt + RECOUNT_MIN_MS - Date.now());
  // A fetch already due sooner (a minute closing) does it.
  if (studio.timer && studio.nextAt <= Date.now() + due) return;
  schedule(studio, () => loadAudience(view), due);
}

/** The count (live from the WebSocket), the chart and today's figures. */
export function renderStudioCount(view) {
  const { studio, state } = view;
  if (!studio || !studio.open) return;
  const count = Math.max(0, Number(state.session && state.session.listeners) || 0);
  const now = view.clock.now();
  const minute = minuteStart(now);
  if (studio.minute.start !== minute) studio.minute = { start: minute, peak: 0 };
  studio.minute.peak = Math.max(studio.minute.peak, count);
  if (studio.shownCount !== null && count !== studio.shownCount) recount(view);
  studio.shownCount = count;
  setText(studio.num, String(count));
  studio.el.dataset.count = String(count);
  setText(studio.lamp, count > 0 ? "On air" : "Off air");
  studio.lamp.className = count > 0 ? "onair-lamp studio-lamp" : "offair-lamp studio-lamp";
  const { data } = studio;
  setText(studio.where, whereText(data && count === data.listeners ? data : null));
  if (!data) return;
  const peaks = minutePeaks(data.minutes, { now, span: SPAN_MINUTES, live: studio.minute.peak });
  const { line, area, top } = sparkPaths(peaks, CHART);
  studio.line.setAttribute("d", line);
  studio.area.setAttribute("d", area);
  setText(studio.top, String(top));
  const label = chartLabel(peaks);
  studio.chart.setAttribute("aria-label", label);
  setText(studio.title, label);
  setText(studio.summary, audienceSummary(data.today, count));
  studio.el.dataset.state = "ready";
}

/** Each frame: the countdown of the song on the air, and what comes next. */
export function renderStudioClock(view) {
  const { studio, state } = view;
  if (!studio || !studio.open || !state.session) return;
  const entry = current(view);
  if (isLive(entry)) {
    // A live show has no length: no countdown.
    setText(studio.left, "Live");
  } else if (entry) {
    const { span, pos } = progressOf(entry, timelineNow(state.session.timeline, view.clock.now()));
    setText(studio.left, timeLeftText(span - pos));
  } else {
    setText(studio.left, "–:––");
  }
  const following = upcoming(view)[0];
  setText(studio.next, following ? `${following.track.title} · ${following.track.artist}` : "Nothing lined up yet");
  // A new minute: the chart moves on even when the count stays the same.
  if (minuteStart(view.clock.now()) !== studio.minute.start) renderStudioCount(view);
}
