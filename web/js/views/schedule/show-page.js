// A show's page (#/station/ID/show/SHOW): its name, genre, hosts and
// description, when it airs in words (its own start time and zone), the
// next episodes in your time, the last ones with what played, "Remind me"
// (a toggle: PUT or DELETE …/reminder; the first press asks to show
// notifications) and "Add to calendar". For the station's DJs: Edit,
// Delete (confirmed in the page), and per episode "Cancel episode" and
// "Move…", which send the whole spec back (PUT) with the change.
//
// This file holds the controller (loading, the reminder, delete, episode
// changes); the DOM is show-page-view.js and the words phrase.js.

import { setText, fill } from "../../ui/dom.js";
import { navigate, stationPath } from "../../router.js";
import { api } from "../../api/api.js";
import { scheduleApi } from "../../api/schedule.js";
import { session } from "../../api/session.js";
import { toast } from "../../ui/toast.js";
import { askPermission, reminders } from "../../reminders/reminders.js";
import { confirmDialog } from "../settings/widgets.js";
import { specOf, withCancelled, withMoved } from "./model.js";
import { REMINDER_LEAD_MINUTES, longDate, reminderWords, stationLine } from "./phrase.js";
import {
  buildShowPageView, focusKey, remindControl, restoreFocus, showAbout, showCalendar, showEditTools, showEpisodes, showPageProblem,
} from "./show-page-view.js";

export function createShowView(route) {
  const stationID = route.path[1];
  const showID = route.path[3];
  const state = { page: null, destroyed: false, busy: false, asked: 0 };
  const view = buildShowPageView(stationID, showID);
  const { el, remindNote, status } = view;
  // The remind control and the DJs' tools stay the same elements while
  // the page is redrawn (focus stays on them); made anew only when who is
  // signed in, or whether they may edit, changes.
  let remind = { signedIn: null, el: null };
  let editable = null;
  let title = "Show · Wavelength";

  async function toggleRemind(button) {
    if (button.getAttribute("aria-busy") === "true") return;
    const on = button.getAttribute("aria-pressed") !== "true";
    // Asked inside the click: browsers only show the question for a gesture.
    const permission = on ? askPermission() : null;
    button.setAttribute("aria-busy", "true");
    try {
      if (on) await scheduleApi.remind(stationID, showID, REMINDER_LEAD_MINUTES);
      else await scheduleApi.unremind(stationID, showID);
      if (state.destroyed) return;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      if (state.page) state.page.reminded = on;
      reminders.refresh();
      setText(remindNote, on ? reminderWords(await permission) : "No more reminders for this show.");
    } catch (error) {
      if (!state.destroyed) setText(remindNote, error.message || "Couldn't change the reminder.");
    } finally {
      button.removeAttribute("aria-busy");
    }
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
    title = `${show.name} · Wavelength`;
    if (el.isConnected) document.title = title;
    showAbout(view, show);
    const signedIn = Boolean(session.person);
    if (remind.signedIn !== signedIn) {
      remind = { signedIn, el: remindControl(signedIn, page.reminded, toggleRemind) };
      fill(view.remindSlot, remind.el);
    } else if (signedIn) {
      remind.el.setAttribute("aria-pressed", page.reminded ? "true" : "false");
    }
    if (!remindNote.textContent) setText(remindNote, page.reminded ? reminderWords(typeof Notification === "undefined" ? "unsupported" : Notification.permission) : "");
    if (editable !== Boolean(page.canEdit)) {
      editable = Boolean(page.canEdit);
      showEditTools(view, editable, { stationID, showID, onDelete: remove });
    }
    showCalendar(view, show, page.calendarLinkURL);
    el.classList.toggle("can-edit", Boolean(page.canEdit));
    el.dataset.reminded = page.reminded ? "true" : "false";
    showEpisodes(view, page, page.canEdit ? actions : null);
  }

  async function load({ quiet = false } = {}) {
    const token = ++state.asked;
    if (!quiet) el.dataset.state = "loading";
    try {
      const page = await scheduleApi.show(stationID, showID);
      if (token !== state.asked || state.destroyed) return;
      state.page = page;
      // Keep focus where it was when the lists are redrawn under it.
      const focusedKey = focusKey(view);
      render(page);
      restoreFocus(view, focusedKey);
      el.dataset.state = "ready";
    } catch (error) {
      if (token !== state.asked || state.destroyed) return;
      showPageProblem(view, error, stationID);
    }
  }

  async function loadStation() {
    try {
      const station = await api.station(stationID);
      if (!state.destroyed) setText(view.sub, stationLine(station));
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
    focusTarget: () => view.heading,
    destroy() {
      state.destroyed = true;
      stopFollowing();
    },
  };
}
