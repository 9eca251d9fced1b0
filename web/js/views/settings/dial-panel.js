// "On the dial": the station's frequency and access code as a glowing dial
// readout, when the code expires, changing the code (the owner, on a
// code-protected station or one without a frequency) and sharing it.

import { request } from "../../api/api.js";
import { h, setText } from "../../ui/dom.js";
import { share } from "../../ui/share.js";
import { CODE_EXPIRY, codeReadout, codeShare, isOwner, newCodeText } from "./state.js";
import { errorText, say, select, status } from "./widgets.js";

export function createDialPanel(state) {
  const readFreq = h("span", { class: "dial-freq-num" }, "··.·");
  const readCode = h("span", { class: "dial-code-num", "aria-hidden": "true" }, "··· ···");
  const readCodeSpoken = h("span", { class: "visually-hidden" }, "none");
  const readExpiry = h("p", { class: "dial-expiry" });
  const codeExpiry = select("code-expiry", CODE_EXPIRY);
  const rotateButton = h("button", { class: "btn btn-secondary", type: "button", onclick: () => rotate(state, panel) }, "Change code");
  const shareCodeButton = h("button", { class: "btn btn-primary", type: "button", onclick: () => shareCode(state) }, "Share the code");
  const codeStatus = status("code-status");
  const codeToolsHint = h("p", { class: "hint code-tools-hint" }, "Changing the code gives a new frequency and access code; the old ones stop working at once. People already listening stay.");
  // Only a code-protected station has an access code to change (or a
  // station with no frequency, which gets one): on a public station,
  // changing the code would only move its frequency.
  const codeTools = h(
    "div",
    { class: "owner-only code-tools" },
    h("label", { for: "code-expiry", class: "label" }, "A new code lasts"),
    h("div", { class: "input-row" }, codeExpiry, rotateButton),
    codeToolsHint,
  );
  const el = h(
    "section",
    { class: "panel dial-panel", "aria-labelledby": "dial-heading" },
    h("h2", { id: "dial-heading", class: "section-title" }, "On the dial"),
    h(
      "div",
      { class: "dial-readout" },
      h(
        "div",
        { class: "dial-cell" },
        h("p", { class: "dial-label", id: "dial-freq-label" }, "Frequency"),
        h("p", { class: "dial-value" }, readFreq, h("span", { class: "dial-unit" }, "FM")),
      ),
      h(
        "div",
        { class: "dial-cell" },
        h("p", { class: "dial-label", id: "dial-code-label" }, "Access code"),
        h("p", { class: "dial-value" }, readCode, readCodeSpoken),
      ),
    ),
    readExpiry,
    codeTools,
    h("div", { class: "input-row" }, shareCodeButton),
    codeStatus,
  );
  const panel = { el, readFreq, readCode, readCodeSpoken, readExpiry, codeExpiry, rotateButton, shareCodeButton, codeStatus, codeTools, codeToolsHint };
  return panel;
}

/** GET …/code, then shows it (or why not). */
export async function loadCode(state, panel) {
  try {
    state.code = await request(`${state.base}/code`);
  } catch (error) {
    state.code = null;
    say(panel.codeStatus, errorText(error), "error");
  }
  renderCode(state, panel);
}

export function renderCode(state, panel) {
  const shown = codeReadout(state.code, state.station);
  setText(panel.readFreq, shown.frequency || "—");
  setText(panel.readCode, shown.codeText);
  setText(panel.readCodeSpoken, shown.spoken);
  panel.el.dataset.frequency = shown.frequency || "";
  panel.el.dataset.accessCode = shown.access || "";
  setText(panel.readExpiry, shown.line);
  panel.shareCodeButton.disabled = shown.shareDisabled;
  setText(panel.shareCodeButton, shown.shareLabel);
  panel.codeTools.dataset.offered = String(shown.offer);
  panel.codeTools.hidden = !isOwner(state) || !shown.offer;
  setText(panel.rotateButton, shown.rotateLabel);
  setText(panel.codeToolsHint, shown.hint);
}

async function rotate(state, panel) {
  const minutes = panel.codeExpiry.value ? Number(panel.codeExpiry.value) : null;
  panel.rotateButton.disabled = true;
  say(panel.codeStatus, "Changing the code…");
  try {
    state.code = await request(`${state.base}/code`, { method: "POST", body: { expiresInMinutes: minutes } });
    renderCode(state, panel);
    // The readout flickers like a retuned dial.
    panel.el.classList.remove("is-flicker");
    void panel.el.offsetWidth;
    panel.el.classList.add("is-flicker");
    say(panel.codeStatus, newCodeText(state.code));
  } catch (error) {
    say(panel.codeStatus, errorText(error), "error");
  } finally {
    panel.rotateButton.disabled = false;
  }
}

function shareCode(state) {
  const { code } = state;
  if (!code || !code.frequency) return;
  share(codeShare(code, state.station, location.origin));
}
