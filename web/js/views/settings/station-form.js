// The "Station" form: its name, who can listen and a listener limit. The
// owner edits and saves them (PATCH, only what changed); a co-DJ sees them
// read-only with a note.

import { request } from "../../api/api.js";
import { h } from "../../ui/dom.js";
import { VISIBILITIES } from "./labels.js";
import { isOwner, stationChanges } from "./state.js";
import { errorText, say, status } from "./widgets.js";

/**
 * @param {() => void} onStation shows the saved station everywhere
 * @param {() => Promise<void>} onSaved reloads what a save may change (the code)
 */
export function createStationForm(state, { onStation, onSaved }) {
  const nameInput = h("input", { id: "settings-name", class: "input", type: "text", maxlength: "80", required: true, autocomplete: "off" });
  const visInputs = VISIBILITIES.map((v) =>
    h("input", { type: "radio", name: `visibility-${state.stationID}`, value: v.value, id: `vis-${v.value}`, class: "vis-radio", "aria-describedby": `vis-${v.value}-line` }),
  );
  const visFieldset = h(
    "fieldset",
    { class: "vis-group" },
    h("legend", { class: "label vis-legend" }, "Who can listen"),
    VISIBILITIES.map((v, i) =>
      h(
        "label",
        { class: "vis-option", for: `vis-${v.value}`, dataset: { value: v.value } },
        visInputs[i],
        h("span", { class: "vis-text" }, h("span", { class: "vis-label" }, v.label), h("span", { class: "vis-line", id: `vis-${v.value}-line` }, v.line)),
      ),
    ),
  );
  const maxInput = h("input", {
    id: "settings-max",
    class: "input input-max",
    type: "number",
    inputmode: "numeric",
    min: "1",
    max: "10000",
    step: "1",
    placeholder: "No limit",
    "aria-describedby": "settings-max-hint",
  });
  const saveButton = h("button", { class: "btn btn-primary btn-wide", type: "submit" }, "Save changes");
  const stationStatus = status("station-status");
  const coNote = h("p", { class: "hint codj-note" }, "Only the owner can change these.");
  const form = { nameInput, visInputs, maxInput, saveButton, stationStatus, coNote, onStation, onSaved };
  form.el = h(
    "form",
    { class: "panel station-form", "aria-labelledby": "station-heading", onsubmit: (e) => saveStation(state, form, e), novalidate: true },
    h("h2", { id: "station-heading", class: "section-title" }, "Station"),
    coNote,
    h("label", { for: "settings-name", class: "label" }, "Name"),
    nameInput,
    visFieldset,
    h("label", { for: "settings-max", class: "label" }, "Maximum listeners"),
    maxInput,
    h("p", { class: "hint", id: "settings-max-hint" }, "Leave blank for no limit (up to 10,000)."),
    saveButton,
    stationStatus,
  );
  return form;
}

/** Editable for the owner only. */
export function applyFormRole(state, form) {
  const owner = isOwner(state);
  form.coNote.hidden = owner;
  form.nameInput.disabled = !owner;
  form.maxInput.disabled = !owner;
  for (const input of form.visInputs) input.disabled = !owner;
  form.saveButton.hidden = !owner;
}

/** The station's values in the form, leaving alone a field being typed in. */
export function renderStationForm(state, form) {
  const { station } = state;
  if (document.activeElement !== form.nameInput) form.nameInput.value = station.name;
  for (const input of form.visInputs) input.checked = input.value === (station.visibility || "public");
  if (document.activeElement !== form.maxInput) form.maxInput.value = station.maxListeners == null ? "" : String(station.maxListeners);
}

async function saveStation(state, form, event) {
  event.preventDefault();
  if (!isOwner(state) || !state.station) return;
  const picked = form.visInputs.find((i) => i.checked);
  const edit = stationChanges(state.station, { name: form.nameInput.value, visibility: picked && picked.value, max: form.maxInput.value });
  if (edit.error) {
    say(form.stationStatus, edit.error, "error");
    (edit.field === "name" ? form.nameInput : form.maxInput).focus();
    return;
  }
  const { changes } = edit;
  if (!Object.keys(changes).length) {
    say(form.stationStatus, "Nothing to save: no changes.");
    return;
  }
  form.saveButton.disabled = true;
  say(form.stationStatus, "Saving…");
  try {
    state.station = await request(state.base, { method: "PATCH", body: changes });
    form.onStation();
    const vis = VISIBILITIES.find((v) => v.value === state.station.visibility);
    say(form.stationStatus, changes.visibility ? `Saved. ${vis?.label || state.station.visibility}: ${vis?.line || ""}` : "Saved.");
    await form.onSaved();
  } catch (error) {
    say(form.stationStatus, errorText(error), "error");
  } finally {
    form.saveButton.disabled = false;
  }
}
