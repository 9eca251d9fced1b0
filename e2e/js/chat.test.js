import {
  COUNT_FROM,
  KEEP,
  PREFERENCE_KEY,
  addMessage,
  addPending,
  applyRoom,
  charactersLeft,
  chatRows,
  chatShown,
  checkDraft,
  completeMention,
  composerModel,
  deleteMessages,
  dropPending,
  emptyChat,
  handleSuggestions,
  mentionAt,
  mentionsViewer,
  messageLength,
  nextUnread,
  readMessage,
  rememberChatShown,
  slowModeChoices,
  splitMentions,
  unreadBadge,
} from "/js/views/station/chat-model.js";
import { assert, deepEqual, equal, suite } from "./assert.js";

const test = suite("chat");

// Messages as the server sends them (ChatMessageView).
const msg = (id, over = {}) => ({
  id,
  person: { id: `p-${id}`, name: `Name ${id}` },
  handle: `h${id}`,
  text: `text ${id}`,
  sentAt: 1000,
  mentions: [],
  ...over,
});
const ANA = { id: "pana", name: "Ana" };
const BO = { id: "pbo", name: "Bo" };
const room = (over = {}) => ({
  enabled: true,
  guestsMayPost: true,
  slowModeSeconds: 0,
  messages: [],
  mutedUntil: null,
  palette: ["🔥", "❤️"],
  maxLength: 300,
  ...over,
});
const ids = (chat) => chat.messages.map((m) => m.id);

test("the room replaces the list and sets the rules; off holds nothing", () => {
  let { chat } = applyRoom(emptyChat(), room({ messages: [msg("m1"), msg("m2")], slowModeSeconds: 10, maxLength: 200 }));
  deepEqual(ids(chat), ["m1", "m2"]);
  equal(chat.enabled, true);
  equal(chat.slowModeSeconds, 10);
  equal(chat.maxLength, 200);
  deepEqual(chat.palette, ["🔥", "❤️"]);
  equal(chat.muted, null, "only moderators get the mute list");
  // The next room (a reconnect, a rule changed) is the newest 50: it replaces.
  chat = applyRoom(chat, room({ messages: [msg("m2"), msg("m3")] })).chat;
  deepEqual(ids(chat), ["m2", "m3"]);
  // Off: no messages, whatever the server put there.
  chat = applyRoom(chat, room({ enabled: false, messages: [msg("m9")] })).chat;
  equal(chat.enabled, false);
  deepEqual(ids(chat), []);
  // Nonsense is dropped, the same id kept once.
  chat = applyRoom(emptyChat(), room({ messages: [msg("a"), null, { text: "no id" }, msg("a"), msg("b")] })).chat;
  deepEqual(ids(chat), ["a", "b"]);
});

test("a moderator's room lists the mutes, soonest to end first", () => {
  const { chat } = applyRoom(emptyChat(), room({ muted: [{ person: BO, until: 9000 }, { person: ANA, until: 5000 }, { nonsense: true }] }));
  deepEqual(chat.muted.map((m) => m.person.id), ["pana", "pbo"]);
});

test("your message shows at once and the server's copy with your ref replaces it: one row, never two", () => {
  let chat = applyRoom(emptyChat(), room({ messages: [msg("m1")] })).chat;
  chat = addPending(chat, { id: "c1", text: "hello", person: { id: "pana", displayName: "Ana" }, handle: "ana", sentAt: 2000, connection: 1 });
  deepEqual(chatRows(chat).map((r) => [r.key, r.pending]), [["m1", false], ["c1", true]]);
  // Someone else's message comes in between: it goes before yours, still waiting.
  chat = addMessage(chat, msg("m2"));
  deepEqual(chatRows(chat).map((r) => [r.key, r.pending]), [["m1", false], ["m2", false], ["c1", true]]);
  // The server's copy, with ref: the pending one goes, the message remembers it replaced c1.
  chat = addMessage(chat, msg("m3", { person: ANA, handle: "ana", text: "hello" }), "c1");
  const rows = chatRows(chat);
  deepEqual(rows.map((r) => [r.key, r.pending, r.ref]), [["m1", false, null], ["m2", false, null], ["m3", false, "c1"]]);
  // The same message again (a resend, a room) is not added twice.
  chat = addMessage(chat, msg("m3", { person: ANA, handle: "ana", text: "hello" }));
  deepEqual(ids(chat), ["m1", "m2", "m3"]);
  equal(chat.pending.length, 0);
});

