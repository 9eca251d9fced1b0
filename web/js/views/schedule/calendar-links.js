// "Subscribe" / "Add to calendar": a calendar feed (.ics) as a webcal://
// link, which calendar apps subscribe to and keep up to date, and the same
// address as a plain download for those that only import a file.

import { h, icon } from "../../ui/dom.js";
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

/** A small calendar page. */
export function calendarIcon(size = 18) {
  return icon("calendar", { size });
}
