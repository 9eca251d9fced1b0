// Server invite links: made by administrators, or by members where an
// administrator allows it. The maker sees the link once (the server keeps
// only its hash), copies or shares it, and can withdraw it. Used by the
// account page ("Invite a friend") and the control room.

import { h, fill, setText } from "../ui/dom.js";
import { request } from "../api/api.js";
import { share } from "../ui/share.js";
import { toast } from "../ui/toast.js";

function when(ms) {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function absolute(url) {
  return new URL(url, location.href).href;
}

let formCount = 0;

/** A form that makes an invite: how many people, for how many days.
 * `onMade(invite)` gets the answer (with its one-time link). */
export function inviteMaker({ onMade }) {
  const n = ++formCount;
  const uses = h("input", { id: `invite-uses-${n}`, class: "input", type: "number", min: "1", max: "100", value: "5", inputmode: "numeric" });
  const days = h("select", { id: `invite-days-${n}`, class: "input" },
    ...[[1, "a day"], [7, "a week"], [30, "30 days"]].map(([d, label]) => h("option", { value: String(d), selected: d === 7 }, label)));
  const made = h("div", { class: "invite-made", role: "status", "aria-live": "polite" });
  const button = h("button", { class: "btn btn-primary btn-small", type: "submit" }, "Make a link");
  const form = h(
    "form",
    {
      class: "invite-maker",
      onsubmit: async (e) => {
        e.preventDefault();
        const count = Number(uses.value);
        if (!Number.isInteger(count) || count < 1 || count > 100) {
          uses.focus();
          toast("An invite lets in 1 to 100 people.");
          return;
        }
        button.disabled = true;
        try {
          const invite = await request("/api/server-invites", {
            method: "POST",
            body: { maxUses: count, expiresInHours: Number(days.value) * 24 },
          });
          showMade(invite);
          onMade && onMade(invite);
        } catch (error) {
          toast((error && error.message) || "That didn't work; try again.");
        } finally {
          button.disabled = false;
        }
      },
    },
    h("div", { class: "invite-maker-fields" },
      h("label", { class: "label", for: `invite-uses-${n}` }, "People it lets in", uses),
      h("label", { class: "label", for: `invite-days-${n}` }, "Works for", days)),
    button,
    made,
  );

  function showMade(invite) {
    const url = absolute(invite.url);
    const field = h("input", { class: "input invite-link", type: "text", readonly: true, value: url, "aria-label": "The invite link" });
    fill(
      made,
      h("p", { class: "invite-made-title" }, "Here's your link. It's shown this once: copy it now."),
      h("div", { class: "invite-link-row" }, field,
        h("button", { class: "btn btn-secondary btn-small", type: "button", onclick: () => share({ title: "Join me on Wavelength", url, select: field }) }, "Copy or share")),
    );
  }
  return form;
}

/** One invite in a list, with Withdraw while it still works. */
export function inviteRow(invite, { onWithdrawn, showMaker = false }) {
  const expired = invite.expiresAt <= Date.now();
  const usedUp = invite.uses >= invite.maxUses;
  const state = invite.revoked ? "Withdrawn" : usedUp ? "Used up" : expired ? "Expired" : `Works until ${when(invite.expiresAt)}`;
  const live = !invite.revoked && !usedUp && !expired;
  const row = h(
    "li",
    { class: `invite-row${live ? "" : " is-spent"}`, dataset: { inviteId: invite.id } },
    h("span", { class: "invite-row-uses" }, `${invite.uses} of ${invite.maxUses} used`),
    h("span", { class: "invite-row-state" }, showMaker ? `${state} · by ${invite.createdByName}` : state),
    live
      ? h("button", {
          class: "btn btn-secondary btn-small invite-withdraw",
          type: "button",
          "aria-label": `Withdraw the invite made ${when(invite.createdAt)}`,
          onclick: async (e) => {
            e.currentTarget.disabled = true;
            try {
              await request(`/api/server-invites/${encodeURIComponent(invite.id)}`, { method: "DELETE" });
              toast("Invite withdrawn: the link no longer works.");
              onWithdrawn && onWithdrawn();
            } catch (error) {
              e.currentTarget.disabled = false;
              toast((error && error.message) || "That didn't work; try again.");
            }
          },
        }, "Withdraw")
      : null,
  );
  return row;
}

/** The account page's "Invite a friend", where this person may invite and
 * sign-ups need an invite or an approval (on an open server anyone can
 * just sign up). */
export function inviteFriendsCard(alive) {
  const slot = h("div", { class: "account-invites" });
  const list = h("ul", { class: "invite-list", "aria-label": "Your invite links" });
  const status = h("p", { class: "muted" });

  async function load() {
    try {
      const [mode, mine] = await Promise.all([request("/api/auth/registration"), request("/api/server-invites")]);
      if (!alive()) return;
      if (!mine.mayInvite || (mode.mode !== "invite" && mode.mode !== "approval")) return fill(slot);
      setText(status, mine.invites.length ? "" : "No links yet.");
      fill(list, ...mine.invites.map((invite) => inviteRow(invite, { onWithdrawn: load })));
      if (!slot.firstChild) {
        fill(
          slot,
          h(
            "section",
            { class: "account-section", "aria-labelledby": "invite-friends-heading" },
            h("h2", { class: "section-title", id: "invite-friends-heading" }, "Invite a friend"),
            h("p", { class: "muted" },
              mode.mode === "invite"
                ? "Accounts here are by invitation. A link lets friends make one."
                : "New accounts here wait for approval; with your link a friend's starts at once."),
            inviteMaker({ onMade: load }),
            status,
            list,
          ),
        );
      }
    } catch {
      // Signed out or unreachable: nothing to offer.
    }
  }
  load();
  return slot;
}