test("a refused message is dropped and returned, so its text can go back in the input", () => {
  let chat = addPending(emptyChat(), { id: "c1", text: "too soon", person: ANA, sentAt: 1, connection: 1 });
  const result = dropPending(chat, "c1");
  equal(result.dropped.text, "too soon");
  equal(result.chat.pending.length, 0);
  const none = dropPending(result.chat, "c1");
  equal(none.dropped, null);
  equal(none.chat, result.chat);
});

test("a room after a reconnect: a message it holds isn't pending any more; one it lost comes back", () => {
  let chat = applyRoom(emptyChat(), room(), { connection: 1 }).chat;
  chat = addPending(chat, { id: "c1", text: "kept", person: ANA, sentAt: 5000, connection: 1 });
  chat = addPending(chat, { id: "c2", text: "lost", person: ANA, sentAt: 5000, connection: 1 });
  // A rule changed on the same connection: both still wait.
  let result = applyRoom(chat, room({ slowModeSeconds: 5 }), { connection: 1 });
  equal(result.chat.pending.length, 2);
  deepEqual(result.lost, []);
  // Reconnected: the room has "kept" (saved before the drop); "lost" never got there.
  result = applyRoom(chat, room({ messages: [msg("m1", { person: ANA, text: "kept", sentAt: 5100 })] }), { connection: 2 });
  deepEqual(result.chat.pending, []);
  deepEqual(result.lost.map((p) => p.text), ["lost"]);
  // Turned off: whatever waited is lost.
  result = applyRoom(chat, room({ enabled: false }), { connection: 1 });
  deepEqual(result.lost.map((p) => p.id), ["c1", "c2"]);
});

test("deletions: ids, everything by a person, everything", () => {
  let chat = applyRoom(emptyChat(), room({ messages: [msg("m1", { person: ANA }), msg("m2", { person: BO }), msg("m3", { person: ANA }), msg("m4", { person: BO })] })).chat;
  deepEqual(ids(deleteMessages(chat, { messageIDs: ["m2"] })), ["m1", "m3", "m4"]);
  // By person: their messages go even when the server's ids miss some (older than the room it kept).
  deepEqual(ids(deleteMessages(chat, { messageIDs: ["m1"], person: "pana" })), ["m2", "m4"]);
  deepEqual(ids(deleteMessages(chat, { messageIDs: [], all: true })), []);
  // Nothing to delete: the same chat back.
  equal(deleteMessages(chat, { messageIDs: ["nope"] }), chat);
});

test("the page keeps the newest messages only", () => {
  let chat = applyRoom(emptyChat(), room()).chat;
  for (let i = 0; i < KEEP + 5; i += 1) chat = addMessage(chat, msg(`m${i}`));
  equal(chat.messages.length, KEEP);
  equal(chat.messages[0].id, "m5");
  equal(chat.messages[KEEP - 1].id, `m${KEEP + 4}`);
});

test("text, names and handles are strings, whatever came", () => {
  const m = readMessage({ id: "m1", person: { id: 5, name: null }, text: 42, mentions: ["Ana", 7], sentAt: "x" });
  equal(m.text, "42");
  equal(m.person.id, "5");
  equal(m.person.name, "Someone");
  equal(m.handle, null);
  equal(m.sentAt, 0);
  deepEqual(m.mentions, ["ana"]);
  equal(readMessage({ text: "no id" }), null);
});

