// "Subscribe" / "Add to calendar": a calendar feed (.ics) as a webcal://
// link, which calendar apps subscribe to and keep up to date, and the same
// address as a plain download for those that only import a file.

import { h } from "../../ui/dom.js";
import { downloadURL, webcalURL } from "./model.js";

/**
 * @param {string} path the feed's address on this server ("/api/stations/…/schedule.ics")
 * @param {{label: string, hint: string, idPrefix: string}} words
 */
export function calendarLinks(path, { label, hint, idPrefix }) {
  const hintID = `${idPrefix}-hint`;
  return h(
    "div",
    { class: "cal-links", dataset: { calendar: path } },
    h(
      "a",
      { class: "btn btn-secondary btn-small cal-subscribe", href: webcalURL(path), "aria-describedby": hintID },
      calendarIcon(),
      label,
    ),
    h("a", { class: "btn btn-ghost btn-small cal-download", href: downloadURL(path), download: "", "aria-describedby": hintID }, "Download .ics"),
    h("p", { class: "hint cal-hint", id: hintID }, hint),
  );
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** A small calendar page, from fixed path data. */
export function calendarIcon(size = 18) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("class", "icon icon-calendar");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", "M5 6h14v14H5zM5 10h14M9 4v4M15 4v4");
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "2");
  path.setAttribute("stroke-linecap", "round");
  path.setAttribute("stroke-linejoin", "round");
  svg.append(path);
  return svg;
}
