// Adding a show (#/station/ID/shows/new) and changing one
// (#/station/ID/show/SHOW/edit), for the station's owner and co-DJs. The
// form (form.js) is checked lightly here and fully by the server: a
// refusal (a clash with another show, a handle nobody has) shows the
// server's message in the form's alert, and everything typed stays.

import { h, fill, setText, icon } from "../../ui/dom.js";
import { authHref, navigate, stationHref, stationPath } from "../../router.js";
import { api } from "../../api/api.js";
import { scheduleApi } from "../../api/schedule.js";
import { session } from "../../api/session.js";
import { toast } from "../../ui/toast.js";
import { createShowForm } from "./form.js";
import { browserZone, newShowValues, specFromValues, valuesOfShow, weekRange, weekValue } from "./model.js";

export function createShowEditor(route) {
  const stationID = route.path[1];
  const editing = route.path[2] === "show";
  const showID = editing ? route.path[3] : null;
  const state = { destroyed: false, keep: {}, saving: false };
  const backHref = editing ? stationHref(stationID, "show", showID) : stationHref(stationID, "schedule");

  const heading = h("h1", { class: "settings-title editor-title", tabindex: "-1" }, editing ? "Edit show" : "New show");
  const sub = h("p", { class: "settings-sub editor-station" });
  const header = h(
    "header",
    { class: "settings-bar editor-bar" },
    h("a", { class: "btn-icon btn-back-station btn-back-editor", href: backHref, "aria-label": editing ? "Back to the show" : "Back to the schedule" }, icon("back", { size: 26 })),
    h("div", { class: "settings-heading" }, heading, sub),
  );
  const body = h("div", { class: "editor-body" }, h("p", { class: "loading-line" }, "Tuning in the schedule…"));
  const el = h("section", { class: "screen show-editor-screen", dataset: { stationId: stationID, state: "loading", mode: editing ? "edit" : "new" } }, header, body);
  let title = editing ? "Edit show · Wavelength" : "New show · Wavelength";
  let form = null;

  function notice(headingText, text, links) {
    fill(body, h("div", { class: "notice notice-error big-notice", role: "alert" }, h("h2", {}, headingText), h("p", {}, text), h("p", { class: "over-actions" }, links)));
    el.dataset.state = "error";
  }

  function refused(error) {
    if (error.status === 401 || !session.person) {
      notice("Sign in to edit the schedule", "Only the station's owner and co-DJs can add and change shows.", [
        h("a", { class: "btn btn-primary", href: authHref("login") }, "Sign in"),
        h("a", { class: "btn btn-secondary", href: stationHref(stationID, "schedule") }, "The schedule"),
      ]);
    } else if (error.status === 403) {
      notice("Only the station's DJs edit its schedule", "The owner and co-DJs add and change shows; everyone can read the schedule.", [
        h("a", { class: "btn btn-primary", href: stationHref(stationID, "schedule") }, "The schedule"),
      ]);
    } else if (error.status === 404) {
      notice(editing ? "No show here" : "No station here", editing ? "It may have been taken off the schedule." : "Nothing is broadcasting with that id.", [
        h("a", { class: "btn btn-primary", href: editing ? stationHref(stationID, "schedule") : "#/" }, editing ? "The schedule" : "Back to the dial"),
      ]);
    } else {
      notice("Can't open the editor", error.message, [h("a", { class: "btn btn-primary", href: backHref }, "Back")]);
    }
  }

  async function save(values) {
    if (state.saving) return;
    form.clear();
    const result = specFromValues(values, state.keep);
    if (result.error) {
      form.fail(result.error, result.field);
      return;
    }
    state.saving = true;
    form.busy(true);
    try {
      const show = editing ? await scheduleApi.update(stationID, showID, result.spec) : await scheduleApi.create(stationID, result.spec);
      if (state.destroyed) return;
      toast(editing ? `Saved ${show.name}.` : `${show.name} is on the schedule.`);
      navigate(stationPath(stationID, "show", show.id || showID));
    } catch (error) {
      if (state.destroyed) return;
      // The server's words (a clash names both shows and the episode); what was typed stays.
      form.fail(error.message || "Couldn't save the show.");
      el.dataset.refused = error.code || "error";
    } finally {
      state.saving = false;
      if (!state.destroyed && form) form.busy(false);
    }
  }

  function showForm(values) {
    form = createShowForm(values, { submitLabel: editing ? "Save changes" : "Add to the schedule", cancelHref: backHref, onSubmit: save });
    fill(body, form.el);
    el.dataset.state = "ready";
  }

  async function load() {
    try {
      if (editing) {
        const page = await scheduleApi.show(stationID, showID);
        if (state.destroyed) return;
        if (!page.canEdit) {
          refused({ status: session.person ? 403 : 401 });
          return;
        }
        const { values, keep } = valuesOfShow(page.show);
        state.keep = keep;
        title = `Edit ${page.show.name} · Wavelength`;
        if (el.isConnected) document.title = title;
        setText(heading, "Edit show");
        showForm(values);
      } else {
        // Whether you may add a show: the schedule says (canEdit).
        const range = weekRange(weekValue(null));
        const schedule = await scheduleApi.schedule(stationID, { from: range.from, to: range.to, tz: browserZone() });
        if (state.destroyed) return;
        if (!schedule.canEdit) {
          refused({ status: session.person ? 403 : 401 });
          return;
        }
        const person = session.person;
        showForm(newShowValues(new Date(), { host: person && person.kind === "user" && person.handle ? person.handle : "" }));
      }
    } catch (error) {
      if (!state.destroyed) refused(error);
    }
  }

  async function loadStation() {
    try {
      const station = await api.station(stationID);
      if (!state.destroyed) setText(sub, [station.frequency ? `${station.frequency} FM` : null, station.name].filter(Boolean).join(" · "));
    } catch {
      // Not needed to edit.
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
    destroy() {
      state.destroyed = true;
    },
  };
}
