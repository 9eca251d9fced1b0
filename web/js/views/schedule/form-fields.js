// The show editor's inputs (form.js lays them out and reads them): name,
// genre, hosts, description, time zone, start, length, the repeat kind,
// how often, the weekdays, the monthly "which day", and the season's
// dates, each made with its label, hint and the values it starts from.

import { h } from "../../ui/dom.js";
import { WEEKDAYS, browserZone } from "./model.js";
import { DAY_NAMES, ORDINALS, zoneName } from "./phrase.js";

/** Every time zone the browser knows, with the show's, the browser's and UTC (first). */
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

/** A labelled field, with an optional hint after the input. */
export const field = (id, label, input, hint = null) =>
  h("div", { class: "field show-field", dataset: { field: id } }, h("label", { class: "label", for: id }, label), input, hint);

const KINDS = [
  { value: "once", label: "Once" },
  { value: "weekly", label: "Weekly" },
  { value: "monthly", label: "Monthly" },
];

/** The show's own fields: name, genre, hosts, description. */
export function aboutInputs(values) {
  const name = h("input", { id: "show-name", class: "input", type: "text", maxlength: "80", required: true, autocomplete: "off", value: values.name });
  const genre = h("input", { id: "show-genre", class: "input", type: "text", maxlength: "60", autocomplete: "off", value: values.genre, placeholder: "Jazz, talk, indie…" });
  const hosts = h("input", {
    id: "show-hosts", class: "input", type: "text", autocomplete: "off", autocapitalize: "none", spellcheck: "false",
    value: values.hosts, placeholder: "ada, bo", "aria-describedby": "show-hosts-hint",
  });
  const description = h("textarea", { id: "show-description", class: "input show-textarea", rows: "4", maxlength: "2000" });
  description.value = values.description;
  return { name, genre, hosts, description };
}

/** When: time zone, start, length (with its hint). */
export function timeInputs(values) {
  const zone = h("select", { id: "show-tz", class: "input select" }, zones(values.timeZone).map((z) => h("option", { value: z, selected: z === values.timeZone }, zoneName(z))));
  const start = h("input", { id: "show-start", class: "input", type: "time", required: true, value: values.startTime });
  const duration = h("input", {
    id: "show-duration", class: "input", type: "number", inputmode: "numeric", min: "5", max: "720", step: "5", required: true,
    value: values.durationMinutes, "aria-describedby": "show-duration-hint",
  });
  const durationHint = h("p", { class: "field-hint", id: "show-duration-hint" });
  return { zone, start, duration, durationHint };
}

/** How it repeats: the kind's radios, how often, the weekdays, the monthly day. */
export function repeatInputs(values) {
  const kindInputs = KINDS.map((k) => h("input", { type: "radio", name: "show-kind", id: `show-kind-${k.value}`, value: k.value, class: "show-kind-radio", checked: values.kind === k.value }));
  const kindGroup = h(
    "fieldset",
    { class: "show-kinds" },
    h("legend", { class: "label" }, "Repeats"),
    h("div", { class: "show-kind-row" }, KINDS.map((k, i) => h("label", { class: "show-kind", for: `show-kind-${k.value}` }, kindInputs[i], h("span", {}, k.label)))),
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
  const weekday = h("select", { id: "show-weekday", class: "input select" }, WEEKDAYS.map((d) => h("option", { value: d, selected: d === values.weekday }, DAY_NAMES[d])));
  const monthlyGroup = h("div", { class: "show-monthly" }, h("div", { class: "show-pair" }, field("show-ordinal", "Which", ordinal), field("show-weekday", "Day", weekday)));
  return { kindInputs, kindGroup, interval, intervalField, dayInputs, daysGroup, ordinal, weekday, monthlyGroup };
}

/** The season: its first day (just "Day" for a one-off) and an optional last day. */
export function seasonInputs(values) {
  const seasonStart = h("input", { id: "show-season-start", class: "input", type: "date", required: true, value: values.seasonStart });
  const seasonStartLabel = h("label", { class: "label", for: "show-season-start" }, "First day");
  const seasonEnd = h("input", { id: "show-season-end", class: "input", type: "date", value: values.seasonEnd, "aria-describedby": "show-season-end-hint" });
  const seasonEndField = field("show-season-end", "Last day (optional)", seasonEnd, h("p", { class: "field-hint", id: "show-season-end-hint" }, "Leave empty and the show runs on with no end."));
  return { seasonStart, seasonStartLabel, seasonEnd, seasonEndField };
}