test("mentions: a message names the viewer by their handle, in any case", () => {
  const m = readMessage(msg("m1", { mentions: ["ana", "bo_2"] }));
  assert(mentionsViewer(m, "ana"));
  assert(mentionsViewer(m, "ANA"));
  assert(mentionsViewer(m, "Bo_2"));
  assert(!mentionsViewer(m, "an"));
  assert(!mentionsViewer(m, null), "a guest (no handle) is never mentioned");
  assert(!mentionsViewer(readMessage(msg("m2")), "ana"));
});

test("mentions in the text are found as the server finds them", () => {
  deepEqual(splitMentions("hi @ana and @Bo_2!"), [
    { text: "hi ", handle: null },
    { text: "@ana", handle: "ana" },
    { text: " and ", handle: null },
    { text: "@Bo_2", handle: "bo_2" },
    { text: "!", handle: null },
  ]);
  // An e-mail address isn't a mention; two letters aren't a handle; 25 are too many.
  deepEqual(splitMentions("mail ana@example.org"), [{ text: "mail ana@example.org", handle: null }]);
  deepEqual(splitMentions("@al ok"), [{ text: "@al ok", handle: null }]);
  deepEqual(splitMentions(`@${"a".repeat(25)}`), [{ text: `@${"a".repeat(25)}`, handle: null }]);
  // Markup is just text.
  const hostile = '<img src=x onerror="window.__pwned=1"> @ana';
  equal(splitMentions(hostile).map((p) => p.text).join(""), hostile);
  equal(splitMentions("").length, 0);
});

test("autocomplete: the @-word at the caret", () => {
  deepEqual(mentionAt("hey @an", 7), { start: 4, end: 7, query: "an" });
  deepEqual(mentionAt("@", 1), { start: 0, end: 1, query: "" });
  // The caret inside the word: the query is what is before it, the word ends later.
  deepEqual(mentionAt("hey @ANA there", 6), { start: 4, end: 8, query: "a" });
  equal(mentionAt("hey @ana there", 13), null, "the caret after the word");
  equal(mentionAt("mail ana@ex", 11), null, "an @ inside a word");
  equal(mentionAt("no at here", 5), null);
  equal(mentionAt("hey @ana ", 9), null, "after the space, the word is done");
});

test("autocomplete: authors seen, newest first, never yourself; starts-with before contains", () => {
  const seen = [
    readMessage(msg("1", { handle: "bonnie", person: { id: "p1", name: "Bonnie" } })),
    readMessage(msg("2", { handle: "ana", person: { id: "p2", name: "Ana" } })),
    readMessage(msg("3", { handle: null, person: { id: "p3", name: "Guest Anatole" } })),
    readMessage(msg("4", { handle: "zoe", person: { id: "p4", name: "Zoe Banana" } })),
    readMessage(msg("5", { handle: "Abba", person: { id: "p5", name: "Abba" } })),
    readMessage(msg("6", { handle: "ana", person: { id: "p2", name: "Ana" } })),
    readMessage(msg("7", { handle: "me_myself", person: { id: "p7", name: "Me" } })),
  ];
  deepEqual(handleSuggestions(seen, "a", { self: "me_myself" }).map((p) => p.handle), ["ana", "Abba", "zoe"]);
  deepEqual(handleSuggestions(seen, "", { self: "ME_MYSELF" }).map((p) => p.handle), ["ana", "Abba", "zoe", "bonnie"]);
  deepEqual(handleSuggestions(seen, "bo").map((p) => p.handle), ["bonnie"]);
  deepEqual(handleSuggestions(seen, "ANA").map((p) => p.handle), ["ana", "zoe"], "zoe's name holds it");
  deepEqual(handleSuggestions(seen, "", { limit: 2 }).map((p) => p.handle), ["me_myself", "ana"]);
  deepEqual(handleSuggestions(seen, "q"), []);
  // People here who haven't spoken yet (a guest by their room handle) come after.
  const people = [{ handle: "gus_uest", name: "Gus" }, { handle: "ana", name: "Ana" }];
  deepEqual(handleSuggestions(seen, "", { self: "me_myself", people }).map((p) => p.handle), ["ana", "Abba", "zoe", "bonnie", "gus_uest"]);
  deepEqual(handleSuggestions([], "gu", { people }).map((p) => p.handle), ["gus_uest"]);
  // A guest who spoke is suggested by their room handle.
  const guest = readMessage(msg("8", { handle: null, mention: "gus_uest", person: { id: "p8", name: "Gus" } }));
  deepEqual(handleSuggestions([guest], "g").map((p) => p.handle), ["gus_uest"]);
});

