// "People": everyone on the station (owner, co-DJs, listeners, the banned)
// with who is listening now, and what you may do to them: the owner makes
// and unmakes co-DJs, kicks, bans and unbans; a co-DJ may kick listeners.
// The owner also names a co-DJ by handle.

import { request } from "../../api/api.js";
import { session as me } from "../../api/session.js";
import { h, fill, setText } from "../../ui/dom.js";
import { ROLE_NAMES, isOwner, memberActions, membersSignature, sortMembers } from "./state.js";
import { confirmDialog, errorText, say, status } from "./widgets.js";

const enc = encodeURIComponent;
const selfID = () => (me && me.person ? me.person.id : null);

export function createPeoplePanel(state) {
  const list = h("ul", { class: "people-list", "aria-labelledby": "people-heading" });
  const count = h("span", { class: "count-pill" });
  const peopleStatus = status("people-status");
  // The owner names a co-DJ by handle: anyone with an account, not only
  // those already listed here.
  const codjInput = h("input", {
    id: "codj-handle",
    class: "input",
    type: "text",
    maxlength: "25",
    autocomplete: "off",
    autocapitalize: "none",
    spellcheck: "false",
    placeholder: "@handle",
    "aria-describedby": "codj-hint",
  });
  const codjButton = h("button", { class: "btn btn-secondary", type: "submit" }, "Make co-DJ");
  const panel = { list, count, peopleStatus, codjInput, codjButton };
  const codjForm = h(
    "form",
    { class: "owner-only codj-form", onsubmit: (e) => addCoDJ(state, panel, e), novalidate: true },
    h("label", { for: "codj-handle", class: "label" }, "Add a co-DJ by handle"),
    h("div", { class: "input-row" }, codjInput, codjButton),
    h("p", { class: "hint", id: "codj-hint" }, "Co-DJs can add, skip, hold and reorder tracks."),
  );
  panel.el = h(
    "section",
    { class: "panel people-panel", "aria-labelledby": "people-heading" },
    h("h2", { id: "people-heading", class: "section-title" }, "People ", count),
    list,
    codjForm,
    peopleStatus,
  );
  return panel;
}

/** GET …/members, one request at a time. */
export async function loadMembers(state, panel) {
  if (state.membersBusy) return;
  state.membersBusy = true;
  try {
    const list = await request(`${state.base}/members`);
    if (!state.destroyed) renderMembers(state, panel, list);
  } catch (error) {
    if (!state.destroyed) say(panel.peopleStatus, errorText(error), "error");
  } finally {
    state.membersBusy = false;
  }
}

/** The next render redraws the list even if nobody changed (after a role change or an action). */
export function invalidateMembers(panel) {
  panel.list.dataset.sig = "";
}

