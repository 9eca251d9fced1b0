import {
  codeReadout, codeShare, createSettingsState, inviteSummary, inviteURL, isOwner, memberActions, membersSignature, newCodeText,
  relativeTime, sortInvites, sortMembers, stationChanges,
} from "/js/views/settings/state.js";
import { visibilityLabel } from "/js/views/settings/labels.js";
import { assert, deepEqual, equal, suite } from "./assert.js";

const test = suite("settings state");

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const person = (id, displayName, extra = {}) => ({ id, displayName, handle: id, kind: "user", ...extra });
const member = (id, role, extra = {}) => ({ person: person(id, extra.name || id), role, connected: false, banned: false, ...extra });

test("a fresh state: the station's API address escapes its id", () => {
  const state = createSettingsState({ path: ["station", "a/b c"] }, {});
  equal(state.stationID, "a/b c");
  equal(state.base, "/api/stations/a%2Fb%20c");
  equal(state.live, null);
  equal(isOwner(state), false);
  equal(isOwner({ role: "owner" }), true);
});

test("visibility labels for chips; none for public", () => {
  equal(visibilityLabel("code", { short: true }), "Private");
  equal(visibilityLabel("code"), "Code-protected");
  equal(visibilityLabel("public"), null);
  equal(visibilityLabel("nonsense"), null);
});

test("relative times in seconds, minutes, hours, then days", () => {
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  equal(relativeTime(NOW + 30_000, NOW), rtf.format(30, "second"));
  equal(relativeTime(NOW + 52 * 60_000, NOW), rtf.format(52, "minute"));
  equal(relativeTime(NOW - 3 * 60_000, NOW), rtf.format(-3, "minute"));
  equal(relativeTime(NOW + 47 * 3_600_000, NOW), rtf.format(47, "hour"));
  equal(relativeTime(NOW + 6 * 86_400_000, NOW), rtf.format(6, "day"));
});

test("the readout of a code-protected station: spaced code, digit by digit aloud", () => {
  const shown = codeReadout({ frequency: "98.3", accessCode: "123456", expiresAt: null }, { visibility: "code" }, NOW);
  equal(shown.codeText, "123 456");
  equal(shown.spoken, "1 2 3 4 5 6");
  equal(shown.line, "The code never expires.");
  equal(shown.shareDisabled, false);
  equal(shown.shareLabel, "Share the code");
  equal(shown.offer, true);
  equal(shown.rotateLabel, "Change code");
});

test("the readout: expiry, expired, no code needed, no frequency", () => {
  const code = (extra) => ({ frequency: "98.3", accessCode: "123456", ...extra });
  equal(codeReadout(code({ expiresAt: NOW - 1 }), { visibility: "code" }, NOW).line, "This code has expired: change it to get a new one.");
  assert(codeReadout(code({ expiresAt: NOW + 3_600_000 }), { visibility: "code" }, NOW).line.startsWith("The code expires "), "an expiry");
  const open = codeReadout({ frequency: "98.3", accessCode: null }, { visibility: "public" }, NOW);
  equal(open.line, "No access code needed: the frequency is enough.");
  equal(open.codeText, "—");
  equal(open.spoken, "none");
  equal(open.shareLabel, "Share the frequency");
  equal(open.offer, false, "a public station keeps its frequency");
  equal(codeReadout({ frequency: "98.3", accessCode: null }, { visibility: "code" }, NOW).shareDisabled, true);
  const none = codeReadout(null, null, NOW);
  equal(none.frequency, null);
  equal(none.line, "No frequency right now: change the code to get one.");
  equal(none.shareDisabled, true);
  equal(none.offer, true);
  equal(none.rotateLabel, "Get a frequency");
});

test("sharing the code: the join link, with the access code when there is one", () => {
  deepEqual(codeShare({ frequency: "98.3", accessCode: "123456" }, { name: "Night" }, "https://x.example"), {
    title: "Night", text: "Tune in to Night on Wavelength: frequency 98.3, access code 123456.", url: "https://x.example/#/join/98.3",
  });
  equal(codeShare({ frequency: "98.3" }, null, "o").text, "Tune in to my station on Wavelength: frequency 98.3.");
  equal(newCodeText({ frequency: "98.3", accessCode: "123456" }), "New code: 98.3, access code 123456. The old one no longer works.");
  equal(newCodeText({ frequency: null }), "New code: no frequency. The old one no longer works.");
});

