// The station's schedule (#/station/ID/schedule?week=2026-11-23): what is
// on now and next, then a week of shows, Monday to Sunday in the browser's
// zone (a day-by-day agenda on phones, a 7-column grid from 1024 px),
// previous and next week, and the station's calendar to subscribe to. The
// server works out every episode (alternate weeks, cancelled and moved
// ones); this screen only asks for a week and lays out what comes back.
// For the station's DJs, "Add a show". For anyone who may listen to the
// station (the server decides).

//
// This file holds the controller (the week asked for, loading, refreshing
// when a show begins or ends); the DOM is screen-view.js.

import { fill, setText } from "../../ui/dom.js";
import { stationProblem } from "../../ui/station-problem.js";
import { navigate, stationPath } from "../../router.js";
import { api } from "../../api/api.js";
import { scheduleApi } from "../../api/schedule.js";
import { renderBanner } from "./banner.js";
import { browserZone, daysWithEpisodes, episodeCount, refreshDelay, shiftWeek, weekRange, weekTitle, weekValue } from "./model.js";
import { stationLine } from "./phrase.js";
import { buildScheduleView, showNoShows, showSubscribe, showWeek, showWeekTitle } from "./screen-view.js";

export function createScheduleView(route) {
  const stationID = route.path[1];
  const state = { week: weekValue(route.query.get("week")), data: null, asked: 0, destroyed: false, timer: null };
  const view = buildScheduleView(stationID, {
    onWeek: (step) => goWeek(shiftWeek(state.week, step)),
    onThisWeek: () => goWeek(weekValue(null)),
  });
  const { el, heading, sub, addLink, week, weekHeading } = view;
  let title = "Schedule · Wavelength";

  function goWeek(value) {
    const query = new URLSearchParams();
    if (value !== weekValue(null)) query.set("week", value);
    navigate(stationPath(stationID, "schedule"), { query });
  }

  function showProblem(error) {
    fill(view.body, stationProblem(stationID, error, "schedule"));
    el.dataset.state = "error";
  }

  function render(data, range) {
    const now = Date.now();
    const isThisWeek = state.week === weekValue(null);
    showWeekTitle(view, isThisWeek ? `This week, ${weekTitle(range)}` : weekTitle(range), isThisWeek);
    renderBanner(view.banner, data, stationID, now);
    addLink.hidden = !data.canEdit;
    el.classList.toggle("can-edit", Boolean(data.canEdit));
    const noShows = !(data.shows && data.shows.length);
    view.weekPanel.hidden = noShows;
    view.empty.hidden = !noShows;
    if (noShows) {
      addLink.hidden = true;
      showNoShows(view, data.canEdit, stationID);
    }
    const days = daysWithEpisodes(range, data.episodes);
    const count = episodeCount(days);
    setText(view.status, noShows ? "" : count ? "" : "Nothing on the schedule this week.");
    // Redrawn (a refresh when a show begins or ends): focus stays on the card it was on.
    showWeek(view, days, { stationID, now, onNow: data.now, next: data.next });
    week.dataset.count = String(count);
    showSubscribe(view, data);
  }

  /** Asks again when the show on now ends or the next begins (at most every 5 minutes). */
  function planRefresh(data) {
    clearTimeout(state.timer);
    if (state.destroyed) return;
    state.timer = setTimeout(() => load({ quiet: true }), refreshDelay(data, Date.now()));
  }

  async function load({ quiet = false } = {}) {
    const token = ++state.asked;
    const range = weekRange(state.week);
    el.dataset.week = state.week;
    if (!quiet) {
      el.dataset.state = "loading";
      week.setAttribute("aria-busy", "true");
      setText(weekHeading, weekTitle(range));
    }
    try {
      const data = await scheduleApi.schedule(stationID, { from: range.from, to: range.to, tz: browserZone() });
      if (token !== state.asked || state.destroyed) return;
      state.data = data;
      render(data, range);
      el.dataset.from = String(range.from);
      el.dataset.to = String(range.to);
      el.dataset.state = "ready";
      planRefresh(data);
    } catch (error) {
      if (token !== state.asked || state.destroyed) return;
      if (quiet && state.data) {
        planRefresh(state.data);
        return;
      }
      showProblem(error);
    } finally {
      if (token === state.asked) week.removeAttribute("aria-busy");
    }
  }

  async function loadStation() {
    try {
      const station = await api.station(stationID);
      if (state.destroyed) return;
      setText(sub, stationLine(station));
      title = `Schedule of ${station.name} · Wavelength`;
      if (el.isConnected) document.title = title;
    } catch {
      setText(sub, "");
    }
  }

  loadStation();
  load();

  return {
    el,
    get title() {
      return title;
    },
    focusTarget: () => heading,
    update(next) {
      const [first, id, part, extra] = next.path;
      if (first !== "station" || id !== stationID || part !== "schedule" || extra !== undefined) return false;
      state.week = weekValue(next.query.get("week"));
      load();
      return true;
    },
    destroy() {
      state.destroyed = true;
      clearTimeout(state.timer);
    },
  };
}
