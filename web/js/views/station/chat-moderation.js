// The chat's tools for the owner and co-DJs: per message a compact menu
// (delete it, delete everything by that person, mute them 15, 30 or 60
// minutes), and for the room slow mode (off, 5, 10, 30, 60 s), "Clear
// chat" (asked twice) and who is muted, with Unmute. Each action is a
// `moderate` message (chat-actions.js); its effect arrives as the room's
// own broadcasts (chatDeleted, chatRoom), so nothing here changes the list
// by itself.
//
// Names go in as text.

import { h, fill } from "../../ui/dom.js";
import { MUTE_MINUTES, clockTime, slowModeChoices } from "./chat-model.js";

let menuCount = 0;

/**
 * A message's menu: a button that opens a small group of actions under
 * it (a disclosure: Tab moves through them, Esc closes and returns to the
 * button). `message` is the model's; `self` the viewer's person id.
 */
export function messageMenu(message, { self, staff = true, onModerate, onOpen, onReport, onBlock }) {
  menuCount += 1;
  const id = `chat-menu-${menuCount}`;
  const name = message.person.name || "this person";
  const act = (action) => () => {
    close();
    onModerate(action);
  };
  const others = message.person.id && message.person.id !== self;
  const run = (fn) => () => {
    close();
    fn();
  };
  // Anyone with a name in the room reports and blocks someone else.
  const personal = others && self && onReport
    ? [
        h("button", { type: "button", class: "chat-tool chat-tool-report", onclick: run(() => onReport(message)) }, "Report…"),
        h("button", { type: "button", class: "chat-tool chat-tool-block", onclick: run(() => onBlock(message)) }, `Block ${name}`),
      ]
    : [];
  const items = !staff ? personal : [
    ...personal,
    h("button", { type: "button", class: "chat-tool chat-tool-delete", onclick: act({ action: "delete", messageID: message.id }) }, "Delete"),
    others
      ? h("button", { type: "button", class: "chat-tool chat-tool-delete-all", onclick: act({ action: "deleteAllBy", personID: message.person.id }) }, `Delete all by ${name}`)
      : null,
    ...(others
      ? MUTE_MINUTES.map((minutes) =>
          h(
            "button",
            { type: "button", class: "chat-tool chat-tool-mute", dataset: { minutes: String(minutes) }, onclick: act({ action: "mute", personID: message.person.id, minutes }) },
            `Mute ${minutes} min`,
          ),
        )
      : []),
  ];
  const tools = h("div", { id, class: "chat-msg-tools", role: "group", "aria-label": staff ? `Moderate ${name}'s message` : `${name}'s message`, hidden: true }, items);
  const button = h(
    "button",
    {
      type: "button",
      class: "chat-msg-menu",
      "aria-expanded": "false",
      "aria-controls": id,
      "aria-label": staff ? `Moderate: ${name}` : `Report or block ${name}`,
      onclick: () => (tools.hidden ? open() : close()),
    },
    h("span", { "aria-hidden": "true" }, "⋯"),
  );

  function open() {
    onOpen(close);
    tools.hidden = false;
    button.setAttribute("aria-expanded", "true");
  }

  function close(focusButton = false) {
    if (tools.hidden) return;
    tools.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (focusButton) button.focus();
  }

  tools.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    }
  });
  button.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !tools.hidden) {
      event.preventDefault();
      close(true);
    }
  });
  return { button, tools, close };
}

/** The room's tools: slow mode, clear, the mute list. */
export function createModTools({ onModerate }) {
  const select = h("select", { id: "chat-slow-mode", class: "input select chat-slow-select" });
  select.addEventListener("change", () => onModerate({ action: "slowMode", seconds: Number(select.value) }));
  const clear = h("button", { type: "button", class: "btn btn-small btn-danger-outline chat-clear" }, "Clear chat");
  const sure = h("button", { type: "button", class: "btn btn-small btn-danger-solid chat-clear-confirm" }, "Clear every message");
  const keep = h("button", { type: "button", class: "btn btn-small btn-ghost chat-clear-cancel" }, "Keep them");
  const confirmRow = h("div", { class: "chat-clear-confirm-row", role: "group", "aria-label": "Clear the chat for everyone?", hidden: true }, sure, keep);
  clear.addEventListener("click", () => {
    confirmRow.hidden = false;
    clear.hidden = true;
    sure.focus();
  });
  const back = () => {
    confirmRow.hidden = true;
    clear.hidden = false;
  };
  keep.addEventListener("click", () => {
    back();
    clear.focus();
  });
  sure.addEventListener("click", () => {
    back();
    clear.focus();
    onModerate({ action: "clear" });
  });
  const mutedList = h("ul", { class: "chat-muted-list" });
  const mutedNone = h("p", { class: "hint chat-muted-none" }, "Nobody is muted.");
  const el = h(
    "details",
    { class: "chat-mod" },
    h("summary", { class: "chat-mod-summary" }, "Moderation"),
    h(
      "div",
      { class: "chat-mod-body" },
      h("div", { class: "chat-mod-row" }, h("label", { for: "chat-slow-mode", class: "label" }, "Slow mode"), select),
      h("div", { class: "chat-mod-row" }, clear, confirmRow),
      h("h3", { class: "chat-mod-heading" }, "Muted"),
      mutedNone,
      mutedList,
    ),
  );
  let shownSlow = null;
  let shownMuted = "";

  function render(chat, { offset = 0 } = {}) {
    if (shownSlow !== chat.slowModeSeconds) {
      shownSlow = chat.slowModeSeconds;
      fill(select, slowModeChoices(chat.slowModeSeconds).map((c) => h("option", { value: String(c.seconds) }, c.label)));
      select.value = String(chat.slowModeSeconds);
    }
    // The name they wrote under, when the chat holds one (the server names
    // someone who isn't connected "Someone").
    const written = new Map(chat.messages.map((m) => [m.person.id, m.person.name]));
    const muted = (chat.muted || []).map((m) => ({ ...m, person: { ...m.person, name: written.get(m.person.id) || m.person.name } }));
    const key = JSON.stringify(muted);
    if (key === shownMuted) return;
    shownMuted = key;
    mutedNone.hidden = muted.length > 0;
    fill(
      mutedList,
      muted.map((m) =>
        h(
          "li",
          { class: "chat-muted-row", dataset: { personId: m.person.id } },
          h("span", { class: "chat-muted-name" }, m.person.name),
          h("span", { class: "chat-muted-until" }, `until ${clockTime(m.until, offset)}`),
          h(
            "button",
            { type: "button", class: "btn-text chat-unmute", "aria-label": `Unmute ${m.person.name}`, onclick: () => onModerate({ action: "unmute", personID: m.person.id }) },
            "Unmute",
          ),
        ),
      ),
    );
  }

  return { el, render, select };
}
