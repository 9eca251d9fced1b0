// The room on the station screen, live: what the station's socket says
// about the chat and the reactions (the session's "room" events) goes into
// chat-model.js's state and the panels (chat.js, room-reactions.js), and
// what you type, press or moderate goes out on the same socket. Your
// message shows at once, marked as sending, and becomes the saved one when
// the server's copy comes back with your id (`ref`): one row, never two. A
// refusal puts your words back in the input, with the server's reason
// beside it.

import { session as me } from "../../api/session.js";
import { randomID } from "../../ui/dom.js";
import { toast } from "../../ui/toast.js";
import { current } from "./actions.js";
import { clearDraft, isReading, renderBadge, renderChatPanel, restoreDraft, showChatError } from "./chat.js";
import { addMessage, addPending, applyRoom, checkDraft, deleteMessages, dropPending, nextUnread } from "./chat-model.js";
import { allowReaction, readReactions } from "./room-reactions-model.js";
import { isDJ } from "./state.js";
import { ErrorCode } from "../../api/error-codes.js";

/** Who is looking, and the clocks: what the chat is drawn for. */
/** "party" or "lobby" while that panel shows its name form (you have no name yet), else null. */
export function joinElsewhere(view) {
  const person = (me && me.person) || null;
  const party = view.state.session && view.state.session.party;
  if (person || !party) return null;
  return party.mode === "requests" ? "party" : party.mode === "lobby" ? "lobby" : null;
}

export function chatContext(view) {
  const person = (me && me.person) || null;
  return {
    person,
    joinElsewhere: joinElsewhere(view),
    staff: isDJ(view.state),
    self: person ? person.id : null,
    // A guest is mentioned by their room handle (`mention`).
    handle: person ? person.handle || person.mention || null : null,
    now: view.clock.now(),
    offset: view.clock.offset || 0,
  };
}

/** Draws the chat as it is now; wakes again when a mute ends. */
export function renderChat(view) {
  const panel = view.chat;
  if (!panel || view.state.destroyed) return;
  const ctx = chatContext(view);
  renderChatPanel(panel, ctx);
  clearTimeout(panel.muteTimer);
  const until = panel.model.mutedUntil;
  if (until !== null && until > ctx.now) {
    // Bounded, so a far-off end is checked again now and then (timers can't wait weeks).
    panel.muteTimer = setTimeout(() => renderChat(view), Math.min(until - ctx.now + 250, 60 * 60_000));
  }
}

function read(view) {
  const panel = view.chat;
  panel.unread = nextUnread(panel.unread, { type: "read" });
  renderBadge(panel);
}

/** The station socket's word on the room (StationSession's "room" events). */
export function roomEvent(view, detail) {
  const panel = view.chat;
  if (!panel || view.state.destroyed || !detail) return;
  switch (detail.type) {
    case "room": {
      const { chat, lost } = applyRoom(panel.model, detail.room, { connection: detail.connection });
      panel.model = chat;
      // History isn't news: what the room holds on (re)connecting isn't counted as unread.
      const held = new Set(chat.messages.map((m) => m.id));
      panel.unread = new Set([...panel.unread].filter((id) => held.has(id)));
      if (lost.length) {
        const text = lost.map((p) => p.text).join(" ");
        restoreDraft(panel, text);
        showChatError(panel, chat.enabled === false ? "The chat was turned off before your message got there." : "The signal dropped before your message got there; it's back in the box.");
      }
      const room = detail.room || {};
      view.roomReactionsState.palette = chat.palette.length ? chat.palette : view.roomReactionsState.palette;
      // The room carries the song's totals when there are any: its word is the latest.
      view.roomReactionsState.reactions = readReactions(room.reactions);
      renderChat(view);
      renderRoomReactions(view);
      break;
    }
    case "chat": {
      const before = panel.model;
      const reading = isReading(panel);
      panel.model = addMessage(before, detail.message, detail.ref);
      const added = panel.model.messages.length > 0 && panel.model.messages !== before.messages ? panel.model.messages[panel.model.messages.length - 1] : null;
      if (added && !detail.ref) {
        panel.unread = nextUnread(panel.unread, { type: "message", message: added, reading, self: chatContext(view).self });
      }
      if (detail.ref) {
        showChatError(panel, "");
        panel.stick = true;
      }
      renderChat(view);
      break;
    }
    case "deleted": {
      const before = new Set(panel.model.messages.map((m) => m.id));
      panel.model = deleteMessages(panel.model, detail);
      const after = new Set(panel.model.messages.map((m) => m.id));
      panel.unread = nextUnread(panel.unread, { type: "deleted", all: detail.all, messageIDs: [...before].filter((id) => !after.has(id)) });
      renderChat(view);
      break;
    }
    case "reactions": {
      const reactions = readReactions(detail.reactions);
      if (!reactions) break;
      view.roomReactionsState.reactions = reactions;
      const entry = current(view);
      renderRoomReactions(view);
      // A burst for a song that has just ended isn't floated over the next one.
      if (!entry || entry.id === reactions.entryID) view.roomReactions.burst(reactions.burst, view.roomReactionsState.palette);
      break;
    }
    case "error":
      roomError(view, detail);
      break;
    default:
      break;
  }
}