test("autocomplete: the pick replaces the @-word, adds a space and puts the caret after it", () => {
  const text = "hey @an";
  deepEqual(completeMention(text, mentionAt(text, 7), "ana_1"), { text: "hey @ana_1 ", caret: 11 });
  const middle = "hi @a, look";
  deepEqual(completeMention(middle, mentionAt(middle, 5), "ana"), { text: "hi @ana , look", caret: 8 });
  const before = "@bo there";
  deepEqual(completeMention(before, mentionAt(before, 2), "bonnie"), { text: "@bonnie there", caret: 8 });
});

test("the length is what a person sees (and the server counts): trimmed, an emoji is one", () => {
  equal(messageLength("  hello  "), 5);
  equal(messageLength("🔥🔥"), 2);
  equal(messageLength("👩‍👩‍👧"), 1);
  equal(messageLength("é"), 1);
});

test("characters left: quiet until near the limit, then a count; over it, how many too many", () => {
  equal(charactersLeft("x".repeat(300 - COUNT_FROM - 1), 300).text, "");
  equal(charactersLeft("x".repeat(300 - COUNT_FROM), 300).text, `${COUNT_FROM} characters left`);
  equal(charactersLeft("x".repeat(299), 300).text, "1 character left");
  deepEqual(charactersLeft("x".repeat(300), 300), { left: 0, text: "0 characters left", over: false });
  deepEqual(charactersLeft("x".repeat(303), 300), { left: -3, text: "3 too many", over: true });
  equal(charactersLeft("🔥".repeat(290), 300).text, "10 characters left");
});

test("a draft is checked as the server would: empty, too long, control characters", () => {
  deepEqual(checkDraft("  hi there  "), { ok: true, text: "hi there", code: null, message: "" });
  equal(checkDraft("   ").code, "empty_message");
  equal(checkDraft("x".repeat(301)).code, "too_long");
  equal(checkDraft("x".repeat(300)).ok, true);
  equal(checkDraft("two\nlines").code, "control_characters");
  equal(checkDraft("abc\u202Edef").code, "control_characters", "a direction override");
  equal(checkDraft("<script>window.__pwned=2</script>").ok, true, "markup is text, and allowed");
});

