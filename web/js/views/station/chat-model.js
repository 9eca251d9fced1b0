// The station's chat, the pure part: the list of messages as the server
// sends them (the room on connect and on every change of its rules, each
// new message, deletions), your own messages while they wait for the
// server's word (`ref`), unread counting, mentions of you, the @-handle
// autocomplete, the characters left, what the composer shows (off, sign
// in, guests not allowed, muted, slow mode) and the listener's own choice
// to hide the chat. No DOM here; chat.js draws the panel.
//
// Every function returns a new value and leaves its arguments alone.
// Message text, names and handles are kept as strings: they are shown as
// text, never as markup.

import { ErrorCode } from "../../api/error-codes.js";

/** How many messages the page keeps (the server sends the newest 50 on connect). */
export const KEEP = 200;
/** The longest message when the server hasn't said (its ChatText.maxCharacters). */
export const DEFAULT_MAX_LENGTH = 300;
/** The counter shows from this many characters left. */
export const COUNT_FROM = 50;
/** localStorage's key for the listener's own choice (seed 004: each listener can hide the chat). */
export const PREFERENCE_KEY = "wavelength.chat";

const str = (value) => (typeof value === "string" ? value : value == null ? "" : String(value));

/** The chat before the server has said anything: not known to be on or off. */
export function emptyChat() {
  return {
    /** The host's switch: null until the room is known. */
    enabled: null,
    guestsMayPost: true,
    slowModeSeconds: 0,
    maxLength: DEFAULT_MAX_LENGTH,
    palette: [],
    /** While you are muted: when it ends (server ms). */
    mutedUntil: null,
    /** For moderators: [{person: {id, name}, until}]; null for everyone else. */
    muted: null,
    /** Messages the server keeps, oldest first. */
    messages: [],
    /** Your own messages waiting for the server's word: [{id, text, person, handle, sentAt, connection}]. */
    pending: [],
  };
}

/** A server ChatMessage as the page keeps it (strings where text goes), or null for nonsense. */
export function readMessage(raw) {
  if (!raw || typeof raw !== "object" || typeof raw.id !== "string" || !raw.id) return null;
  const person = raw.person && typeof raw.person === "object" ? raw.person : {};
  const handle = typeof raw.handle === "string" && raw.handle ? raw.handle : null;
  return {
    id: raw.id,
    person: { id: str(person.id), name: str(person.name) || (handle ? handle : "Someone") },
    handle,
    mention: typeof raw.mention === "string" && raw.mention ? raw.mention : handle,
    text: str(raw.text),
    sentAt: Number.isFinite(raw.sentAt) ? raw.sentAt : 0,
    mentions: Array.isArray(raw.mentions) ? raw.mentions.filter((m) => typeof m === "string").map((m) => m.toLowerCase()) : [],
  };
}

const sameText = (a, b) => a.trim() === b.trim();

/**
 * The room as the server sent it (`chatRoom`): its rules and its newest
 * messages, which replace the list. Your waiting messages stay, except
 * those the room already holds (sent before a reconnect, acknowledged
 * while away) and, when `connection` (the live connection's number) is
 * newer than theirs, those it lost: `lost` lists them, so their text can
 * go back in the input. A chat turned off holds nothing.
 */
export function applyRoom(chat, room, { connection = null } = {}) {
  if (!room || typeof room !== "object") return { chat, lost: [] };
  const enabled = room.enabled !== false;
  const messages = enabled && Array.isArray(room.messages) ? room.messages.map(readMessage).filter(Boolean) : [];
  const next = {
    ...chat,
    enabled,
    guestsMayPost: room.guestsMayPost !== false,
    slowModeSeconds: Number.isFinite(room.slowModeSeconds) && room.slowModeSeconds > 0 ? room.slowModeSeconds : 0,
    maxLength: Number.isFinite(room.maxLength) && room.maxLength > 0 ? room.maxLength : DEFAULT_MAX_LENGTH,
    palette: Array.isArray(room.palette) ? room.palette.filter((e) => typeof e === "string" && e) : chat.palette,
    mutedUntil: Number.isFinite(room.mutedUntil) ? room.mutedUntil : null,
    muted: Array.isArray(room.muted)
      ? room.muted
          .filter((m) => m && m.person && typeof m.person.id === "string")
          .map((m) => ({ person: { id: m.person.id, name: str(m.person.name) || "Someone" }, until: Number(m.until) || 0 }))
          .sort((a, b) => a.until - b.until)
      : null,
    messages: dedupe(messages).slice(-KEEP),
    // The named people here (guests with their room handle), to suggest
    // before they have said a word.
    people: Array.isArray(room.people)
      ? room.people
          .filter((p) => p && typeof p.handle === "string" && p.handle)
          .map((p) => ({ handle: p.handle, name: str(p.name) }))
      : chat.people || [],
  };
  const pending = [];
  const lost = [];
  for (const p of enabled ? chat.pending : []) {
    const kept = next.messages.some((m) => m.person.id === p.person.id && sameText(m.text, p.text) && m.sentAt >= p.sentAt - 60_000);
    if (kept) continue;
    if (connection !== null && p.connection !== null && p.connection !== connection) lost.push(p);
    else pending.push(p);
  }
  if (!enabled) lost.push(...chat.pending);
  next.pending = pending;
  return { chat: next, lost };
}