test("a save sends only what changed", () => {
  const station = { name: "Night", visibility: "public", maxListeners: null };
  deepEqual(stationChanges(station, { name: " Night ", visibility: "public", max: "" }), { changes: {} });
  deepEqual(stationChanges(station, { name: "Day", visibility: "code", max: " 25 " }), { changes: { name: "Day", visibility: "code", maxListeners: 25 } });
  deepEqual(stationChanges({ ...station, maxListeners: 5 }, { name: "Night", visibility: undefined, max: "" }), { changes: { maxListeners: null } });
  deepEqual(stationChanges({ name: "Night" }, { name: "Night", visibility: "public", max: "" }), { changes: {} }, "no visibility is public");
});

test("a save refuses an empty name and a bad limit", () => {
  const station = { name: "Night", visibility: "public", maxListeners: null };
  equal(stationChanges(station, { name: "  ", visibility: "public", max: "" }).field, "name");
  for (const bad of ["0", "10001", "2.5", "lots"]) equal(stationChanges(station, { name: "Night", visibility: "public", max: bad }).field, "max", bad);
  equal(stationChanges(station, { name: "Night", visibility: "public", max: "10000" }).changes.maxListeners, 10000);
});

test("people: the banned last, then by role, the connected first, then by name", () => {
  const list = [
    member("z", "listener", { name: "Zed" }),
    member("b", "listener", { banned: true, name: "Banned" }),
    member("a", "listener", { name: "Ann" }),
    member("c", "codj", { name: "Cee" }),
    member("o", "owner", { name: "Owner" }),
    member("l", "listener", { connected: true, name: "Live" }),
  ];
  deepEqual(sortMembers(list).map((m) => m.person.id), ["o", "c", "l", "a", "z", "b"]);
  equal(list[0].person.id, "z", "the list given is left as it was");
  deepEqual(sortMembers(null), []);
  assert(membersSignature(list) !== membersSignature([{ ...list[0], connected: true }, ...list.slice(1)]), "a connection changes the signature");
});

test("people: what the owner and a co-DJ may do", () => {
  const actions = (m, who) => memberActions(m, who).map((a) => a.action);
  const owner = { self: false, owner: true };
  const codj = { self: false, owner: false };
  deepEqual(actions(member("l", "listener"), owner), ["codj", "kick", "ban"]);
  deepEqual(actions(member("c", "codj"), owner), ["uncodj", "kick", "ban"]);
  deepEqual(actions(member("b", "listener", { banned: true }), owner), ["unban"]);
  deepEqual(actions(member("o", "owner"), owner), []);
  deepEqual(actions(member("l", "listener"), { self: true, owner: true }), []);
  deepEqual(actions(member("l", "listener"), codj), ["kick"]);
  deepEqual(actions(member("c", "codj"), codj), []);
  deepEqual(actions(member("b", "listener", { banned: true }), codj), []);
  deepEqual(memberActions(member("l", "listener"), owner).map((a) => a.danger), [false, true, true]);
});

test("invites: live first, newest first; their words", () => {
  const invites = [
    { id: "old", createdAt: 1, revoked: false },
    { id: "dead", createdAt: 9, revoked: true },
    { id: "new", createdAt: 5, revoked: false },
  ];
  deepEqual(sortInvites(invites).map((i) => i.id), ["new", "old", "dead"]);
  deepEqual(sortInvites(undefined), []);
  const revoked = inviteSummary({ revoked: true, uses: 2, expiresAt: null }, NOW);
  equal(revoked.dead, true);
  equal(revoked.meta, "Revoked · 2 joined");
  equal(revoked.made, "Invite");
  const expired = inviteSummary({ expiresAt: NOW - 1 }, NOW);
  equal(expired.dead, true);
  equal(expired.meta, "Expired · 0 joined");
  const forever = inviteSummary({ expiresAt: null, uses: 1 }, NOW);
  equal(forever.dead, false);
  equal(forever.meta, "Never expires · 1 joined");
  assert(inviteSummary({ expiresAt: NOW + 3_600_000 }, NOW).meta.startsWith("Expires "), "a live expiry");
});

test("an invite's link: the server's, else made from the escaped token", () => {
  equal(inviteURL({ url: "/#/i/abc", token: "abc" }, "https://x.example"), "https://x.example/#/i/abc");
  equal(inviteURL({ token: "a b" }, "https://x.example"), "https://x.example/#/i/a%20b");
  equal(inviteURL({ token: "t" }, "not an origin"), "not an origin/#/i/t");
});
