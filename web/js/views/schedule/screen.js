// The station's schedule (#/station/ID/schedule?week=2026-11-23): what is
// on now and next, then a week of shows, Monday to Sunday in the browser's
// zone (a day-by-day agenda on phones, a 7-column grid from 1024 px),
// previous and next week, and the station's calendar to subscribe to. The
// server works out every episode (alternate weeks, cancelled and moved
// ones); this screen only asks for a week and lays out what comes back.
// For the station's DJs, "Add a show". For anyone who may listen to the
// station (the server decides).

import { h, fill, setText, icon } from "../../ui/dom.js";
import { stationProblem } from "../../ui/station-problem.js";
import { navigate, stationHref, stationPath } from "../../router.js";
import { api } from "../../api/api.js";
import { scheduleApi } from "../../api/schedule.js";
import { createBanner, renderBanner } from "./banner.js";
import { calendarLinks } from "./calendar-links.js";
import { browserZone, daysWithEpisodes, shiftWeek, weekRange, weekTitle, weekValue } from "./model.js";
import { weekDays } from "./week.js";

const REFRESH_MAX_MS = 5 * 60_000;
const REFRESH_MIN_MS = 5_000;

export function createScheduleView(route) {
  const stationID = route.path[1];
  const state = { week: weekValue(route.query.get("week")), data: null, asked: 0, destroyed: false, timer: null };

  const heading = h("h1", { class: "settings-title sched-title", tabindex: "-1" }, "Schedule");
  const sub = h("p", { class: "settings-sub sched-station" }, "…");
  const addLink = h(
    "a",
    { class: "btn btn-primary btn-small sched-add", href: stationHref(stationID, "shows", "new"), hidden: true },
    icon("plus", { size: 18 }),
    "Add a show",
  );
  const header = h(
    "header",
    { class: "settings-bar sched-bar" },
    h("a", { class: "btn-icon btn-back-station", href: stationHref(stationID), "aria-label": "Back to the station" }, icon("back", { size: 26 })),
    h("div", { class: "settings-heading" }, heading, sub),
    addLink,
  );
  const banner = createBanner();

  const weekHeading = h("h2", { class: "sched-week-title", id: "sched-week-title", "aria-live": "polite" }, "…");
  const prev = h(
    "button",
    { class: "btn btn-secondary btn-small sched-prev", type: "button", "aria-label": "Previous week", onclick: () => goWeek(shiftWeek(state.week, -1)) },
    icon("prev", { size: 18 }),
    h("span", { class: "sched-nav-word", "aria-hidden": "true" }, "Previous"),
  );
  const next = h(
    "button",
    { class: "btn btn-secondary btn-small sched-next", type: "button", "aria-label": "Next week", onclick: () => goWeek(shiftWeek(state.week, 1)) },
    h("span", { class: "sched-nav-word", "aria-hidden": "true" }, "Next"),
    icon("next", { size: 18 }),
  );
  const thisWeek = h("button", { class: "btn btn-ghost btn-small sched-this-week", type: "button", hidden: true, onclick: () => goWeek(weekValue(null)) }, "Back to this week");
  const toolbar = h(
    "nav",
    { class: "sched-toolbar", "aria-label": "Weeks" },
    prev,
    h("div", { class: "sched-week-head" }, weekHeading, thisWeek),
    next,
  );
  const status = h("p", { class: "sched-status", role: "status" });
  const week = h("div", { class: "sched-week" });
  const weekPanel = h("section", { class: "sched-week-panel", "aria-labelledby": "sched-week-title" }, toolbar, status, week);
  const empty = h("section", { class: "panel sched-empty", hidden: true, "aria-labelledby": "sched-empty-title" });
  const subscribe = h("section", { class: "panel sched-subscribe", hidden: true, "aria-labelledby": "sched-subscribe-title" });
  const body = h("div", { class: "sched-body" }, banner.el, weekPanel, empty, subscribe);
  const el = h("section", { class: "screen schedule-screen", dataset: { stationId: stationID, state: "loading" } }, header, body);
  let title = "Schedule · Wavelength";

  function goWeek(value) {
    const query = new URLSearchParams();
    if (value !== weekValue(null)) query.set("week", value);
    navigate(stationPath(stationID, "schedule"), { query });
  }

  function showProblem(error) {
    fill(body, stationProblem(stationID, error, "schedule"));
    el.dataset.state = "error";
  }

  function render(data, range) {
    const now = Date.now();
    const isThisWeek = state.week === weekValue(null);
    setText(weekHeading, isThisWeek ? `This week, ${weekTitle(range)}` : weekTitle(range));
    // "Back to this week" hides once there: focus goes to the week's title, not the page.
    if (isThisWeek && document.activeElement === thisWeek) {
      weekHeading.tabIndex = -1;
      weekHeading.focus();
    }
    thisWeek.hidden = isThisWeek;
    renderBanner(banner, data, stationID, now);
    addLink.hidden = !data.canEdit;
    el.classList.toggle("can-edit", Boolean(data.canEdit));

    const noShows = !(data.shows && data.shows.length);
    weekPanel.hidden = noShows;
    empty.hidden = !noShows;
    if (noShows) {
      addLink.hidden = true;
      fill(
        empty,
        h("h2", { class: "sched-empty-title", id: "sched-empty-title" }, "No shows on the schedule yet"),
        h(
          "p",
          { class: "hint" },
          data.canEdit
            ? "Put the station's shows on a schedule: listeners see what's on when, get reminders and can add it to their calendars."
            : "When the station's DJs put shows on a schedule, you'll find them here.",
        ),
        data.canEdit
          ? h("a", { class: "btn btn-primary sched-add-first", href: stationHref(stationID, "shows", "new") }, icon("plus", { size: 20 }), "Add a show")
          : null,
      );
    }
    const days = daysWithEpisodes(range, data.episodes);
    const count = days.reduce((n, d) => n + d.episodes.length, 0);
    setText(status, noShows ? "" : count ? "" : "Nothing on the schedule this week.");
    // Redrawn (a refresh when a show begins or ends): focus stays on the card it was on.
    const focused = document.activeElement && week.contains(document.activeElement) ? document.activeElement.closest(".sched-ep") : null;
    const focusedKey = focused ? focused.dataset.key : null;
    fill(week, weekDays(days, { stationID, now, onNow: data.now, next: data.next }));
    if (focusedKey) {
      const again = [...week.querySelectorAll(".sched-ep")].find((card) => card.dataset.key === focusedKey);
      if (again) again.querySelector("a").focus({ preventScroll: true });
    }
    week.dataset.count = String(count);

    subscribe.hidden = !data.calendarURL;
    // Drawn again only when the feed or the way to it changes (a refresh
    // mustn't take away a calendar link just made).
    const calendar = `${data.calendarURL || ""} ${data.calendarLinkURL || ""}`;
    if (data.calendarURL && subscribe.dataset.calendar !== calendar) {
      subscribe.dataset.calendar = calendar;
      fill(
        subscribe,
        h("h2", { class: "section-title", id: "sched-subscribe-title" }, "Subscribe"),
        calendarLinks(data.calendarURL, {
          label: "Subscribe to every show",
          hint: "Your calendar app keeps the station's shows up to date, moved and cancelled ones too.",
          idPrefix: "sched-cal",
          linkURL: data.calendarLinkURL,
        }),
      );
    }
  }

  /** Asks again when the show on now ends or the next begins (at most every 5 minutes). */
  function planRefresh(data) {
    clearTimeout(state.timer);
    if (state.destroyed) return;
    const now = Date.now();
    const marks = [data.now && data.now.end, data.next && data.next.start].filter((t) => Number.isFinite(t) && t > now);
    const wait = marks.length ? Math.min(...marks) - now + 1000 : REFRESH_MAX_MS;
    state.timer = setTimeout(() => load({ quiet: true }), Math.max(REFRESH_MIN_MS, Math.min(REFRESH_MAX_MS, wait)));
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
      setText(sub, [station.frequency ? `${station.frequency} FM` : null, station.name].filter(Boolean).join(" · "));
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