function dedupe(messages) {
  const seen = new Set();
  return messages.filter((m) => (seen.has(m.id) ? false : (seen.add(m.id), true)));
}

/**
 * A new message (`chat`). With `ref` (only on the author's copy) it
 * replaces your waiting message of that id, and remembers the id as
 * `ref`, so the page keeps one row for it. A message already held is
 * not added twice.
 */
export function addMessage(chat, raw, ref = null) {
  const message = readMessage(raw);
  if (!message) return chat;
  const pending = ref ? chat.pending.filter((p) => p.id !== ref) : chat.pending;
  if (chat.messages.some((m) => m.id === message.id)) return pending === chat.pending ? chat : { ...chat, pending };
  const kept = ref && pending.length !== chat.pending.length ? { ...message, ref } : message;
  return { ...chat, pending, messages: [...chat.messages, kept].slice(-KEEP) };
}

/** `chatDeleted`: those ids, every message by `person` when given, everything when `all`. */
export function deleteMessages(chat, { messageIDs = [], person = null, all = false } = {}) {
  if (all) return { ...chat, messages: [] };
  const ids = new Set(Array.isArray(messageIDs) ? messageIDs : []);
  const messages = chat.messages.filter((m) => !ids.has(m.id) && !(person && m.person.id === person));
  return messages.length === chat.messages.length ? chat : { ...chat, messages };
}

/** Your message, shown at once while the server checks it. */
export function addPending(chat, { id, text, person, handle = null, sentAt = 0, connection = null }) {
  const entry = { id, text: str(text), person: { id: str(person && person.id), name: str(person && (person.displayName || person.name)) }, handle: handle || null, sentAt, connection };
  return { ...chat, pending: [...chat.pending, entry] };
}

/** The server refused your message `id` (or it was never sent): it goes, and is returned. */
export function dropPending(chat, id) {
  const dropped = chat.pending.find((p) => p.id === id) || null;
  if (!dropped) return { chat, dropped: null };
  return { chat: { ...chat, pending: chat.pending.filter((p) => p.id !== id) }, dropped };
}

/**
 * The rows to show, in order: the server's messages, then yours waiting
 * (marked `pending`). `ref` is the waiting row a message replaces, so its
 * row can stay the same one.
 */
export function chatRows(chat) {
  return [
    ...chat.messages.map((m) => ({ key: m.id, ref: m.ref || null, message: m, pending: false })),
    ...chat.pending.map((p) => ({ key: p.id, ref: null, message: { ...p, mentions: [] }, pending: true })),
  ];
}

// ---------------------------------------------------------------- mentions

/** Whether `message` names the viewer (`handle`, the viewer's own) with @. */
export function mentionsViewer(message, handle) {
  if (!message || !handle) return false;
  const mine = String(handle).toLowerCase();
  return Array.isArray(message.mentions) && message.mentions.some((m) => String(m).toLowerCase() === mine);
}

const HANDLE_CHAR = /[A-Za-z0-9_]/;

/**
 * The @-word being typed at `caret` in `text`, as the server reads
 * mentions (an @ at the start or after a character that can't be in a
 * handle, then letters, digits and _): {start, end, query} where start is
 * the @'s index, end the end of the word and query what follows the @ up
 * to the caret, lower case; null when the caret isn't in one.
 */
