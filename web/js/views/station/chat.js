// The station's chat panel (the listener's screen and the DJ booth): the
// messages as a log (role="log", polite), each with the name, @handle,
// time and text, mentions of you lit; the input with its label, a send
// button and the characters left near the limit, @-autocomplete
// (chat-autocomplete.js); the owner's and co-DJs' tools
// (chat-moderation.js); and instead of the input, when it can't be used,
// why: the chat is off, sign in or join with a name, guests can't post
// here, you're muted until HH:MM. Each listener can hide the chat
// ("Chat", aria-pressed, remembered in localStorage); while it is hidden or
// scrolled away from the newest, a badge counts what came in.
//
// The state is chat-model.js's; chat-actions.js feeds it from the live
// socket and sends what is typed. Everything people write goes in as
// text (ui/dom.js), and links stay text.

import { h, fill, setText } from "../../ui/dom.js";
import { authHref, stationPath } from "../../router.js";
import { attachMentions } from "./chat-autocomplete.js";
import { createModTools, messageMenu } from "./chat-moderation.js";
import {
  charactersLeft,
  chatRows,
  chatShown,
  clockTime,
  composerModel,
  emptyChat,
  handleSuggestions,
  mentionsViewer,
  rememberChatShown,
  splitMentions,
  unreadBadge,
} from "./chat-model.js";
import { createGuestJoin } from "./guest-join.js";
import { blockedIDs, onBlocksChanged, setBlocked } from "../../api/reports.js";
import { openReportDialog } from "../reports/report-dialog.js";
import { toast } from "../../ui/toast.js";

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Within this many pixels of the end, the log counts as read to the newest. */
const BOTTOM_SLACK = 24;

/**
 * @param {{ stationID: string, onSend: (text: string) => boolean, onModerate: (action: object) => void,
 *   onJoin: (name: string) => Promise, onRead: () => void }} actions
 */
