// The show editor's form: every field of a ShowSpec a person sets (name,
// genre, description, hosts by handle, time zone, start, length, how it
// repeats, the season), a preview of when it airs in words, and one alert
// for what is wrong (the server's own message for a clash). What the form
// doesn't edit (cancelled and moved episodes, cover art, the week's first
// day) goes back as it was.

//
// This file lays the form out and holds its behaviour (which fields show,
// the preview, reading, errors); the inputs are form-fields.js and the
// words phrase.js.

import { h, setText } from "../../ui/dom.js";
import { formPreview, intervalLabel } from "./phrase.js";
import { aboutInputs, field, repeatInputs, seasonInputs, timeInputs } from "./form-fields.js";

const INTERVALS = Array.from({ length: 12 }, (_, i) => i + 1);

export function createShowForm(values, { submitLabel, cancelHref, onSubmit }) {
  const { name, genre, hosts, description } = aboutInputs(values);
  const { zone, start, duration, durationHint } = timeInputs(values);
  const { kindInputs, kindGroup, interval, intervalField, dayInputs, daysGroup, ordinal, weekday, monthlyGroup } = repeatInputs(values);
  const { seasonStart, seasonStartLabel, seasonEnd, seasonEndField } = seasonInputs(values);
  const preview = h("p", { class: "show-preview", id: "show-preview" });
  const error = h("p", { class: "form-error show-form-error", role: "alert" });
  const save = h("button", { class: "btn btn-primary show-save", type: "submit" }, submitLabel);

  const el = h(
    "form",
    { class: "show-form", novalidate: true, "aria-describedby": "show-preview" },
    h(
      "fieldset",
      { class: "panel show-form-part" },
      h("legend", { class: "section-title" }, "The show"),
      field("show-name", "Name", name),
      h("div", { class: "show-pair" }, field("show-genre", "Genre (optional)", genre), field("show-hosts", "Hosts", hosts, h("p", { class: "field-hint", id: "show-hosts-hint" }, "Their handles, separated by commas. Everyone needs an account."))),
      field("show-description", "Description (optional)", description),
    ),
    h(
      "fieldset",
      { class: "panel show-form-part" },
      h("legend", { class: "section-title" }, "When"),
      field("show-tz", "Time zone", zone, h("p", { class: "field-hint" }, "The show's own clock: it starts at the same local time all year, summer time or not.")),
      h("div", { class: "show-pair" }, field("show-start", "Starts at", start), field("show-duration", "Minutes", duration, durationHint)),
      kindGroup,
      intervalField,
      daysGroup,
      monthlyGroup,
      h("div", { class: "show-pair" }, h("div", { class: "field show-field", dataset: { field: "show-season-start" } }, seasonStartLabel, seasonStart), seasonEndField),
      h("div", { class: "show-preview-box" }, h("span", { class: "show-preview-label" }, "Airs"), preview),
    ),
    error,
    h("div", { class: "show-form-actions" }, save, h("a", { class: "btn btn-ghost show-cancel", href: cancelHref }, "Cancel")),
  );

  function kind() {
    return (kindInputs.find((input) => input.checked) || kindInputs[1]).value;
  }

  function renderInterval() {
    const k = kind();
    const chosen = interval.value || values.interval || "1";
    interval.replaceChildren(...INTERVALS.map((n) => h("option", { value: String(n), selected: String(n) === String(chosen) }, intervalLabel(k, n))));
  }

  function read() {
    return {
      name: name.value,
      genre: genre.value,
      description: description.value,
      hosts: hosts.value,
      timeZone: zone.value,
      startTime: (start.value || "").slice(0, 5),
      durationMinutes: duration.value,
      kind: kind(),
      interval: interval.value,
      weekdays: dayInputs.filter((input) => input.checked).map((input) => input.value),
      ordinal: ordinal.value,
      weekday: weekday.value,
      seasonStart: seasonStart.value,
      seasonEnd: seasonEnd.value,
    };
  }

  /** Shows only the fields the repeat kind has, and the phrase for what is typed. */
  function update() {
    const k = kind();
    intervalField.hidden = k === "once";
    daysGroup.hidden = k !== "weekly";
    monthlyGroup.hidden = k !== "monthly";
    seasonEndField.hidden = k === "once";
    setText(seasonStartLabel, k === "once" ? "Day" : "First day");
    el.dataset.kind = k;
    const words = formPreview(read());
    setText(durationHint, words.durationHint);
    setText(preview, words.preview);
  }

  for (const input of kindInputs) input.addEventListener("change", () => {
    renderInterval();
    update();
  });
  el.addEventListener("input", update);
  el.addEventListener("change", update);
  el.addEventListener("submit", (event) => {
    event.preventDefault();
    onSubmit(read());
  });
  renderInterval();
  update();

  const byField = {
    name,
    genre,
    hosts,
    description,
    timeZone: zone,
    startTime: start,
    durationMinutes: duration,
    weekdays: dayInputs[0],
    seasonStart,
    seasonEnd,
  };

  return {
    el,
    read,
    save,
    /** Shows `message` in the alert; focuses `fieldName`'s input when known. */
    fail(message, fieldName = null) {
      setText(error, "");
      // A fresh text node each time, so the same message is read out again.
      setText(error, message);
      for (const input of Object.values(byField)) input.removeAttribute("aria-invalid");
      const input = fieldName && byField[fieldName];
      if (input) {
        input.setAttribute("aria-invalid", "true");
        input.focus();
      }
    },
    clear() {
      setText(error, "");
      for (const input of Object.values(byField)) input.removeAttribute("aria-invalid");
    },
    busy(on) {
      save.disabled = on;
      if (on) el.setAttribute("aria-busy", "true");
      else el.removeAttribute("aria-busy");
    },
  };
}
