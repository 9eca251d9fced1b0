// The station's end for this page, as a notice in place of the screen:
// removed, banned, the session ended, not allowed in, full (texts in
// state.js's overText); and the notice when the station never loads.

import { h, fill, setText } from "../../ui/dom.js";
import { navigate, stationPath } from "../../router.js";
import { removeBoothControls } from "./controls.js";
import { showHeaderOff } from "./header.js";
import { closeSettings } from "./settings-overlay.js";
import { overConnection, overReason, overText } from "./state.js";
import { stopStudio } from "./studio.js";
import { closeHistoryMode } from "./history-mode.js";
import { stopClips } from "./clips.js";
import { ErrorCode } from "../../api/error-codes.js";

/**
 * Ends the station for this page: removed, banned, left, the session ended
 * ("ended"), or not allowed in ("denied", with the server's `code`).
 * Playback stops and nothing reconnects. Not a member of a private station
 * whose frequency we know: the join screen asks for the access code.
 */
export function showOver(view, kind, { code = null, message = "" } = {}) {
  const { state, player } = view;
  const { session } = state;
  if (state.over || state.destroyed) return;
  const named = session && session.station && session.station.name;
  if (kind === "denied" && (code === ErrorCode.signInRequired || code === ErrorCode.notAMember)) {
    const frequency = (session && session.station && session.station.frequency) || view.route.query.get("f");
    if (frequency) {
      state.over = "join";
      if (session) session.close();
      player.stop();
      navigate(["join", frequency], { replace: true });
      return;
    }
  }
  const over = overReason(kind, code);
  state.over = over;
  closeSettings(view);
  closeHistoryMode(view);
  stopStudio(view);
  stopClips(view);
  if (state.ready) {
    removeBoothControls(view.controls);
    view.header.settingsLink.hidden = true;
  }
  if (session) session.close();
  player.stop();
  view.np.staticFx.off();
  view.el.dataset.state = over;
  // The connection is over for good: never "reconnecting".
  view.el.dataset.connection = overConnection(kind);
  view.el.classList.add("is-over");
  const text = overText(kind, over, { role: state.role, name: named || null, message });
  const { notice, heading } = overNotice(state.stationID, over, text);
  fill(view.grid);
  view.grid.hidden = true;
  fill(view.header.banner);
  view.el.append(notice);
  showHeaderOff(view.header, "Off");
  if (kind !== "denied") document.title = `${text.title} · Wavelength`;
  heading.focus({ preventScroll: true });
}

/** The station never loaded (`error` from GET …/stations/ID): playback stops, a notice says why. */
export function showLoadError(view, error) {
  const { state, header } = view;
  state.session.close();
  state.session = null;
  view.player.stop();
  view.np.staticFx.off();
  view.el.dataset.state = "error";
  fill(view.grid, loadErrorNotice(error));
  setText(header.stationName, error.status === 404 ? "Static" : "No signal");
  setText(header.freqChip.firstChild, "--.-");
  showHeaderOff(header, "No signal");
}

/** The final notice: an on-air lamp, `title` (focus it), `line`, and what to do next. */
function overNotice(stationID, over, { title, line, hostEnded }) {
  const heading = h("h1", { class: "over-title", tabindex: "-1" }, title);
  const actions = h("div", { class: "over-actions" });
  if (over === ErrorCode.signInRequired || over === ErrorCode.notAMember) {
    actions.append(h("a", { class: "btn btn-primary", href: "#/join" }, "Enter a code"));
  }
  if (hostEnded) {
    actions.append(h("button", { class: "btn btn-primary", type: "button", onclick: () => navigate(stationPath(stationID)) }, "Back on the air"));
  }
  if (over === "another_lobby") {
    actions.append(h("button", { class: "btn btn-primary", type: "button", onclick: () => navigate(stationPath(stationID)) }, "Back to this lobby"));
  }
  if (over === ErrorCode.stationFull) {
    actions.append(h("button", { class: "btn btn-primary", type: "button", onclick: () => navigate(stationPath(stationID)) }, "Try again"));
  }
  actions.append(h("a", { class: `btn ${actions.childElementCount ? "btn-secondary" : "btn-primary"}`, href: "#/" }, "Back to the dial"));
  const notice = h(
    "div",
    { class: "station-over", role: "alert", dataset: { reason: over } },
    h(
      "div",
      { class: "over-card" },
      h("p", { class: "over-lamp" }, h("span", { class: "offair-lamp" }, over === "ended" ? "Off air" : "Signal lost")),
      heading,
      h("p", { class: "over-line" }, line),
      actions,
    ),
  );
  return { notice, heading };
}

/** The notice in place of the grid when the station can't be loaded (`error` from GET …/stations/ID). */
function loadErrorNotice(error) {
  const missing = error.status === 404;
  return h(
    "div",
    { class: "notice notice-error big-notice", role: "alert" },
    h("h2", {}, missing ? "No station here" : "Can't tune in"),
    h("p", {}, missing ? "Nothing is broadcasting with that id. It may have been a typo in the link." : error.message),
    h(
      "p",
      {},
      h("a", { class: "btn btn-primary", href: "#/" }, "Back to the dial"),
      " ",
      missing ? null : h("button", { class: "btn btn-secondary", type: "button", onclick: () => location.reload() }, "Try again"),
    ),
  );
}