export function createChatPanel({ stationID, onSend, onModerate, onJoin, onRead }) {
  const badge = h("span", { class: "chat-unread", hidden: true });
  const badgeWords = h("span", { class: "visually-hidden chat-unread-words" });
  const toggle = h(
    "button",
    { class: "btn-chat-toggle", type: "button", "aria-pressed": "true", "aria-expanded": "true", "aria-controls": "chat-body" },
    h("span", { class: "chat-switch", "aria-hidden": "true" }),
    "Chat",
    badge,
    badgeWords,
  );
  const slowChip = h("span", { class: "chat-slow-chip", hidden: true });
  const heading = h("h2", { id: "chat-heading", class: "section-title chat-heading" }, toggle, slowChip);

  const log = h("ol", {
    class: "chat-log",
    role: "log",
    "aria-live": "polite",
    "aria-relevant": "additions",
    "aria-label": "Chat messages",
    tabindex: "0",
  });
  const empty = h("p", { class: "chat-empty", hidden: true }, "No messages yet. Say hello to the room.");
  const jump = h("button", { class: "chat-jump", type: "button", hidden: true });
  const logWrap = h("div", { class: "chat-log-wrap" }, log, empty, jump);

  const input = h("input", {
    id: "chat-input",
    class: "input chat-input",
    type: "text",
    role: "combobox",
    "aria-autocomplete": "list",
    "aria-expanded": "false",
    "aria-controls": "chat-suggestions",
    "aria-describedby": "chat-count chat-error",
    autocomplete: "off",
    autocapitalize: "sentences",
    enterkeyhint: "send",
    spellcheck: "true",
    placeholder: "Say something to the room…",
  });
  const listbox = h("ul", { id: "chat-suggestions", class: "chat-suggestions", role: "listbox", "aria-label": "People in the chat", hidden: true });
  const send = h("button", { class: "btn btn-primary btn-chat-send", type: "submit" }, "Send");
  const count = h("p", { id: "chat-count", class: "chat-count" });
  const error = h("p", { id: "chat-error", class: "chat-error", role: "alert" });
  const form = h(
    "form",
    { class: "chat-compose", novalidate: true, hidden: true },
    h("label", { for: "chat-input", class: "visually-hidden" }, "Message the room"),
    h("div", { class: "chat-compose-row" }, h("div", { class: "chat-field" }, input, listbox), send),
    h("div", { class: "chat-compose-foot" }, error, count),
  );

  // Instead of the input: why not, and for a listener without a name the way in.
  const noticeText = h("p", { class: "chat-notice-text" });
  const signIn = h("a", { class: "btn btn-small btn-secondary chat-sign-in", href: authHref("login", `/${stationPath(stationID).join("/")}`) }, "Sign in");
  const guestJoin = createGuestJoin({ id: "chat-guest-name", label: "Or join with a name", button: "Join the chat", onJoin });
  // Its own class: the party's join form (party-join) is another form on the same screen.
  guestJoin.el.classList.replace("party-join", "chat-guest-join");
  // The party keeps its join form hidden until asked; here its box says when.
  guestJoin.el.hidden = false;
  // At a party or in a lobby the panel there asks for your name (it is also
  // your name here): one name form on the screen, and a way to it.
  const joinThere = h(
    "button",
    {
      class: "btn btn-small btn-secondary chat-join-there",
      type: "button",
      hidden: true,
      onclick: () => {
        const field = document.getElementById(joinThere.dataset.target || "");
        if (field) {
          field.scrollIntoView({ block: "center", behavior: "smooth" });
          field.focus({ preventScroll: true });
        }
      },
    },
    "Join with a name",
  );
  const anonymous = h("div", { class: "chat-anonymous", hidden: true }, signIn, guestJoin.el, joinThere);
  const signUp = h("a", { class: "btn btn-small btn-secondary chat-sign-up", href: authHref("signup", `/${stationPath(stationID).join("/")}`), hidden: true }, "Create an account");
  const notice = h("div", { class: "chat-notice", role: "status" }, noticeText, anonymous, signUp);

  const slowNote = h("p", { class: "chat-slow-note", hidden: true });
  const modTools = createModTools({ onModerate });
  const body = h("div", { id: "chat-body", class: "chat-body" }, modTools.el, logWrap, slowNote, form, notice);
  const el = h("section", { class: "panel chat-panel", "aria-labelledby": "chat-heading", hidden: true, dataset: { composer: "loading" } }, heading, body);

  const panel = {
    el,
    toggle,
    badge,
    log,
    input,
    listbox,
    form,
    error,
    count,
    notice,
    modTools,
    /** The chat as the server said it (chat-model.js). */
    model: emptyChat(),
    /** Ids of the messages that came in unread. */
    unread: new Set(),
    shown: chatShown(storage()),
    /** key → <li>, in the log. */
    rows: new Map(),
    /** What the rows were drawn for (staff, you): drawn again when it changes. */
    drawnFor: "",
    /** The context of the last render (chat-actions.js's chatContext). */
    ctx: null,
    /** Closes the message menu that is open. */
    closeMenu: null,
    /** The log is kept at its newest after the next draw. */
    stick: true,
    onModerateMessage: onModerate,
    stationID,
    /** The people the viewer blocks: their messages aren't drawn. */
    blocked: new Set(),
  };
  const redraw = (set) => {
    panel.blocked = set;
    if (panel.ctx) renderChatPanel(panel, panel.ctx);
  };
  blockedIDs().then(redraw);
  panel.stopBlocks = onBlocksChanged(redraw);

  panel.mentions = attachMentions(input, listbox, {
    suggest: (query) =>
      handleSuggestions(panel.model.messages, query, { self: panel.ctx && panel.ctx.handle, people: panel.model.people }),
    onPick: () => updateCount(panel),
  });

  toggle.addEventListener("click", () => {
    panel.shown = !panel.shown;
    rememberChatShown(storage(), panel.shown);
    panel.stick = panel.shown;
    if (panel.ctx) renderChatPanel(panel, panel.ctx);
    if (panel.shown) onRead();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (panel.mentions.open) return;
    if (onSend(input.value)) panel.stick = true;
  });
  input.addEventListener("input", () => {
    setText(error, "");
    updateCount(panel);
  });
  log.addEventListener("scroll", () => {
    if (atBottom(log)) {
      jump.hidden = true;
      if (panel.unread.size) onRead();
    }
  }, { passive: true });
  jump.addEventListener("click", () => {
    scrollToEnd(log);
    jump.hidden = true;
    onRead();
    log.focus();
  });
  // A click elsewhere closes a message's menu.
  el.addEventListener("click", (event) => {
    if (panel.closeMenu && !event.target.closest(".chat-msg-menu, .chat-msg-tools")) {
      panel.closeMenu();
      panel.closeMenu = null;
    }
  });
  Object.assign(panel, { jump, empty, slowChip, slowNote, noticeText, anonymous, signUp, badgeWords, body, send, guestJoin, joinThere });
  return panel;
}

export function atBottom(log) {
  return log.scrollHeight - log.scrollTop - log.clientHeight <= BOTTOM_SLACK;
}

function scrollToEnd(log) {
  log.scrollTop = log.scrollHeight;
}

/** Whether someone reads the newest messages now: shown, at the end, the page visible. */
export function isReading(panel) {
  return panel.shown && !panel.body.hidden && atBottom(panel.log) && document.visibilityState !== "hidden";
}