function roomError(view, { id, code, message }) {
  const panel = view.chat;
  const text = message || "The chat didn't take that.";
  if (!id || view.roomReactionsState.ids.delete(id)) {
    // A reaction's refusal (an older server sends it without the id).
    if (code === ErrorCode.notCurrent) view.roomReactions.say("That song just ended.");
    // The page keeps its own count; the server's covers every device you're on.
    else if (code === ErrorCode.tooFast) view.roomReactions.say("Easy there: ten reactions every five seconds, on all your devices together.");
    else view.roomReactions.say(text);
    return;
  }
  const { chat, dropped } = dropPending(panel.model, id);
  if (dropped) {
    panel.model = chat;
    restoreDraft(panel, dropped.text);
    showChatError(panel, text);
    renderChat(view);
    return;
  }
  // A moderator's action the server refused.
  toast(text, { kind: "error" });
}

/** Sends what is in the input; true when it went. */
export function sendChat(view, raw) {
  const panel = view.chat;
  const { session } = view.state;
  const check = checkDraft(raw, panel.model.maxLength);
  if (!check.ok) {
    showChatError(panel, check.code === ErrorCode.emptyMessage ? "" : check.message);
    panel.input.focus();
    return false;
  }
  const person = me && me.person;
  if (!person || !session) {
    showChatError(panel, "Sign in or join with a name to chat.");
    return false;
  }
  const id = randomID("c");
  if (!session.sendChat(id, check.text)) {
    // The text stays in the box to send again.
    showChatError(panel, "No signal right now. Your message is still here: send it again when the station is back.");
    return false;
  }
  panel.model = addPending(panel.model, {
    id,
    text: check.text,
    person,
    handle: person.handle || null,
    sentAt: view.clock.now(),
    connection: session.connectionNumber,
  });
  showChatError(panel, "");
  clearDraft(panel);
  panel.stick = true;
  renderChat(view);
  return true;
}

/** A moderator's action (delete, deleteAllBy, clear, mute, unmute, slowMode). */
export function moderateChat(view, action) {
  const { session } = view.state;
  if (!session || !session.moderate(randomID("x"), action)) {
    toast("No signal right now. Try again when the station is back.", { kind: "error" });
  }
}

/** Becomes a guest named `name` and reconnects, so the room knows who writes. */
export async function joinChat(view, name) {
  await me.ensureGuest(name);
  if (view.state.session) view.state.session.reconnect();
  renderChat(view);
  toast(`You're in as ${name}. Say hello.`);
  view.chat.input.focus();
}

/** The listener read to the newest message. */
export function chatRead(view) {
  read(view);
}

/** A reaction to the song playing, within the page's own limit. */
export function reactNow(view, emoji) {
  const { session } = view.state;
  const entry = current(view);
  if (!session || !entry) return;
  const state = view.roomReactionsState;
  const allowed = allowReaction(state.sent, Date.now());
  state.sent = allowed.times;
  if (!allowed.ok) {
    view.roomReactions.say("Easy there: ten reactions every five seconds.");
    return;
  }
  const id = randomID("r");
  if (!session.react(id, entry.id, emoji)) {
    view.roomReactions.say("No signal right now.");
    return;
  }
  state.ids.add(id);
  // A refusal comes back at once or never: a short memory is enough.
  if (state.ids.size > 50) state.ids.delete(state.ids.values().next().value);
}

/** The reactions row for the entry playing (the screen's frame calls this). */
export function renderRoomReactions(view) {
  if (!view.roomReactions || !view.state.session) return;
  const entry = current(view);
  const state = view.roomReactionsState;
  if (state.reactions && entry && state.reactions.entryID !== entry.id) {
    // Totals belong to their song.
    state.reactions = null;
  }
  view.roomReactions.render({
    palette: state.palette,
    reactions: state.reactions,
    entryID: entry ? entry.id : null,
    visible: state.palette.length > 0,
  });
}

export function destroyChat(view) {
  if (view.chat) clearTimeout(view.chat.muteTimer);
  if (view.chat && view.chat.stopBlocks) view.chat.stopBlocks();
  if (view.roomReactions) view.roomReactions.destroy();
  if (view.chatUnsubscribe) view.chatUnsubscribe();
}
