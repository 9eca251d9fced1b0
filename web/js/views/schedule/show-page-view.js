// A show's page's DOM (show-page.js's screen, drawn here): the header, the
// "About" panel (genre, when it airs, season, hosts, description, Remind
// me, the DJs' Edit and Delete, the calendar links), "Coming up" and "Last
// episodes"; the functions that fill them from the server's page, the
// problem notice, and keeping focus on an episode's row across a redraw.
// Names and descriptions go in as text; the words are phrase.js's.

import { h, fill, setText, icon } from "../../ui/dom.js";
import { authHref, stationHref } from "../../router.js";
import { calendarLinks } from "./calendar-links.js";
import { cancelledList, pastList, upcomingList } from "./episodes.js";
import { airsPhrase, hostsPhrase, seasonPhrase, showProblemWords } from "./phrase.js";

function bellIcon(size = 20) {
  return icon("bell", { size });
}

/** The page, loading: every element the controller fills, by name. */
export function buildShowPageView(stationID, showID) {
  const heading = h("h1", { class: "settings-title show-title", tabindex: "-1" }, "…");
  const sub = h("p", { class: "settings-sub show-station" });
  const header = h(
    "header",
    { class: "settings-bar show-bar" },
    h("a", { class: "btn-icon btn-back-station btn-back-schedule", href: stationHref(stationID, "schedule"), "aria-label": "Back to the schedule" }, icon("back", { size: 26 })),
    h("div", { class: "settings-heading" }, heading, sub),
  );
  // About: when it airs, the season, the hosts, the description.
  const parts = {
    genre: h("p", { class: "show-genre" }),
    airs: h("p", { class: "show-airs" }),
    season: h("p", { class: "show-season" }),
    hosts: h("p", { class: "show-hosts" }),
    description: h("p", { class: "show-description" }),
    remindSlot: h("div", { class: "show-remind-slot" }),
    remindNote: h("p", { class: "hint show-remind-note", id: "show-remind-note", role: "status" }),
    calendarSlot: h("div", { class: "show-calendar" }),
    editSlot: h("div", { class: "show-edit-tools", hidden: true }),
    status: h("p", { class: "settings-status show-status", role: "status", "aria-live": "polite" }),
  };
  const about = h(
    "section",
    { class: "panel show-about", "aria-label": "About the show" },
    h("div", { class: "show-dial" }, parts.genre, parts.airs, parts.season),
    parts.hosts,
    parts.description,
    h("div", { class: "show-actions" }, parts.remindSlot, parts.editSlot),
    parts.remindNote,
    parts.calendarSlot,
    parts.status,
  );
  const upcoming = h("section", { class: "panel show-upcoming", "aria-labelledby": "show-upcoming-title" });
  const past = h("section", { class: "panel show-past-panel", "aria-labelledby": "show-past-title" });
  const body = h("div", { class: "show-grid" }, about, upcoming, past);
  const el = h("section", { class: "screen show-screen", dataset: { stationId: stationID, showId: showID, state: "loading" } }, header, body);
  return { el, heading, sub, body, upcoming, past, ...parts };
}

/** The page won't open: why, with ways on. */
export function showPageProblem(view, error, stationID) {
  const words = showProblemWords(error);
  fill(
    view.body,
    h(
      "div",
      { class: "notice notice-error big-notice", role: "alert" },
      h("h2", {}, words.title),
      h("p", {}, words.text),
      h(
        "p",
        { class: "over-actions" },
        h("a", { class: "btn btn-primary", href: stationHref(stationID, "schedule") }, "The schedule"),
        h("a", { class: "btn btn-secondary", href: "#/" }, "Back to the dial"),
      ),
    ),
  );
  view.el.dataset.state = "error";
}

/** "Remind me" (a toggle) for someone signed in, else a link to sign in. */
export function remindControl(signedIn, reminded, onToggle) {
  if (!signedIn) {
    return h("a", { class: "btn btn-secondary show-remind-signin", href: authHref("login") }, bellIcon(), "Sign in to get reminders");
  }
  const button = h(
    "button",
    { class: "btn btn-secondary show-remind", type: "button", "aria-pressed": reminded ? "true" : "false", "aria-describedby": "show-remind-note" },
    bellIcon(),
    h("span", {}, "Remind me"),
  );
  button.addEventListener("click", () => onToggle(button));
  return button;
}

/** The DJs' Edit and Delete (none for a listener). */
export function showEditTools(view, canEdit, { stationID, showID, onDelete }) {
  view.editSlot.hidden = !canEdit;
  if (!canEdit) {
    fill(view.editSlot);
    return;
  }
  fill(
    view.editSlot,
    h("a", { class: "btn btn-secondary show-edit", href: stationHref(stationID, "show", showID, "edit") }, "Edit"),
    h("button", { class: "btn btn-danger-outline show-delete", type: "button", onclick: (event) => onDelete(event.currentTarget) }, "Delete"),
  );
}

/** The show's facts in words: genre, when it airs, season, hosts, description (each hidden when empty). */
export function showAbout(view, show) {
  setText(view.heading, show.name);
  setText(view.genre, show.genre || "");
  view.genre.hidden = !show.genre;
  setText(view.airs, airsPhrase(show));
  setText(view.season, seasonPhrase(show));
  view.season.hidden = !view.season.textContent;
  setText(view.hosts, show.hosts && show.hosts.length ? `Hosted by ${hostsPhrase(show.hosts)}` : "");
  view.hosts.hidden = !view.hosts.textContent;
  setText(view.description, show.description || "");
  view.description.hidden = !show.description;
}

/** "Add to calendar", drawn again only when its addresses change. */
export function showCalendar(view, show, linkURL) {
  const calendar = `${show.calendarURL || ""} ${linkURL || ""}`;
  if (view.calendarSlot.dataset.url === calendar) return;
  view.calendarSlot.dataset.url = calendar;
  fill(
    view.calendarSlot,
    show.calendarURL
      ? calendarLinks(show.calendarURL, {
          label: "Add to calendar",
          hint: "Subscribe and your calendar follows the show, moved and cancelled episodes too.",
          idPrefix: "show-cal",
          linkURL,
        })
      : null,
  );
}

/** "Coming up" (with the DJs' per-episode `actions`, or null) and "Last episodes". */
export function showEpisodes(view, page, actions) {
  fill(
    view.upcoming,
    h("h2", { class: "section-title", id: "show-upcoming-title" }, "Coming up"),
    h("p", { class: "hint show-local-note" }, "Times in your time zone."),
    upcomingList(page, actions),
    actions ? cancelledList(page, actions.restore) : null,
  );
  fill(view.past, h("h2", { class: "section-title", id: "show-past-title" }, "Last episodes"), pastList(page));
}

/** Which episode row has focus now ({start, date}), or null. */
export function focusKey(view) {
  const active = document.activeElement;
  if (!active || !view.el.contains(active)) return null;
  const li = active.closest("[data-start], [data-date]");
  return li ? { start: li.dataset.start || null, date: li.dataset.date || null } : null;
}

/** After a redraw, focus goes back to the episode's row, or to the list's heading when the row is gone. */
export function restoreFocus(view, key) {
  if (!key || view.el.contains(document.activeElement)) return;
  const selector = key.date ? `[data-date="${CSS.escape(key.date)}"] button` : `[data-start="${CSS.escape(key.start)}"] button`;
  const target = view.upcoming.querySelector(selector);
  if (target) {
    target.focus();
    return;
  }
  const title = view.upcoming.querySelector("h2");
  if (title) {
    title.tabIndex = -1;
    title.focus();
  }
}
