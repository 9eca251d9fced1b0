// The settings screen's frame: its header (back to the station, the title,
// the station's name and listener count) and the notice shown instead of
// the panels when the settings can't open.

import { h, icon } from "../../ui/dom.js";
import { stationHref } from "../../router.js";
import { errorText } from "./widgets.js";

export function createSettingsHeader(stationID) {
  const heading = h("h1", { class: "settings-title", tabindex: "-1" }, "Station settings");
  const subName = h("span", { class: "settings-station-name" }, "…");
  const subCount = h("span", { class: "settings-count", "aria-live": "polite" });
  const el = h(
    "header",
    { class: "settings-bar" },
    h("a", { class: "btn-icon btn-back-station", href: stationHref(stationID), "aria-label": "Back to the station" }, icon("back", { size: 26 })),
    h("div", { class: "settings-heading" }, heading, h("p", { class: "settings-sub" }, subName, subCount)),
  );
  return { el, heading, subName, subCount };
}

/** Why the settings can't open: no such station, not yours, or the server's words. */
export function problemNotice(stationID, error) {
  const notFound = error.status === 404;
  const denied = error.status === 401 || error.status === 403;
  return h(
    "div",
    { class: "notice notice-error big-notice", role: "alert" },
    h("h2", {}, notFound ? "No station here" : denied ? "These settings aren't yours" : "Can't open the settings"),
    h("p", {}, notFound ? "Nothing is broadcasting with that id." : denied ? "Only the station's owner and co-DJs can open its settings." : errorText(error)),
    h(
      "p",
      { class: "over-actions" },
      notFound ? null : h("a", { class: "btn btn-primary", href: stationHref(stationID) }, "Back to the station"),
      h("a", { class: notFound ? "btn btn-primary" : "btn btn-secondary", href: "#/" }, "Back to the dial"),
    ),
  );
}
