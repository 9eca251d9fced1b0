// "Invite links": make a link (with how long it works), shown once with its
// QR code, Share, Copy and a PNG of the QR; and every invite made, with its
// state and how many joined, each revocable while it works.

import { request } from "../../api/api.js";
import { h, fill } from "../../ui/dom.js";
import { share, copy } from "../../ui/share.js";
import { INVITE_EXPIRY, clockTime, inviteSummary, inviteURL, relativeTime, sortInvites } from "./state.js";
import { errorText, say, select, status } from "./widgets.js";

const enc = encodeURIComponent;

export function createInvitesPanel(state) {
  const inviteExpiry = select("invite-expiry", INVITE_EXPIRY, "1440");
  const inviteButton = h("button", { class: "btn btn-primary", type: "submit" }, "Create invite link");
  const result = h("div", { class: "invite-result", "aria-live": "polite" });
  const list = h("ul", { class: "invite-list", "aria-label": "Invite links" });
  const inviteStatus = status("invite-status");
  const panel = { inviteExpiry, inviteButton, result, list, inviteStatus };
  panel.el = h(
    "section",
    { class: "panel invite-panel", "aria-labelledby": "invite-heading" },
    h("h2", { id: "invite-heading", class: "section-title" }, "Invite links"),
    h("p", { class: "hint" }, "Anyone who opens an invite link can tune in, without an account or a code."),
    h(
      "form",
      { class: "invite-form", onsubmit: (e) => createInvite(state, panel, e) },
      h("label", { for: "invite-expiry", class: "label" }, "The link works for"),
      h("div", { class: "input-row" }, inviteExpiry, inviteButton),
    ),
    result,
    list,
    inviteStatus,
  );
  return panel;
}

/** GET …/invites, then lists them. */
export async function loadInvites(state, panel) {
  try {
    state.invites = await request(`${state.base}/invites`);
  } catch (error) {
    state.invites = [];
    say(panel.inviteStatus, errorText(error), "error");
  }
  renderInvites(state, panel);
}

async function createInvite(state, panel, event) {
  event.preventDefault();
  const minutes = panel.inviteExpiry.value ? Number(panel.inviteExpiry.value) : null;
  panel.inviteButton.disabled = true;
  say(panel.inviteStatus, "Making a link…");
  try {
    const created = await request(`${state.base}/invites`, { method: "POST", body: { expiresInMinutes: minutes } });
    state.newestInvite = { ...created, link: inviteURL(created, location.origin) };
    renderInviteResult(state, panel);
    say(panel.inviteStatus, "Invite link ready.");
    await loadInvites(state, panel);
  } catch (error) {
    say(panel.inviteStatus, errorText(error), "error");
  } finally {
    panel.inviteButton.disabled = false;
  }
}

/** The newest invite's card, the only time its link is shown. */
function renderInviteResult(state, panel) {
  if (!state.newestInvite) {
    fill(panel.result);
    return;
  }
  const { token, link, expiresAt } = state.newestInvite;
  const linkInput = h("input", { id: "invite-link", class: "input input-mono", type: "text", readonly: true, value: link, "aria-describedby": "invite-link-hint" });
  linkInput.addEventListener("focus", () => linkInput.select());
  const name = state.station ? state.station.name : "my station";
  fill(
    panel.result,
    h(
      "div",
      { class: "card invite-card", dataset: { token } },
      h("div", { class: "invite-qr" }, h("img", { class: "qr-img", src: `/api/invites/${enc(token)}/qr.svg`, alt: "QR code for the invite link", width: "200", height: "200" })),
      h(
        "div",
        { class: "invite-body" },
        h("label", { for: "invite-link", class: "label" }, "Invite link"),
        linkInput,
        h(
          "p",
          { class: "hint", id: "invite-link-hint" },
          expiresAt ? `Works until ${clockTime(expiresAt)} (${relativeTime(expiresAt)}). ` : "Works until you revoke it. ",
          "This is the only time the link is shown.",
        ),
        h(
          "div",
          { class: "input-row" },
          h(
            "button",
            { class: "btn btn-primary btn-share", type: "button", onclick: () => share({ title: name, text: `Tune in to ${name} with me on Wavelength`, url: link, select: linkInput }) },
            "Share",
          ),
          h("button", { class: "btn btn-secondary btn-copy", type: "button", onclick: () => copy(link, { select: linkInput }) }, "Copy"),
          h("a", { class: "btn btn-ghost btn-qr-png", href: `/api/invites/${enc(token)}/qr.png`, download: "wavelength-invite.png" }, "Download QR (PNG)"),
        ),
      ),
    ),
  );
}

function renderInvites(state, panel) {
  const now = Date.now();
  const { newestInvite } = state;
  fill(
    panel.list,
    sortInvites(state.invites).map((invite) => {
      const { dead, meta, made } = inviteSummary(invite, now);
      const isNewest = newestInvite && newestInvite.id === invite.id;
      return h(
        "li",
        { class: `invite-row${dead ? " is-dead" : ""}`, dataset: { inviteId: invite.id } },
        h("span", { class: "invite-text" }, h("span", { class: "invite-made" }, made, isNewest ? " · the link above" : ""), h("span", { class: "invite-meta" }, meta)),
        dead
          ? null
          : h(
              "button",
              { class: "btn btn-small btn-danger-outline", type: "button", dataset: { action: "revoke" }, "aria-label": `Revoke the invite made ${invite.createdAt ? clockTime(invite.createdAt) : ""}`, onclick: () => revoke(state, panel, invite) },
              "Revoke",
            ),
      );
    }),
  );
}

async function revoke(state, panel, invite) {
  try {
    await request(`${state.base}/invites/${enc(invite.id)}`, { method: "DELETE" });
    if (state.newestInvite && state.newestInvite.id === invite.id) {
      state.newestInvite = null;
      renderInviteResult(state, panel);
    }
    say(panel.inviteStatus, "Invite revoked: the link no longer works.");
  } catch (error) {
    say(panel.inviteStatus, errorText(error), "error");
  }
  await loadInvites(state, panel);
}
