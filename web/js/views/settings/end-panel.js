// "End the session" (the owner only): after a confirmation everyone is
// disconnected and told the session is over, and the access code is
// released.

import { request } from "../../api/api.js";
import { h } from "../../ui/dom.js";
import { toast } from "../../ui/toast.js";
import { confirmDialog, errorText, say, status } from "./widgets.js";

/** @param {() => Promise<void>} onEnded reloads what ending changes (the code, the people) */
export function createEndPanel(state, { onEnded }) {
  const endButton = h("button", { class: "btn btn-danger-outline", type: "button", onclick: () => endSession(state, panel) }, "End session");
  const endStatus = status("end-status");
  const panel = { endButton, endStatus, onEnded };
  panel.el = h(
    "section",
    { class: "panel end-panel owner-only", "aria-labelledby": "end-heading" },
    h("h2", { id: "end-heading", class: "section-title" }, "End the session"),
    h("p", { class: "hint" }, "Everyone is disconnected and told the session is over. Listeners have to join again; the access code is released."),
    endButton,
    endStatus,
  );
  return panel;
}

async function endSession(state, panel) {
  const ok = await confirmDialog({
    title: "End this session?",
    body: "Everyone listening is disconnected and told the session is over. Listeners have to join again, and the access code is released.",
    confirmLabel: "End session",
  });
  if (!ok || state.destroyed) return;
  panel.endButton.disabled = true;
  try {
    await request(`${state.base}/end`, { method: "POST" });
    say(panel.endStatus, "Session ended. Everyone was disconnected.");
    toast("Session ended.");
    await panel.onEnded();
  } catch (error) {
    say(panel.endStatus, errorText(error), "error");
  } finally {
    panel.endButton.disabled = false;
  }
}