test("the composer: loading, off, sign in, guests not allowed, muted until, open with slow mode", () => {
  const user = { id: "pana", kind: "user", handle: "ana" };
  const guest = { id: "g1", kind: "guest", displayName: "Gus" };
  equal(composerModel(emptyChat(), { person: user }).mode, "loading");
  const on = applyRoom(emptyChat(), room()).chat;
  deepEqual(composerModel(on, { person: user }), { mode: "open", text: "", slow: "" });
  equal(composerModel(on, { person: null }).mode, "anonymous");
  equal(composerModel(on, { person: guest }).mode, "open");
  const off = applyRoom(emptyChat(), room({ enabled: false })).chat;
  deepEqual(composerModel(off, { person: user }), { mode: "off", text: "The chat is off on this station.", slow: "" });
  const noGuests = applyRoom(emptyChat(), room({ guestsMayPost: false })).chat;
  equal(composerModel(noGuests, { person: guest }).mode, "guests-off");
  equal(composerModel(noGuests, { person: guest, staff: true }).mode, "open", "a guest co-DJ may post");
  equal(composerModel(noGuests, { person: user }).mode, "open");
  const slow = applyRoom(emptyChat(), room({ slowModeSeconds: 30 })).chat;
  equal(composerModel(slow, { person: user }).slow, "Slow mode: one message every 30 s");
  equal(composerModel(slow, { person: user, staff: true }).slow, "Slow mode: one message every 30 s for listeners");
  // Muted until 21:07 local time (Europe/Oslo in these tests; the clocks agree here).
  const until = new Date(2025, 0, 15, 21, 7, 30).getTime();
  const muted = applyRoom(emptyChat(), room({ mutedUntil: until })).chat;
  const text = composerModel(muted, { person: user, now: until - 60_000, offset: 0 });
  equal(text.mode, "muted");
  equal(text.text, "You're muted until 21:07");
  // The server's clock 1 h ahead of the page's: 22:07 server time is 21:07 here.
  equal(composerModel(applyRoom(emptyChat(), room({ mutedUntil: until + 3_600_000 })).chat, { person: user, now: until, offset: 3_600_000 }).text, "You're muted until 21:07");
  // Once it has ended, the input is back.
  equal(composerModel(muted, { person: user, now: until + 1 }).mode, "open");
});

test("unread: counted while not reading, never your own, deleted ones stop counting, reading clears", () => {
  const self = "pme";
  let unread = new Set();
  unread = nextUnread(unread, { type: "message", message: { id: "m1", person: { id: "pbo" } }, reading: false, self });
  unread = nextUnread(unread, { type: "message", message: { id: "m2", person: { id: "pme" } }, reading: false, self });
  unread = nextUnread(unread, { type: "message", message: { id: "m3", person: { id: "pbo" } }, reading: true, self });
  unread = nextUnread(unread, { type: "message", message: { id: "m4", person: { id: "pana" } }, reading: false, self });
  unread = nextUnread(unread, { type: "message", message: { id: "m4", person: { id: "pana" } }, reading: false, self });
  deepEqual([...unread], ["m1", "m4"]);
  unread = nextUnread(unread, { type: "deleted", messageIDs: ["m4", "m9"] });
  deepEqual([...unread], ["m1"]);
  const same = nextUnread(unread, { type: "deleted", messageIDs: ["m9"] });
  equal(same, unread, "nothing changed: the same set");
  unread = nextUnread(unread, { type: "message", message: { id: "m5", person: { id: "pbo" } }, reading: false, self });
  equal(nextUnread(unread, { type: "deleted", all: true }).size, 0);
  equal(nextUnread(unread, { type: "read" }).size, 0);
});

test("the unread badge: nothing, a number, 99+", () => {
  equal(unreadBadge(0), "");
  equal(unreadBadge(1), "1");
  equal(unreadBadge(99), "99");
  equal(unreadBadge(100), "99+");
});

test("hiding the chat is remembered", () => {
  const store = new Map();
  const storage = { getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
  equal(chatShown(storage), true);
  rememberChatShown(storage, false);
  equal(store.get(PREFERENCE_KEY), "hidden");
  equal(chatShown(storage), false);
  rememberChatShown(storage, true);
  equal(chatShown(storage), true);
  equal(chatShown(null), true);
  const broken = { getItem: () => { throw new Error("private mode"); }, setItem: () => { throw new Error("full"); }, removeItem: () => {} };
  equal(chatShown(broken), true);
  rememberChatShown(broken, false);
});

test("slow mode's choices: off, 5, 10, 30, 60 s, and the room's own when it is another", () => {
  deepEqual(slowModeChoices(0).map((c) => c.seconds), [0, 5, 10, 30, 60]);
  equal(slowModeChoices(0)[0].label, "Off");
  equal(slowModeChoices(0)[3].label, "30 s");
  deepEqual(slowModeChoices(120).map((c) => c.seconds), [0, 5, 10, 30, 60, 120]);
});
