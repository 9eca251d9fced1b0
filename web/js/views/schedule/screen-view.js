// The schedule screen's DOM (screen.js's screen, drawn here): the header
// with "Add a show", the banner, the week's toolbar (previous, next, back
// to this week), the week itself, "No shows on the schedule yet" and
// "Subscribe"; and the functions that fill them from the server's answer,
// keeping focus on the card it was on. Show names go in as text (week.js).

import { h, fill, setText, icon } from "../../ui/dom.js";
import { stationHref } from "../../router.js";
import { createBanner } from "./banner.js";
import { calendarLinks } from "./calendar-links.js";
import { weekDays } from "./week.js";

function navButton(className, label, word, glyph, onclick, iconFirst) {
  const wordEl = h("span", { class: "sched-nav-word", "aria-hidden": "true" }, word);
  const iconEl = icon(glyph, { size: 18 });
  return h("button", { class: `btn btn-secondary btn-small ${className}`, type: "button", "aria-label": label, onclick }, ...(iconFirst ? [iconEl, wordEl] : [wordEl, iconEl]));
}

/** The screen, loading; `onWeek(step)` moves a week (-1, 1) and `onThisWeek()` back to now. */
export function buildScheduleView(stationID, { onWeek, onThisWeek }) {
  const heading = h("h1", { class: "settings-title sched-title", tabindex: "-1" }, "Schedule");
  const sub = h("p", { class: "settings-sub sched-station" }, "…");
  const addLink = h("a", { class: "btn btn-primary btn-small sched-add", href: stationHref(stationID, "shows", "new"), hidden: true }, icon("plus", { size: 18 }), "Add a show");
  const header = h(
    "header",
    { class: "settings-bar sched-bar" },
    h("a", { class: "btn-icon btn-back-station", href: stationHref(stationID), "aria-label": "Back to the station" }, icon("back", { size: 26 })),
    h("div", { class: "settings-heading" }, heading, sub),
    addLink,
  );
  const banner = createBanner();
  const weekHeading = h("h2", { class: "sched-week-title", id: "sched-week-title", "aria-live": "polite" }, "…");
  const prev = navButton("sched-prev", "Previous week", "Previous", "prev", () => onWeek(-1), true);
  const next = navButton("sched-next", "Next week", "Next", "next", () => onWeek(1), false);
  const thisWeek = h("button", { class: "btn btn-ghost btn-small sched-this-week", type: "button", hidden: true, onclick: () => onThisWeek() }, "Back to this week");
  const toolbar = h("nav", { class: "sched-toolbar", "aria-label": "Weeks" }, prev, h("div", { class: "sched-week-head" }, weekHeading, thisWeek), next);
  const status = h("p", { class: "sched-status", role: "status" });
  const week = h("div", { class: "sched-week" });
  const weekPanel = h("section", { class: "sched-week-panel", "aria-labelledby": "sched-week-title" }, toolbar, status, week);
  const empty = h("section", { class: "panel sched-empty", hidden: true, "aria-labelledby": "sched-empty-title" });
  const subscribe = h("section", { class: "panel sched-subscribe", hidden: true, "aria-labelledby": "sched-subscribe-title" });
  const body = h("div", { class: "sched-body" }, banner.el, weekPanel, empty, subscribe);
  const el = h("section", { class: "screen schedule-screen", dataset: { stationId: stationID, state: "loading" } }, header, body);
  return { el, body, heading, sub, addLink, banner, weekHeading, thisWeek, status, week, weekPanel, empty, subscribe };
}

/** The week's title; "Back to this week" hides once there, and focus goes to the title, not the page. */
export function showWeekTitle(view, text, isThisWeek) {
  setText(view.weekHeading, text);
  if (isThisWeek && document.activeElement === view.thisWeek) {
    view.weekHeading.tabIndex = -1;
    view.weekHeading.focus();
  }
  view.thisWeek.hidden = isThisWeek;
}

/** No shows at all: says so, with "Add a show" for the DJs. */
export function showNoShows(view, canEdit, stationID) {
  fill(
    view.empty,
    h("h2", { class: "sched-empty-title", id: "sched-empty-title" }, "No shows on the schedule yet"),
    h(
      "p",
      { class: "hint" },
      canEdit
        ? "Put the station's shows on a schedule: listeners see what's on when, get reminders and can add it to their calendars."
        : "When the station's DJs put shows on a schedule, you'll find them here.",
    ),
    canEdit ? h("a", { class: "btn btn-primary sched-add-first", href: stationHref(stationID, "shows", "new") }, icon("plus", { size: 20 }), "Add a show") : null,
  );
}

/** The week's days (weekDays' options); redrawn, focus stays on the card it was on. */
export function showWeek(view, days, options) {
  const { week } = view;
  const focused = document.activeElement && week.contains(document.activeElement) ? document.activeElement.closest(".sched-ep") : null;
  const focusedKey = focused ? focused.dataset.key : null;
  fill(week, weekDays(days, options));
  if (focusedKey) {
    const again = [...week.querySelectorAll(".sched-ep")].find((card) => card.dataset.key === focusedKey);
    if (again) again.querySelector("a").focus({ preventScroll: true });
  }
}

/**
 * "Subscribe", drawn again only when the feed or the way to it changes (a
 * refresh mustn't take away a calendar link just made).
 */
export function showSubscribe(view, data) {
  const { subscribe } = view;
  subscribe.hidden = !data.calendarURL;
  const calendar = `${data.calendarURL || ""} ${data.calendarLinkURL || ""}`;
  if (!data.calendarURL || subscribe.dataset.calendar === calendar) return;
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
