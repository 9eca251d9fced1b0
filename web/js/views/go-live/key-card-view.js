// The stream key card's DOM (key-card.js's card, drawn here): the card's
// frame, a value with its copy button, the key shown this once with the
// whole source address, the fields BUTT and Mixxx ask for (the password as
// words while the key isn't known), and the buttons. Values go in as input
// values and text, never as markup; the decisions are model.js's.

import { h, fill, icon } from "../../ui/dom.js";
import { copy } from "../../ui/share.js";
import { fullSourceURL, sourceFields } from "./model.js";

/** A read-only value with its label and a copy button. */
function copyRow({ id, label, value, className = "", copied }) {
  const inputID = `golive-${id}`;
  const input = h("input", {
    id: inputID,
    class: `input input-mono golive-value ${className}`.trim(),
    type: "text",
    readonly: true,
    value,
    spellcheck: "false",
    autocomplete: "off",
    autocapitalize: "none",
  });
  return h(
    "div",
    { class: "golive-row", dataset: { field: id } },
    h("label", { class: "label golive-label", for: inputID }, label),
    h(
      "div",
      { class: "input-row golive-input-row" },
      input,
      h(
        "button",
        {
          class: "btn btn-small btn-secondary golive-copy",
          type: "button",
          "aria-label": `Copy the ${label.toLowerCase()}`,
          onclick: () => copy(value, { select: input, done: copied || `${label} copied` }),
        },
        "Copy",
      ),
    ),
  );
}

/** The card, looking for the key: {el, statusLine, fresh, settings, actions, alert}. */
export function buildKeyCardView(headingID) {
  const statusLine = h("p", { class: "golive-status", role: "status" }, "Looking for your stream key…");
  const fresh = h("div", { class: "golive-fresh", hidden: true });
  const settings = h("div", { class: "golive-settings", hidden: true });
  const actions = h("div", { class: "golive-actions" });
  const alert = h("p", { class: "form-error golive-error", role: "alert" });
  const el = h(
    "section",
    { class: "card account-card golive-card", id: "go-live", "aria-labelledby": headingID, dataset: { state: "loading" } },
    h("h2", { class: "section-title golive-title", id: headingID, tabindex: "-1" }, icon("radio", { size: 20 }), "Go live from your broadcast software"),
    h(
      "p",
      { class: "golive-lead" },
      "Broadcast a show from BUTT, Mixxx or any Icecast-ready software: it sends MP3 to this server with your stream key as its password, and everyone tuned in hears you live.",
    ),
    h("p", { class: "golive-lead golive-scope" }, "The key works on your own station any time, and on another station while a show you host is on."),
    statusLine,
    fresh,
    settings,
    actions,
    alert,
  );
  return { el, statusLine, fresh, settings, actions, alert };
}

export function cardButton(label, className, onclick) {
  return h("button", { class: `btn btn-small ${className}`, type: "button", onclick }, label);
}

/** The key just made (`fresh`: {key, sourceURL}), shown this once; nothing otherwise. */
export function showFreshKey(view, fresh, stationID) {
  view.fresh.hidden = !fresh;
  if (!fresh) {
    fill(view.fresh);
    return;
  }
  const url = fullSourceURL(fresh.sourceURL, stationID, fresh.key);
  fill(
    view.fresh,
    h(
      "div",
      { class: "notice notice-warn golive-once" },
      h("p", { class: "golive-once-title" }, h("strong", {}, "Copy your key now: it is shown only this once.")),
      h("p", { class: "golive-once-sub" }, "Paste it into your broadcast software. If it gets lost, replace it with a new one."),
    ),
    copyRow({ id: "key", label: "Stream key", value: fresh.key, className: "golive-key", copied: "Stream key copied" }),
    copyRow({ id: "url", label: "Source address", value: url, className: "golive-url", copied: "Source address copied" }),
    h("p", { class: "field-hint golive-url-hint" }, "ffmpeg and some apps take the whole address; BUTT and Mixxx ask for the parts below."),
  );
}

/** What BUTT and Mixxx ask for (the password only while it is known); nothing when going live is off. */
export function showSourceSettings(view, { off, hasKey, sourceURL, stationID, key }) {
  const fields = off ? null : sourceFields(sourceURL, stationID, key);
  view.settings.hidden = !fields;
  if (!fields) {
    fill(view.settings);
    return;
  }
  fill(
    view.settings,
    h("h3", { class: "golive-subtitle" }, "In BUTT or Mixxx"),
    h("p", { class: "golive-hint" }, "Add an Icecast server with these settings, and send MP3 (128 kbps is plenty)."),
    h(
      "div",
      { class: "golive-grid" },
      fields.map((f) =>
        f.value !== null
          ? copyRow({ id: f.id, label: f.label, value: f.value })
          : h(
              "div",
              { class: "golive-row golive-row-secret", dataset: { field: f.id } },
              h("p", { class: "label golive-label" }, f.label),
              h("p", { class: "golive-secret" }, hasKey ? "Your stream key. It is shown only when it is made: replace it to see a new one." : "Your stream key, once you make one."),
            ),
      ),
    ),
    stationID ? null : h("p", { class: "field-hint" }, "On a station whose show you host, the mount is /live/ and that station's id."),
  );
}
