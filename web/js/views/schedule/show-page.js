// A show's page (#/station/ID/show/SHOW): its name, genre, hosts and
// description, when it airs in words (its own start time and zone), the
// next episodes in your time, the last ones with what played, "Remind me"
// (a toggle: PUT or DELETE …/reminder; the first press asks to show
// notifications) and "Add to calendar". For the station's DJs: Edit,
// Delete (confirmed in the page), and per episode "Cancel episode" and
// "Move…", which send the whole spec back (PUT) with the change.

import { h, fill, setText, icon } from "../../ui/dom.js";
import { authHref, navigate, stationHref, stationPath } from "../../router.js";
import { api } from "../../api/api.js";
import { scheduleApi } from "../../api/schedule.js";
import { session } from "../../api/session.js";
import { toast } from "../../ui/toast.js";
import { askPermission, reminders } from "../../reminders/reminders.js";
import { confirmDialog } from "../settings/widgets.js";
import { calendarLinks } from "./calendar-links.js";
import { cancelledList, pastList, upcomingList } from "./episodes.js";
import { specOf, withCancelled, withMoved } from "./model.js";
import { airsPhrase, hostsPhrase, longDate, seasonPhrase } from "./phrase.js";

const LEAD_MINUTES = 10;

export function createShowView(route) {
  const stationID = route.path[1];
  const showID = route.path[3];
  const state = { page: null, destroyed: false, busy: false, asked: 0 };

  const heading = h("h1", { class: "settings-title show-title", tabindex: "-1" }, "…");
  const sub = h("p", { class: "settings-sub show-station" });
  const header = h(
    "header",
    { class: "settings-bar show-bar" },
    h("a", { class: "btn-icon btn-back-station btn-back-schedule", href: stationHref(stationID, "schedule"), "aria-label": "Back to the schedule" }, icon("back", { size: 26 })),
    h("div", { class: "settings-heading" }, heading, sub),
  );

  // About: when it airs, the season, the hosts, the description.
  const genre = h("p", { class: "show-genre" });
  const airs = h("p", { class: "show-airs" });
  const season = h("p", { class: "show-season" });
  const hosts = h("p", { class: "show-hosts" });
  const description = h("p", { class: "show-description" });
  const remindSlot = h("div", { class: "show-remind-slot" });
  const remindNote = h("p", { class: "hint show-remind-note", id: "show-remind-note", role: "status" });
  // The remind control and the DJs' tools stay the same elements while
  // the page is redrawn (focus stays on them); made anew only when who is
  // signed in, or whether they may edit, changes.
  let remind = { signedIn: null, el: null };
  let editable = null;
  const calendarSlot = h("div", { class: "show-calendar" });
  const editSlot = h("div", { class: "show-edit-tools", hidden: true });
  const status = h("p", { class: "settings-status show-status", role: "status", "aria-live": "polite" });
  const about = h(
    "section",
    { class: "panel show-about", "aria-label": "About the show" },
    h("div", { class: "show-dial" }, genre, airs, season),
    hosts,
    description,
    h("div", { class: "show-actions" }, remindSlot, editSlot),
    remindNote,
    calendarSlot,
    status,
  );
  const upcoming = h("section", { class: "panel show-upcoming", "aria-labelledby": "show-upcoming-title" });
  const past = h("section", { class: "panel show-past-panel", "aria-labelledby": "show-past-title" });
  const body = h("div", { class: "show-grid" }, about, upcoming, past);
  const el = h("section", { class: "screen show-screen", dataset: { stationId: stationID, showId: showID, state: "loading" } }, header, body);
  let title = "Show · Wavelength";

  function showProblem(error) {
    const notFound = error.status === 404;
    const denied = error.status === 401 || error.status === 403;
    fill(
      body,
      h(
        "div",
        { class: "notice notice-error big-notice", role: "alert" },
        h("h2", {}, notFound ? "No show here" : denied ? "This show is for the station's listeners" : "Can't open the show"),
        h("p", {}, notFound ? "It may have been taken off the schedule." : error.message),
        h(
          "p",
          { class: "over-actions" },
          h("a", { class: "btn btn-primary", href: stationHref(stationID, "schedule") }, "The schedule"),
          h("a", { class: "btn btn-secondary", href: "#/" }, "Back to the dial"),
        ),
      ),
    );
    el.dataset.state = "error";
  }

  function remindControl(page) {
    if (!session.person) {
      return h("a", { class: "btn btn-secondary show-remind-signin", href: authHref("login") }, bellIcon(), "Sign in to get reminders");
    }
    const button = h(
      "button",
      { class: "btn btn-secondary show-remind", type: "button", "aria-pressed": page.reminded ? "true" : "false", "aria-describedby": "show-remind-note" },
      bellIcon(),
      h("span", {}, "Remind me"),
    );
    button.addEventListener("click", () => toggleRemind(button));
    return button;
  }

  async function toggleRemind(button) {
    if (button.getAttribute("aria-busy") === "true") return;
    const on = button.getAttribute("aria-pressed") !== "true";
    // Asked inside the click: browsers only show the question for a gesture.
    const permission = on ? askPermission() : null;
    button.setAttribute("aria-busy", "true");
    try {
      if (on) await scheduleApi.remind(stationID, showID, LEAD_MINUTES);
      else await scheduleApi.unremind(stationID, showID);
      if (state.destroyed) return;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      if (state.page) state.page.reminded = on;
      reminders.refresh();
      if (on) {
        const answer = await permission;
        setText(remindNote, reminderWords(answer));
      } else {
        setText(remindNote, "No more reminders for this show.");
      }
    } catch (error) {
      if (!state.destroyed) setText(remindNote, error.message || "Couldn't change the reminder.");
    } finally {
      button.removeAttribute("aria-busy");
    }
  }

  function renderEditTools(page) {
    if (editable === Boolean(page.canEdit)) return;
    editable = Boolean(page.canEdit);
    editSlot.hidden = !page.canEdit;
    if (!page.canEdit) {
      fill(editSlot);
      return;
    }
    fill(
      editSlot,
      h("a", { class: "btn btn-secondary show-edit", href: stationHref(stationID, "show", showID, "edit") }, "Edit"),
      h("button", { class: "btn btn-danger-outline show-delete", type: "button", onclick: (event) => remove(event.currentTarget) }, "Delete"),
    );
  }

  async function remove(button) {
    const name = state.page ? state.page.show.name : "this show";
    const yes = await confirmDialog({
      title: `Delete “${name}”?`,
      body: "Every episode leaves the schedule and listeners' reminders for it stop. This can't be undone.",
      confirmLabel: "Delete show",
    });
    if (!yes || state.destroyed) return;
    button.disabled = true;
    try {
      await scheduleApi.remove(stationID, showID);
      reminders.refresh();
      toast(`Deleted ${name}.`);
      navigate(stationPath(stationID, "schedule"));
    } catch (error) {
      button.disabled = false;
      setText(status, error.message || "Couldn't delete the show.");
      status.dataset.kind = "error";
    }
  }

  /** Sends the spec back with one change, then shows the page again. */
  async function change(spec, done) {
    const show = await scheduleApi.update(stationID, showID, spec);
    if (state.destroyed) return;
    if (show && show.id) state.page.show = show;
    status.dataset.kind = "ok";
    setText(status, done);
    await load({ quiet: true });
  }

  const actions = {
    cancel: (episode, date) => change(withCancelled(specOf(state.page.show), date), `Cancelled the episode of ${longDate(date)}.`),
    move: (episode, date, start, minutes) =>
      change(withMoved(specOf(state.page.show), { date, start, durationMinutes: minutes }), `Moved the episode of ${longDate(date)}.`),
    restore: (date) => {
      const spec = specOf(state.page.show);
      return change(
        { ...spec, cancelled: spec.cancelled.filter((d) => d !== date), moved: spec.moved.filter((m) => m.date !== date) },
        `The episode of ${longDate(date)} is back on the schedule.`,
      );
    },
  };

  function render(page) {
    const { show } = page;
    setText(heading, show.name);
    title = `${show.name} · Wavelength`;
    if (el.isConnected) document.title = title;
    setText(genre, show.genre || "");
    genre.hidden = !show.genre;
    setText(airs, airsPhrase(show));
    setText(season, seasonPhrase(show));
    season.hidden = !season.textContent;
    setText(hosts, show.hosts && show.hosts.length ? `Hosted by ${hostsPhrase(show.hosts)}` : "");
    hosts.hidden = !hosts.textContent;
    setText(description, show.description || "");
    description.hidden = !show.description;
    const signedIn = Boolean(session.person);
    if (remind.signedIn !== signedIn) {
      remind = { signedIn, el: remindControl(page) };
      fill(remindSlot, remind.el);
    } else if (signedIn) {
      remind.el.setAttribute("aria-pressed", page.reminded ? "true" : "false");
    }
    if (!remindNote.textContent) setText(remindNote, page.reminded ? reminderWords(typeof Notification === "undefined" ? "unsupported" : Notification.permission) : "");
    renderEditTools(page);
    const calendar = `${show.calendarURL || ""} ${page.calendarLinkURL || ""}`;
    if (calendarSlot.dataset.url !== calendar) {
      calendarSlot.dataset.url = calendar;
      fill(
        calendarSlot,
        show.calendarURL
          ? calendarLinks(show.calendarURL, {
              label: "Add to calendar",
              hint: "Subscribe and your calendar follows the show, moved and cancelled episodes too.",
              idPrefix: "show-cal",
              linkURL: page.calendarLinkURL,
            })
          : null,
      );
    }
    el.classList.toggle("can-edit", Boolean(page.canEdit));
    el.dataset.reminded = page.reminded ? "true" : "false";

    fill(
      upcoming,
      h("h2", { class: "section-title", id: "show-upcoming-title" }, "Coming up"),
      h("p", { class: "hint show-local-note" }, "Times in your time zone."),
      upcomingList(page, page.canEdit ? actions : null),
      page.canEdit ? cancelledList(page, actions.restore) : null,
    );
    fill(past, h("h2", { class: "section-title", id: "show-past-title" }, "Last episodes"), pastList(page));
  }

  async function load({ quiet = false } = {}) {
    const token = ++state.asked;
    if (!quiet) el.dataset.state = "loading";
    try {
      const page = await scheduleApi.show(stationID, showID);
      if (token !== state.asked || state.destroyed) return;
      state.page = page;
      // Keep focus where it was when the lists are redrawn under it.
      const focusedKey = focusKey();
      render(page);
      restoreFocus(focusedKey);
      el.dataset.state = "ready";
    } catch (error) {
      if (token !== state.asked || state.destroyed) return;
      showProblem(error);
    }
  }

  function focusKey() {
    const active = document.activeElement;
    if (!active || !el.contains(active)) return null;
    const li = active.closest("[data-start], [data-date]");
    return li ? { start: li.dataset.start || null, date: li.dataset.date || null } : null;
  }

  /** After a redraw, focus goes back to the episode's row, or to the list's heading when the row is gone. */
  function restoreFocus(key) {
    if (!key || el.contains(document.activeElement)) return;
    const selector = key.date ? `[data-date="${CSS.escape(key.date)}"] button` : `[data-start="${CSS.escape(key.start)}"] button`;
    const target = upcoming.querySelector(selector);
    if (target) {
      target.focus();
      return;
    }
    const title = upcoming.querySelector("h2");
    if (title) {
      title.tabIndex = -1;
      title.focus();
    }
  }

  async function loadStation() {
    try {
      const station = await api.station(stationID);
      if (!state.destroyed) setText(sub, [station.frequency ? `${station.frequency} FM` : null, station.name].filter(Boolean).join(" · "));
    } catch {
      // The show's page works without the station's name.
    }
  }

  loadStation();
  load();
  const stopFollowing = session.onChange(() => {
    if (state.page && !state.destroyed) load({ quiet: true });
  });

  return {
    el,
    get title() {
      return title;
    },
    focusTarget: () => heading,
    destroy() {
      state.destroyed = true;
      stopFollowing();
    },
  };
}

function reminderWords(permission) {
  if (permission === "granted") return `You'll get a notification ${LEAD_MINUTES} minutes before each episode, and a reminder here while Wavelength is open.`;
  if (permission === "denied") return `Notifications are blocked for this site, so the reminder shows here, in Wavelength, ${LEAD_MINUTES} minutes before each episode while it's open.`;
  return `You'll get a reminder here ${LEAD_MINUTES} minutes before each episode while Wavelength is open.`;
}

function bellIcon(size = 20) {
  return icon("bell", { size });
}