export function renderMembers(state, panel, list) {
  state.members = sortMembers(list);
  const { members } = state;
  const sig = membersSignature(members);
  if (panel.list.dataset.sig === sig) return;
  panel.list.dataset.sig = sig;
  // Keep focus on the same control across a refresh.
  const active = document.activeElement;
  const focusKey = active && panel.list.contains(active) ? active.dataset.focusKey : null;
  const connected = members.filter((m) => m.connected && !m.banned).length;
  setText(panel.count, String(members.filter((m) => !m.banned).length));
  panel.count.setAttribute("aria-label", `${connected} connected`);
  fill(panel.list, members.length ? members.map((m) => memberRow(state, panel, m)) : h("li", { class: "empty" }, "Nobody here yet."));
  if (focusKey) {
    const again = panel.list.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

function memberRow(state, panel, member) {
  const { person } = member;
  const self = person.id === selfID();
  const name = person.displayName || person.handle || "Someone";
  const actions = memberActions(member, { self, owner: isOwner(state) }).map(({ action, label, danger }) =>
    h(
      "button",
      {
        class: danger ? "btn btn-small btn-danger-outline" : "btn btn-small btn-secondary",
        type: "button",
        dataset: { action, focusKey: `${action}:${person.id}` },
        "aria-label": `${label}: ${name}`,
        onclick: () => act(state, panel, action, member),
      },
      label,
    ),
  );
  const badge = member.banned ? "Banned" : ROLE_NAMES[member.role] || member.role;
  return h(
    "li",
    {
      class: `person-row${member.connected ? " is-connected" : ""}${member.banned ? " is-banned" : ""}`,
      dataset: { personId: person.id, role: member.role, connected: String(Boolean(member.connected)), banned: String(Boolean(member.banned)) },
    },
    h("span", { class: "person-avatar", "aria-hidden": "true" }, (Array.from(name.trim())[0] || "?").toUpperCase()),
    h(
      "span",
      { class: "person-text" },
      h("span", { class: "person-name" }, name, self ? h("span", { class: "person-you" }, " (you)") : null),
      h(
        "span",
        { class: "person-sub" },
        h("span", { class: `role-badge role-${member.banned ? "banned" : member.role}` }, badge),
        h("span", { class: "person-handle" }, person.kind === "user" && person.handle ? `@${person.handle}` : "Guest"),
        h(
          "span",
          { class: "conn-dot-wrap" },
          h("span", { class: "conn-dot", "aria-hidden": "true" }),
          member.connected ? "Listening now" : "Not connected",
        ),
      ),
    ),
    actions.length ? h("span", { class: "person-actions" }, actions) : null,
  );
}

async function addCoDJ(state, panel, event) {
  event.preventDefault();
  if (!isOwner(state)) return;
  const { codjInput, codjButton, peopleStatus } = panel;
  const handle = codjInput.value.trim().replace(/^@/, "");
  if (!handle) {
    say(peopleStatus, "Type the handle of the person to make co-DJ.", "error");
    codjInput.focus();
    return;
  }
  codjButton.disabled = true;
  try {
    const list = await request(`${state.base}/codjs`, { method: "POST", body: { handle } });
    invalidateMembers(panel);
    if (Array.isArray(list)) renderMembers(state, panel, list);
    const added = state.members.find((m) => m.person.handle === handle.toLowerCase());
    say(peopleStatus, `${(added && added.person.displayName) || `@${handle}`} is a co-DJ now.`);
    codjInput.value = "";
  } catch (error) {
    say(peopleStatus, errorText(error), "error");
    codjInput.focus();
  } finally {
    codjButton.disabled = false;
  }
}

// Kick and ban ask first: they disconnect someone at once.
const CONFIRM = {
  kick: (name, station) => ({ title: `Kick ${name}?`, body: `${name} is disconnected from ${station} at once. They can come back with the code or an invite.`, confirmLabel: "Kick" }),
  ban: (name, station) => ({ title: `Ban ${name}?`, body: `${name} is disconnected from ${station} and can't come back, even with the right code, until you unban them.`, confirmLabel: "Ban" }),
};

async function act(state, panel, action, member) {
  const { person } = member;
  const name = person.displayName || person.handle || "this person";
  if (CONFIRM[action]) {
    const ok = await confirmDialog(CONFIRM[action](name, state.station ? state.station.name : "the station"));
    if (!ok) return;
  }
  if (state.destroyed) return;
  const row = panel.list.querySelector(`[data-person-id="${CSS.escape(person.id)}"]`);
  if (row) for (const b of row.querySelectorAll("button")) b.disabled = true;
  const { base } = state;
  const pid = enc(person.id);
  const say_ = (text) => say(panel.peopleStatus, text);
  const listed = (list) => Array.isArray(list) && renderMembers(state, panel, list);
  try {
    if (action === "kick") {
      await request(`${base}/kick`, { method: "POST", body: { personID: person.id } });
      say_(`${name} was removed.`);
    } else if (action === "ban") {
      await request(`${base}/ban`, { method: "POST", body: { personID: person.id } });
      say_(`${name} is banned.`);
    } else if (action === "unban") {
      await request(`${base}/bans/${pid}`, { method: "DELETE" });
      say_(`${name} is no longer banned.`);
    } else if (action === "codj") {
      listed(await request(`${base}/codjs/${pid}`, { method: "PUT" }));
      say_(`${name} is a co-DJ now.`);
    } else if (action === "uncodj") {
      listed(await request(`${base}/codjs/${pid}`, { method: "DELETE" }));
      say_(`${name} is a listener again.`);
    }
  } catch (error) {
    say(panel.peopleStatus, errorText(error), "error");
    if (row) for (const b of row.querySelectorAll("button")) b.disabled = false;
  }
  invalidateMembers(panel);
  await loadMembers(state, panel);
}
