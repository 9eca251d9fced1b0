// The show editor's form: every field of a ShowSpec a person sets (name,
// genre, description, hosts by handle, time zone, start, length, how it
// repeats, the season), a preview of when it airs in words, and one alert
// for what is wrong (the server's own message for a clash). What the form
// doesn't edit (cancelled and moved episodes, cover art, the week's first
// day) goes back as it was.

import { h, setText } from "../../ui/dom.js";
import { WEEKDAYS, browserZone } from "./model.js";
import { DAY_NAMES, ORDINALS, airsPhrase, endTime, zoneName } from "./phrase.js";

function zones(current) {
  let list = [];
  try {
    list = Intl.supportedValuesOf ? Intl.supportedValuesOf("timeZone") : [];
  } catch {
    list = [];
  }
  const all = new Set(list);
  for (const zone of [current, browserZone(), "UTC"]) if (zone) all.add(zone);
  return [...all].sort((a, b) => (a === "UTC" ? -1 : b === "UTC" ? 1 : a.localeCompare(b)));
}

const INTERVALS = Array.from({ length: 12 }, (_, i) => i + 1);

function intervalLabel(kind, n) {
  const unit = kind === "monthly" ? "month" : "week";
  if (n === 1) return `Every ${unit}`;
  if (n === 2) return `Every other ${unit}`;
  return `Every ${n} ${unit}s`;
}

const field = (id, label, input, hint = null) =>
  h("div", { class: "field show-field", dataset: { field: id } }, h("label", { class: "label", for: id }, label), input, hint);

export function createShowForm(values, { submitLabel, cancelHref, onSubmit }) {
  const name = h("input", { id: "show-name", class: "input", type: "text", maxlength: "80", required: true, autocomplete: "off", value: values.name });
  const genre = h("input", { id: "show-genre", class: "input", type: "text", maxlength: "60", autocomplete: "off", value: values.genre, placeholder: "Jazz, talk, indie…" });
  const hosts = h("input", {
    id: "show-hosts",
    class: "input",
    type: "text",
    autocomplete: "off",
    autocapitalize: "none",
    spellcheck: "false",
    value: values.hosts,
    placeholder: "ada, bo",
    "aria-describedby": "show-hosts-hint",
  });
  const description = h("textarea", { id: "show-description", class: "input show-textarea", rows: "4", maxlength: "2000" });
  description.value = values.description;

  const zone = h(
    "select",
    { id: "show-tz", class: "input select" },
    zones(values.timeZone).map((z) => h("option", { value: z, selected: z === values.timeZone }, zoneName(z))),
  );
  const start = h("input", { id: "show-start", class: "input", type: "time", required: true, value: values.startTime });
  const duration = h("input", {
    id: "show-duration",
    class: "input",
    type: "number",
    inputmode: "numeric",
    min: "5",
    max: "720",
    step: "5",
    required: true,
    value: values.durationMinutes,
    "aria-describedby": "show-duration-hint",
  });
  const durationHint = h("p", { class: "field-hint", id: "show-duration-hint" });

  const kinds = [
    { value: "once", label: "Once" },
    { value: "weekly", label: "Weekly" },
    { value: "monthly", label: "Monthly" },
  ];
  const kindInputs = kinds.map((k) => h("input", { type: "radio", name: "show-kind", id: `show-kind-${k.value}`, value: k.value, class: "show-kind-radio", checked: values.kind === k.value }));
  const kindGroup = h(
    "fieldset",
    { class: "show-kinds" },
    h("legend", { class: "label" }, "Repeats"),
    h("div", { class: "show-kind-row" }, kinds.map((k, i) => h("label", { class: "show-kind", for: `show-kind-${k.value}` }, kindInputs[i], h("span", {}, k.label)))),
  );

  const interval = h("select", { id: "show-interval", class: "input select" });
  const intervalField = field("show-interval", "How often", interval);

  const dayInputs = WEEKDAYS.map((d) => h("input", { type: "checkbox", id: `show-day-${d}`, value: d, class: "show-day-box", checked: (values.weekdays || []).includes(d) }));
  const daysGroup = h(
    "fieldset",
    { class: "show-days", id: "show-days" },
    h("legend", { class: "label" }, "On"),
    h(
      "div",
      { class: "show-day-row" },
      WEEKDAYS.map((d, i) =>
        h("label", { class: "show-day", for: `show-day-${d}` }, dayInputs[i], h("span", { "aria-hidden": "true" }, DAY_NAMES[d].slice(0, 3)), h("span", { class: "visually-hidden" }, DAY_NAMES[d])),
      ),
    ),
  );

  const ordinal = h(
    "select",
    { id: "show-ordinal", class: "input select" },
    ORDINALS.map((o) => h("option", { value: String(o.value), selected: String(o.value) === String(values.ordinal) }, o.word[0].toUpperCase() + o.word.slice(1))),
  );
  const weekday = h(
    "select",
    { id: "show-weekday", class: "input select" },
    WEEKDAYS.map((d) => h("option", { value: d, selected: d === values.weekday }, DAY_NAMES[d])),
  );
  const monthlyGroup = h(
    "div",
    { class: "show-monthly" },
    h("div", { class: "show-pair" }, field("show-ordinal", "Which", ordinal), field("show-weekday", "Day", weekday)),
  );

  const seasonStart = h("input", { id: "show-season-start", class: "input", type: "date", required: true, value: values.seasonStart });
  const seasonStartLabel = h("label", { class: "label", for: "show-season-start" }, "First day");
  const seasonEnd = h("input", { id: "show-season-end", class: "input", type: "date", value: values.seasonEnd, "aria-describedby": "show-season-end-hint" });
  const seasonEndField = field("show-season-end", "Last day (optional)", seasonEnd, h("p", { class: "field-hint", id: "show-season-end-hint" }, "Leave empty and the show runs on with no end."));

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
    const v = read();
    const minutes = Number(v.durationMinutes);
    setText(durationHint, /^\d{2}:\d{2}$/.test(v.startTime) && Number.isFinite(minutes) && minutes > 0 ? `Ends at ${endTime(v.startTime, minutes)}` : "5 to 720 minutes");
    const repeat =
      k === "weekly"
        ? { kind: k, interval: Number(v.interval), weekdays: v.weekdays }
        : k === "monthly"
          ? { kind: k, interval: Number(v.interval), ordinal: Number(v.ordinal), weekday: v.weekday }
          : { kind: "once" };
    setText(
      preview,
      /^\d{2}:\d{2}$/.test(v.startTime) && Number.isFinite(minutes)
        ? airsPhrase({ repeat, startTime: v.startTime, durationMinutes: minutes, timeZone: v.timeZone, seasonStart: v.seasonStart })
        : "Pick a start time.",
    );
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