function updateCount(panel) {
  const { text, over } = charactersLeft(panel.input.value, panel.model.maxLength);
  setText(panel.count, text);
  panel.count.classList.toggle("is-over", over);
  panel.input.setAttribute("aria-invalid", over ? "true" : "false");
}

/** Says why a message wasn't sent, beside the input. */
export function showChatError(panel, text) {
  setText(panel.error, text || "");
}

/** The text of the message the server refused goes back in the input, unless something new is being typed. */
export function restoreDraft(panel, text) {
  if (panel.input.value.trim()) return false;
  panel.input.value = text;
  updateCount(panel);
  return true;
}

export function clearDraft(panel) {
  panel.input.value = "";
  panel.mentions.close();
  updateCount(panel);
}

/** The message's words, its @mentions set apart (yours lit): all text nodes. */
function textOf(message, handle) {
  const mine = handle ? handle.toLowerCase() : null;
  return splitMentions(message.text).map((part) =>
    part.handle ? h("span", { class: part.handle === mine ? "chat-at is-me" : "chat-at" }, part.text) : part.text,
  );
}

function rowClass(row, ctx) {
  const m = row.message;
  return [
    "chat-msg",
    row.pending ? "is-pending" : "",
    ctx.self && m.person.id === ctx.self ? "is-own" : "",
    !row.pending && mentionsViewer(m, ctx.handle) ? "is-mention" : "",
  ].filter(Boolean).join(" ");
}

function timeOf(message, ctx) {
  const iso = message.sentAt ? new Date(message.sentAt - ctx.offset).toISOString() : "";
  return h("time", { class: "chat-time", datetime: iso || null }, message.sentAt ? clockTime(message.sentAt, ctx.offset) : "");
}

function messageRow(panel, row, ctx) {
  const m = row.message;
  const mention = !row.pending && mentionsViewer(m, ctx.handle);
  const line = h(
    "div",
    { class: "chat-line" },
    h("span", { class: "chat-name" }, m.person.name),
    m.handle ? h("span", { class: "chat-handle" }, `@${m.handle}`) : h("span", { class: "chat-handle is-guest" }, "guest"),
    timeOf(m, ctx),
    mention ? h("span", { class: "chat-mention-tag" }, "mentions you") : null,
    row.pending ? h("span", { class: "chat-sending" }, "sending…") : null,
  );
  const li = h(
    "li",
    { class: rowClass(row, ctx), dataset: { messageId: row.pending ? "" : m.id, personId: m.person.id, pending: row.pending ? "true" : "false" } },
    line,
    h("p", { class: "chat-text" }, textOf(m, ctx.handle)),
  );
  if (!row.pending && hasMenu(m, ctx)) addMenu(panel, li, m, ctx);
  return li;
}

function addMenu(panel, li, message, ctx) {
  const menu = messageMenu(message, {
    self: ctx.self,
    staff: ctx.staff,
    onModerate: (action) => panel.onModerateMessage(action),
    onReport: (m) =>
      openReportDialog({ subject: "chat", id: m.id, stationID: panel.stationID, name: m.person.name || "this person", personID: m.person.id }),
    onBlock: async (m) => {
      try {
        await setBlocked(m.person.id, true);
        toast(`You blocked ${m.person.name}: neither of you gets the other's messages, follows or requests now. Unblock them from your account.`);
      } catch (error) {
        toast(error.message || "Couldn't block them: try again.", { kind: "error" });
      }
    },
    onOpen: (close) => {
      if (panel.closeMenu) panel.closeMenu();
      panel.closeMenu = close;
    },
  });
  li.querySelector(".chat-line").append(menu.button);
  li.append(menu.tools);
}

/** A row sent by you, now saved by the server: the same <li>, now the message. */
function settleRow(panel, li, row, ctx) {
  const m = row.message;
  li.className = rowClass(row, ctx);
  li.dataset.messageId = m.id;
  li.dataset.pending = "false";
  const sending = li.querySelector(".chat-sending");
  if (sending) sending.remove();
  const time = li.querySelector(".chat-time");
  if (time) time.replaceWith(timeOf(m, ctx));
  if (hasMenu(m, ctx)) addMenu(panel, li, m, ctx);
}

/** The owner and co-DJs moderate every message; anyone with a name reports and blocks others'. */
function hasMenu(message, ctx) {
  return ctx.staff || Boolean(ctx.self && message.person.id && message.person.id !== ctx.self);
}

