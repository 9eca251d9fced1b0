// Who may sign up on this server, as the sign-up page shows it: open
// (nothing to say), approval (an administrator looks at each account),
// invite (a link from a member is needed) or closed (guests only). The
// server's words are shown as text; nothing from it is read as HTML.

import { h } from "../ui/dom.js";
import { request } from "../api/api.js";

/** The registration mode, with the invite from the link checked (not used). Null if it can't be read. */
export async function registrationFor(invite) {
  try {
    return await request(`/api/auth/registration${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`);
  } catch {
    return null;
  }
}

/** Whether the form is worth filling in: a closed server takes nobody, an
 * invite-only one nobody without a working invite. */
export function mayTry(mode) {
  if (mode.mode === "closed") return false;
  if (mode.mode === "invite") return Boolean(mode.invite && mode.invite.valid);
  return true;
}

const TITLES = {
  approval: "Approval needed",
  invite: "By invitation",
  closed: "Sign-ups are closed",
};

/** What the page says above the form, in elements. */
export function modeLines(mode) {
  const lines = [];
  const invite = mode.invite;
  if (invite && invite.valid) {
    lines.push(h("p", { class: "signup-mode-title" }, "You're invited"), h("p", {}, invite.message));
    if (mode.mode === "approval") lines.push(h("p", { class: "muted" }, "With this invite your account starts at once, with no wait."));
    return lines;
  }
  if (mode.mode === "open" && !invite) return lines;
  if (TITLES[mode.mode]) lines.push(h("p", { class: "signup-mode-title" }, TITLES[mode.mode]));
  if (invite && !invite.valid) lines.push(h("p", { class: "signup-mode-problem" }, invite.message));
  if (mode.mode !== "open") lines.push(h("p", {}, mode.message));
  if (!mayTry(mode)) {
    lines.push(h("p", {}, h("a", { class: "btn btn-secondary btn-small", href: "#/" }, "Tune in as a guest")));
  }
  return lines;
}

/** The card a sign-up that waits for approval leaves in place of the form. */
export function waitingCard(answer) {
  return [
    h("p", { class: "signup-mode-title" }, "Waiting for approval"),
    h("p", {}, answer.message),
    h("p", { class: "muted" }, "Until then you can listen as a guest wherever a station lets guests in."),
    h("p", {}, h("a", { class: "btn btn-primary btn-small", href: "#/" }, "Back to the dial")),
  ];
}