export function mentionAt(text, caret) {
  const value = str(text);
  const at = Math.max(0, Math.min(Number.isFinite(caret) ? caret : value.length, value.length));
  let start = at;
  while (start > 0 && HANDLE_CHAR.test(value[start - 1])) start -= 1;
  if (start === 0 || value[start - 1] !== "@") return null;
  const sign = start - 1;
  if (sign > 0 && HANDLE_CHAR.test(value[sign - 1])) return null;
  let end = at;
  while (end < value.length && HANDLE_CHAR.test(value[end])) end += 1;
  const query = value.slice(start, at).toLowerCase();
  if (query.length > 24) return null;
  return { start: sign, end, query };
}

/**
 * The text in parts, the @mentions apart as the server finds them (an @
 * at the start or after a character that can't be in a handle, then 3–24
 * of a–z, 0–9 and _): [{text, handle}] where handle is the mention's,
 * lower case, or null for plain text. Joined, the parts are the text.
 */
export function splitMentions(text) {
  const value = str(text);
  const parts = [];
  let plain = "";
  let i = 0;
  while (i < value.length) {
    const c = value[i];
    if (c === "@" && (i === 0 || !HANDLE_CHAR.test(value[i - 1]))) {
      let end = i + 1;
      while (end < value.length && HANDLE_CHAR.test(value[end])) end += 1;
      const handle = value.slice(i + 1, end);
      if (handle.length >= 3 && handle.length <= 24) {
        if (plain) parts.push({ text: plain, handle: null });
        plain = "";
        parts.push({ text: value.slice(i, end), handle: handle.toLowerCase() });
      } else {
        plain += value.slice(i, end);
      }
      i = end;
      continue;
    }
    plain += c;
    i += 1;
  }
  if (plain) parts.push({ text: plain, handle: null });
  return parts;
}

/**
 * The people to offer for @`query`: the authors seen in the chat (newest
 * first, each once, never the viewer), those whose handle starts with the
 * query first, then those whose handle or name holds it; at most `limit`.
 */
export function handleSuggestions(messages, query, { self = null, limit = 6, people = [] } = {}) {
  const q = str(query).toLowerCase();
  const me = self ? String(self).toLowerCase() : null;
  const seen = new Map();
  // The authors, newest first (a guest by the room handle they are
  // mentioned by), then whoever is here and hasn't spoken yet.
  const authors = [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m) authors.push({ handle: m.handle || m.mention, name: m.person ? m.person.name : "" });
  }
  const here = (Array.isArray(people) ? people : []).filter(Boolean).map((p) => ({ handle: p.handle, name: str(p.name) }));
  for (const person of [...authors, ...here]) {
    if (typeof person.handle !== "string" || !person.handle) continue;
    const key = person.handle.toLowerCase();
    if (key === me || seen.has(key)) continue;
    seen.set(key, person);
  }
  const offered = [...seen.values()];
  const starts = offered.filter((p) => p.handle.toLowerCase().startsWith(q));
  const holds = q ? offered.filter((p) => !p.handle.toLowerCase().startsWith(q) && (p.handle.toLowerCase().includes(q) || p.name.toLowerCase().includes(q))) : [];
  return [...starts, ...holds].slice(0, Math.max(0, limit));
}

/** The text with the @-word `mention` (mentionAt's) replaced by @handle and a space; the caret after it. */
export function completeMention(text, mention, handle) {
  const value = str(text);
  if (!mention) return { text: value, caret: value.length };
  const before = value.slice(0, mention.start);
  let after = value.slice(mention.end);
  const inserted = `@${handle}`;
  if (!after.startsWith(" ")) after = ` ${after}`;
  return { text: before + inserted + after, caret: before.length + inserted.length + 1 };
}

// ------------------------------------------------------------- the composer

/** The length the server counts: characters as a person sees them (grapheme clusters), trimmed. */
export function messageLength(text) {
  const value = str(text).trim();
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    let count = 0;
    for (const _ of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(value)) count += 1;
    return count;
  }
  return [...value].length;
}

/** The counter near the limit: "" until COUNT_FROM left, then "N left", over it "N too many". */
export function charactersLeft(text, max = DEFAULT_MAX_LENGTH) {
  const left = max - messageLength(text);
  if (left > COUNT_FROM) return { left, text: "", over: false };
  if (left < 0) return { left, text: `${-left} too many`, over: true };
  return { left, text: left === 1 ? "1 character left" : `${left} characters left`, over: false };
}

