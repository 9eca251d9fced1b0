// The control room's "Sign-ups" panel: who may make an account (a four-way
// switch: open, approval, invite, closed), whether members may invite,
// the sign-ups waiting for approval (approve or decline each), and the
// server's invite links. Every change goes in the log.

import { h, fill, setText } from "../ui/dom.js";
import { request } from "../api/api.js";
import { toast } from "../ui/toast.js";
import { inviteMaker, inviteRow } from "./server-invites.js";

const MODES = [
  ["open", "Open", "Anyone can make an account (a few an hour from one address)."],
  ["approval", "Approval", "Anyone can ask; an administrator lets each one in."],
  ["invite", "Invite", "Only people with an invite link can make an account."],
  ["closed", "Closed", "No new accounts. Guests still join parties."],
];

function when(ms) {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function errorOf(error) {
  return (error && error.message) || "That didn't work; try again.";
}

/** The panel; `changed()` is called after each action (the log reloads). */
export function signupsPanel({ changed, alive }) {
  const modeInputs = MODES.map(([value, label, hint]) =>
    h("label", { class: "mode-stop", dataset: { mode: value } },
      h("input", { type: "radio", name: "signup-mode", value, "aria-describedby": `signup-mode-hint-${value}` }),
      h("span", { class: "mode-stop-label" }, label),
      h("span", { class: "mode-stop-hint", id: `signup-mode-hint-${value}` }, hint)));
  const membersInvite = h("input", { type: "checkbox", id: "members-may-invite" });
  const reason = h("input", { class: "input", id: "signup-mode-reason", type: "text", maxlength: "500", placeholder: "Why? (for the log)" });
  const save = h("button", { class: "btn btn-primary btn-small", type: "submit" }, "Save");
  const defaultNote = h("p", { class: "muted signup-default" });
  const waitingList = h("ul", { class: "admin-people waiting-list", "aria-label": "Sign-ups waiting for approval" });
  const waitingStatus = h("p", { class: "lib-status", role: "status", "aria-live": "polite" });
  const inviteList = h("ul", { class: "invite-list", "aria-label": "The server's invite links" });

  const modeForm = h(
    "form",
    {
      class: "signup-settings",
      onsubmit: async (e) => {
        e.preventDefault();
        const chosen = modeInputs.map((l) => l.querySelector("input")).find((i) => i.checked);
        if (!chosen) return;
        save.disabled = true;
        try {
          const view = await request("/api/admin/registration", {
            method: "PUT",
            body: { mode: chosen.value, membersMayInvite: membersInvite.checked, reason: reason.value.trim() || undefined },
          });
          reason.value = "";
          show(view);
          toast(`Sign-ups: ${MODES.find(([v]) => v === view.mode)[1].toLowerCase()}.`);
          changed();
        } catch (error) {
          toast(errorOf(error));
        } finally {
          save.disabled = false;
        }
      },
    },
    h("fieldset", { class: "mode-dial" }, h("legend", { class: "label" }, "Who may sign up"), ...modeInputs),
    h("label", { class: "check-row", for: "members-may-invite" }, membersInvite, "Members may make invite links too"),
    h("label", { class: "label", for: "signup-mode-reason" }, "Reason"),
    h("div", { class: "admin-action" }, reason, save),
    defaultNote,
  );

  function waitingRow(person) {
    const decide = (verb) => async (e) => {
      const buttons = e.currentTarget.parentElement.querySelectorAll("button");
      buttons.forEach((b) => (b.disabled = true));
      try {
        const view = await request(`/api/admin/people/${encodeURIComponent(person.id)}/${verb}`, { method: "POST" });
        toast(verb === "approve" ? `${person.displayName} is in.` : `${person.displayName}'s sign-up is declined.`);
        show(view);
        changed();
      } catch (error) {
        buttons.forEach((b) => (b.disabled = false));
        toast(errorOf(error));
      }
    };
    return h(
      "li",
      { class: "admin-person waiting-person", dataset: { personId: person.id } },
      h("div", { class: "admin-person-who" },
        h("span", { class: "admin-person-name" }, person.displayName),
        h("span", { class: "admin-person-handle" }, `@${person.handle}`)),
      h("p", { class: "admin-person-state" }, `Asked ${when(person.since)}`),
      h("div", { class: "admin-action" },
        h("button", { class: "btn btn-primary btn-small approve", type: "button", onclick: decide("approve"), "aria-label": `Approve ${person.displayName}` }, "Approve"),
        h("button", { class: "btn btn-secondary btn-small decline", type: "button", onclick: decide("decline"), "aria-label": `Decline ${person.displayName}` }, "Decline")),
    );
  }

  function show(view) {
    if (!alive()) return;
    for (const label of modeInputs) {
      const input = label.querySelector("input");
      input.checked = input.value === view.mode;
      label.classList.toggle("is-on", input.checked);
    }
    membersInvite.checked = view.membersMayInvite;
    setText(defaultNote, view.isDefault ? "Nobody has chosen yet: this is the default for where the server listens." : "");
    setText(waitingStatus, view.waiting.length ? `${view.waiting.length} waiting.` : "Nobody is waiting.");
    fill(waitingList, ...view.waiting.map(waitingRow));
    fill(inviteList, ...view.invites.map((invite) => inviteRow(invite, { onWithdrawn: load, showMaker: true })));
  }

  async function load() {
    try {
      show(await request("/api/admin/registration"));
    } catch (error) {
      if (alive() && error.status !== 401 && error.status !== 403) setText(waitingStatus, errorOf(error));
    }
  }

  for (const label of modeInputs) {
    label.querySelector("input").addEventListener("change", () => modeInputs.forEach((l) => l.classList.toggle("is-on", l.querySelector("input").checked)));
  }
  load();

  const el = h(
    "section",
    { class: "admin-panel signups-panel", "aria-labelledby": "admin-signups-heading" },
    h("h2", { class: "section-title", id: "admin-signups-heading" }, "Sign-ups"),
    modeForm,
    h("h3", { class: "admin-subtitle" }, "Waiting for approval"),
    waitingStatus,
    waitingList,
    h("h3", { class: "admin-subtitle" }, "Invite links"),
    inviteMaker({ onMade: () => (load(), changed()) }),
    inviteList,
  );
  return { el, load };
}
