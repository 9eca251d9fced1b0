// A day's playlist to take away: pick a day (today by default), then
// "Download CSV" (for a spreadsheet, or a music-licensing report) or
// "Download M3U" (to play the day again). The server sends them as
// attachments; the day is read in the browser's time zone.

import { h } from "../../ui/dom.js";
import { dayValue, exportURL, timeZone } from "./model.js";

export function createDownloads(stationID) {
  const today = dayValue(new Date());
  const day = h("input", { id: "history-day", class: "input log-day", type: "date", value: today, max: today });
  const csv = h("a", { class: "btn btn-secondary btn-small log-csv", download: "" }, "Download CSV");
  const m3u = h("a", { class: "btn btn-secondary btn-small log-m3u", download: "" }, "Download M3U");
  const note = h("p", { class: "hint log-day-note" });

  function update() {
    const value = day.value;
    for (const [link, kind] of [[csv, "csv"], [m3u, "m3u"]]) {
      if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
        link.href = exportURL(stationID, kind, value, timeZone());
        link.removeAttribute("aria-disabled");
      } else {
        link.removeAttribute("href");
        link.setAttribute("aria-disabled", "true");
      }
    }
    note.textContent = value ? "Every song played that day, oldest first, with the most listeners each had." : "Pick a day first.";
  }
  day.addEventListener("input", update);
  day.addEventListener("change", update);
  update();

  const el = h(
    "section",
    { class: "panel log-downloads", "aria-labelledby": "log-downloads-heading" },
    h("h2", { id: "log-downloads-heading", class: "section-title" }, "A day's playlist"),
    h("label", { class: "label", for: "history-day" }, "Day"),
    h("div", { class: "log-download-row" }, day, csv, m3u),
    note,
  );
  return { el, day, csv, m3u };
}
