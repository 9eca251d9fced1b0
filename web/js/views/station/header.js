// The station screen's header: back to the dial, the frequency chip and the
// station's name, the connection pill, the listener count and (for the
// booth) the settings gear; and the signal banner under it (lost signal,
// an outdated app).

import { h, fill, setText, icon, listenersText } from "../../ui/dom.js";
import { stationHref } from "../../router.js";
import { gearIcon, visibilityLabel } from "../settings/labels.js";
import { connectionText } from "./state.js";

/** @param {(event: MouseEvent) => void} onOpenSettings opens the settings over the station */
export function createHeader(stationID, onOpenSettings) {
  const freqChip = h("p", { class: "freq-chip" }, h("span", { class: "freq-chip-num" }, "··.·"), h("span", { class: "freq-chip-unit" }, "FM"));
  const stationName = h("h1", { class: "station-name", tabindex: "-1" }, "Tuning in…");
  const connPill = h("span", { class: "conn", dataset: { state: "connecting" }, role: "status" }, "Tuning…");
  const listenersPill = h("span", { class: "listeners", "aria-live": "polite" }, icon("ear", { size: 18 }), h("span", { class: "listeners-text" }, "—"));
  const settingsLink = h(
    "a",
    { class: "btn-icon btn-settings", href: stationHref(stationID, "settings"), "aria-label": "Station settings", title: "Station settings", hidden: true, onclick: onOpenSettings },
    gearIcon(24),
  );
  const bar = h(
    "header",
    { class: "station-bar" },
    h("a", { class: "btn-icon btn-back-dial", href: "#/", "aria-label": "Back to the dial" }, icon("back", { size: 26 })),
    h("div", { class: "station-title" }, freqChip, stationName),
    h("div", { class: "station-status" }, connPill, listenersPill),
    settingsLink,
  );
  const banner = h("div", { class: "signal-banner" });
  return { bar, banner, freqChip, stationName, connPill, listenersPill, settingsLink };
}

/** The station's name and frequency, on the header, the screen (`el`) and the tab's title. */
export function renderStationHeader(header, el, station, mode) {
  // A private station may have no frequency (no code right now, or it is
  // hidden from you): the chip says how it is reached instead.
  const frequency = station.frequency || null;
  const { freqChip } = header;
  setText(freqChip.firstChild, frequency || visibilityLabel(station.visibility, { short: true }) || "··.·");
  freqChip.lastChild.hidden = !frequency;
  freqChip.classList.toggle("is-private", !frequency);
  setText(header.stationName, station.name);
  // Settings and the history shown over the station keep their own titles.
  if (mode !== "settings" && mode !== "history") document.title = `${frequency ? `${frequency} ` : ""}${station.name} · Wavelength`;
  if (frequency) el.dataset.frequency = frequency;
  else delete el.dataset.frequency;
  el.dataset.visibility = station.visibility || "public";
}

/** The connection pill, and the banner for a lost signal or an outdated app. */
export function renderConnection(header, el, connection, { held = false } = {}) {
  const { connPill, banner } = header;
  connPill.dataset.state = connection;
  connPill.dataset.held = String(Boolean(held));
  el.dataset.connection = connection;
  setText(connPill, connectionText(connection, { held }));
  if (header.shownConnection === connection) return;
  header.shownConnection = connection;
  if (connection === "outdated") {
    fill(
      banner,
      h(
        "div",
        { class: "notice notice-error", role: "alert" },
        h("strong", {}, "This app is older than the server. "),
        h("button", { class: "btn btn-small", type: "button", onclick: () => location.reload() }, "Reload"),
      ),
    );
  } else if (connection === "reconnecting") {
    fill(
      banner,
      h(
        "div",
        { class: "notice notice-warn", role: "status" },
        h("strong", {}, "Lost the signal. "),
        "Reconnecting… the music keeps playing from what we have.",
      ),
    );
  } else {
    fill(banner);
  }
}

export function renderListeners(header, listeners) {
  setText(header.listenersPill.lastChild, listenersText(listeners));
}

/** The header once there is no signal for good: `text` on a closed pill, no count. */
export function showHeaderOff(header, text) {
  setText(header.connPill, text);
  header.connPill.dataset.state = "closed";
  header.listenersPill.hidden = true;
}