// What the server refuses, said before sending (ChatText.isRefused).
const REFUSED = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A draft checked as the server would: {ok, text (trimmed), code, message}. */
export function checkDraft(raw, max = DEFAULT_MAX_LENGTH) {
  const text = str(raw).trim();
  if (!text) return { ok: false, text, code: ErrorCode.emptyMessage, message: "Type a message first." };
  if (messageLength(text) > max) return { ok: false, text, code: ErrorCode.tooLong, message: `A message is at most ${max} characters.` };
  if (REFUSED.test(text)) return { ok: false, text, code: ErrorCode.controlCharacters, message: "A message is one line of text, with no control characters." };
  return { ok: true, text, code: null, message: "" };
}

/** "21:07" for an instant on the server's clock (`offset`: server − local ms), in the page's zone. */
export function clockTime(serverMs, offset = 0) {
  const local = new Date(Number(serverMs) - (Number(offset) || 0));
  if (Number.isNaN(local.getTime())) return "";
  // The dial's 24-hour clock, whatever the language: "21:07".
  return local.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/**
 * What the composer shows: {mode, text, slow}. mode is "loading" (the
 * room not known yet), "off" (the host turned chat off), "anonymous"
 * (sign in or join with a name), "guests-off" (a guest where guests may
 * not post), "muted" (text says until when) or "open". `slow` is the
 * slow-mode line, or "".
 */
export function composerModel(chat, { person = null, staff = false, now = 0, offset = 0 } = {}) {
  // The owner and co-DJs aren't held to it, and are told so.
  const slow = chat.slowModeSeconds > 0 ? `Slow mode: one message every ${chat.slowModeSeconds} s${staff ? " for listeners" : ""}` : "";
  if (chat.enabled === null) return { mode: "loading", text: "Tuning in to the chat…", slow: "" };
  if (!chat.enabled) return { mode: "off", text: "The chat is off on this station.", slow: "" };
  if (!person) return { mode: "anonymous", text: "Sign in or join with a name to chat.", slow };
  if (person.kind === "guest" && !chat.guestsMayPost && !staff) {
    return { mode: "guests-off", text: "The host hasn't let guests chat here. Create an account to join in.", slow };
  }
  if (chat.mutedUntil !== null && chat.mutedUntil > now) {
    return { mode: "muted", text: `You're muted until ${clockTime(chat.mutedUntil, offset)}`, slow };
  }
  return { mode: "open", text: "", slow };
}

// -------------------------------------------------------------------- unread

/**
 * Unread messages as a set of ids: a new message counts while the chat
 * isn't being read (hidden, or scrolled away from the newest), unless it
 * is your own; one deleted stops counting; reading clears them all.
 *
 * event: {type: "message", message, reading, self} |
 *        {type: "deleted", messageIDs (every id taken out), all} | {type: "read"}
 */
export function nextUnread(unread, event) {
  if (!event) return unread;
  if (event.type === "read") return unread.size ? new Set() : unread;
  if (event.type === "deleted") {
    if (event.all) return unread.size ? new Set() : unread;
    const ids = new Set(event.messageIDs || []);
    const next = new Set([...unread].filter((id) => !ids.has(id)));
    return next.size === unread.size ? unread : next;
  }
  if (event.type === "message") {
    const m = event.message;
    if (!m || event.reading || unread.has(m.id)) return unread;
    if (event.self && m.person && m.person.id === event.self) return unread;
    return new Set([...unread, m.id]);
  }
  return unread;
}

/** The badge: "" for none, "1"…"99", "99+". */
export function unreadBadge(count) {
  const n = Number(count) || 0;
  if (n <= 0) return "";
  return n > 99 ? "99+" : String(n);
}

// ------------------------------------------------------------- the preference

/** Whether the listener shows the chat (shown unless they hid it). */
export function chatShown(storage) {
  try {
    return !storage || storage.getItem(PREFERENCE_KEY) !== "hidden";
  } catch {
    return true;
  }
}

export function rememberChatShown(storage, shown) {
  try {
    if (!storage) return;
    if (shown) storage.removeItem(PREFERENCE_KEY);
    else storage.setItem(PREFERENCE_KEY, "hidden");
  } catch {
    // Private mode: the choice lasts this page.
  }
}

// ---------------------------------------------------------------- moderation

/** The slow-mode choices (seconds, 0 for off), with the room's own value when it is another. */
export function slowModeChoices(current = 0) {
  const base = [0, 5, 10, 30, 60];
  const value = Number(current) || 0;
  const all = base.includes(value) ? base : [...base, value].sort((a, b) => a - b);
  return all.map((seconds) => ({ seconds, label: seconds ? `${seconds} s` : "Off" }));
}

/** The mutes a moderator may give, in minutes. */
export const MUTE_MINUTES = [15, 30, 60];