function drawRows(panel, ctx) {
  const { log } = panel;
  const drawnFor = `${ctx.staff}|${ctx.self}|${ctx.handle}|${panel.blocked.size}`;
  // Drawn again for someone else (signed in, a co-DJ now): a screen reader
  // isn't read the whole log as news.
  const rebuild = drawnFor !== panel.drawnFor;
  if (rebuild) {
    panel.drawnFor = drawnFor;
    panel.rows.clear();
    log.setAttribute("aria-busy", "true");
    fill(log);
  }
  const rows = chatRows(panel.model).filter((row) => !panel.blocked.has(row.message.person.id));
  const end = atBottom(log);
  for (const row of rows) {
    if (row.ref && !panel.rows.has(row.key) && panel.rows.has(row.ref)) {
      const li = panel.rows.get(row.ref);
      panel.rows.delete(row.ref);
      panel.rows.set(row.key, li);
      settleRow(panel, li, row, ctx);
    }
  }
  const wanted = new Set(rows.map((r) => r.key));
  for (const [key, li] of panel.rows) {
    if (!wanted.has(key)) {
      li.remove();
      panel.rows.delete(key);
    }
  }
  rows.forEach((row, index) => {
    let li = panel.rows.get(row.key);
    if (!li) {
      li = messageRow(panel, row, ctx);
      panel.rows.set(row.key, li);
    }
    if (log.children[index] !== li) log.insertBefore(li, log.children[index] || null);
  });
  if ((end || panel.stick) && panel.shown) {
    scrollToEnd(log);
    panel.stick = false;
  }
  panel.empty.hidden = rows.length > 0 || panel.model.enabled !== true;
  if (rebuild) log.removeAttribute("aria-busy");
}

/**
 * Draws the panel for `ctx` ({person, staff, self, handle, now, offset}):
 * called on every change of the chat, your role or who you are.
 */
export function renderChatPanel(panel, ctx) {
  panel.ctx = ctx;
  const { model } = panel;
  const comp = composerModel(model, ctx);
  const on = model.enabled === true;
  panel.el.dataset.composer = comp.mode;
  // Not a word until the server has said how the room is (an older server has no chat).
  panel.el.hidden = model.enabled === null;
  panel.el.dataset.enabled = model.enabled === null ? "" : String(model.enabled);
  panel.el.classList.toggle("is-off", model.enabled === false);
  panel.el.classList.toggle("is-collapsed", !panel.shown);

  panel.toggle.setAttribute("aria-pressed", String(panel.shown));
  panel.toggle.setAttribute("aria-expanded", String(panel.shown));
  panel.body.hidden = !panel.shown;
  renderBadge(panel);

  setText(panel.slowChip, comp.slow ? `Slow · ${model.slowModeSeconds} s` : "");
  panel.slowChip.hidden = !comp.slow;
  setText(panel.slowNote, comp.slow);
  panel.slowNote.hidden = !comp.slow;

  const open = comp.mode === "open";
  if (panel.form.hidden === open) {
    panel.form.hidden = !open;
    if (!open) panel.mentions.close();
  }
  panel.notice.hidden = open;
  panel.notice.dataset.mode = comp.mode;
  // The party's (or lobby's) name form is on the screen: not a second one here.
  const elsewhere = ctx.joinElsewhere || null;
  const anonymousThere = elsewhere && comp.mode === "anonymous";
  setText(panel.noticeText, anonymousThere ? `Sign in, or give your name for the ${elsewhere}, to chat.` : comp.text);
  panel.anonymous.hidden = comp.mode !== "anonymous";
  panel.guestJoin.el.hidden = Boolean(elsewhere);
  panel.joinThere.hidden = !elsewhere;
  panel.joinThere.dataset.target = elsewhere === "lobby" ? "lobby-name" : "party-name";
  panel.signUp.hidden = comp.mode !== "guests-off";
  if (open) updateCount(panel);

  panel.modTools.el.hidden = !(ctx.staff && on);
  if (ctx.staff) panel.modTools.render(model, ctx);

  panel.log.parentElement.hidden = !on;
  drawRows(panel, ctx);
  if (panel.shown && atBottom(panel.log)) panel.jump.hidden = true;
}

export function renderBadge(panel) {
  const n = panel.unread.size;
  const text = unreadBadge(n);
  setText(panel.badge, text);
  panel.badge.hidden = !text;
  setText(panel.badgeWords, text ? (n === 1 ? ", 1 unread message" : `, ${text} unread messages`) : "");
  panel.el.dataset.unread = String(n);
  // Scrolled away from the newest: a way back down, with the count.
  const away = panel.shown && n > 0 && !atBottom(panel.log);
  panel.jump.hidden = !away;
  if (away) setText(panel.jump, n === 1 ? "↓ 1 new message" : `↓ ${text} new messages`);
}
