// "On this network": stations that other Wavelength servers on the LAN
// announce (the server looks for them over mDNS: GET /api/nearby), under
// the dial's own lists, only while there are any. Each is a plain link to
// its page on the other server (marked as leaving this one), with its name
// as text and a lock for one that needs an access code. The words and the
// checks on the addresses are nearby-model.js's.

import { h, fill, icon } from "../../ui/dom.js";

const LOCK = "M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5z";

function lock() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: "16", height: "16", class: "icon icon-lock", role: "img", "aria-label": "Needs an access code", focusable: "false" })) {
    svg.setAttribute(k, v);
  }
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  for (const [k, v] of Object.entries({ d: LOCK, fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" })) {
    path.setAttribute(k, v);
  }
  svg.append(path);
  return svg;
}

export function createNearby() {
  const list = h("ul", { class: "station-list nearby-list" });
  const el = h(
    "section",
    { class: "station-section section-nearby", "aria-labelledby": "list-nearby", hidden: true, dataset: { kind: "nearby" } },
    h("h2", { id: "list-nearby", class: "section-title" }, icon("radio", { size: 18 }), "On this network"),
    h("p", { class: "nearby-hint" }, "Other Wavelength servers here: these open on their own server."),
    list,
  );
  let signature = "";

  /** Shows nearby-model.js's model; hidden when there is nothing. */
  function render(model) {
    el.hidden = !model.visible;
    const next = JSON.stringify(model.stations);
    if (next === signature) return;
    signature = next;
    fill(
      list,
      model.stations.map((s) =>
        h(
          "li",
          {},
          h(
            "a",
            { class: "station-card nearby-card", href: s.href, rel: "external noopener noreferrer", "aria-label": s.label, dataset: { nearbyKey: s.key } },
            h("span", { class: "card-freq" }, s.frequency || "—"),
            h(
              "span",
              { class: "card-body" },
              h("span", { class: "card-name nearby-name" }, s.name),
              h("span", { class: "card-owner nearby-host" }, s.host),
              s.mode ? h("span", { class: "card-now nearby-mode" }, s.mode) : null,
            ),
            h(
              "span",
              { class: "card-side" },
              s.needsCode ? h("span", { class: "vis-badge vis-code small nearby-code" }, lock(), "Code") : null,
              h("span", { class: "nearby-away", "aria-hidden": "true" }, "↗"),
            ),
          ),
        ),
      ),
    );
  }

  return { el, render };
}
