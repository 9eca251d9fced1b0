// The station settings' state, apart from the panels that show it: the
// station, your role, its code, the people and the invite links; and the
// pure derivations the panels render (the dial readout, which changes a
// save sends, the order of people and invites, the words for times).
// No DOM: the panels in settings/ read it, views/settings.js loads it.

const enc = encodeURIComponent;

export const CODE_EXPIRY = [
  { value: "", label: "Never expires" },
  { value: "60", label: "1 hour" },
  { value: "1440", label: "1 day" },
  { value: "10080", label: "1 week" },
];

export const INVITE_EXPIRY = [
  { value: "60", label: "1 hour" },
  { value: "1440", label: "1 day" },
  { value: "10080", label: "1 week" },
  { value: "43200", label: "30 days" },
  { value: "", label: "Never expires" },
];

/**
 * @param {{path: string[]}} route  #/station/<id>/settings
 * @param {{session?: object}} context  the station's live session when opened over the station
 */
export function createSettingsState(route, context = {}) {
  const stationID = route.path[1];
  return {
    stationID,
    /** The station's API address. */
    base: `/api/stations/${enc(stationID)}`,
    /** The station's live session, or null: then the settings poll. */
    live: context.session || null,
    destroyed: false,
    station: null,
    /** "owner" | "codj" once loaded. */
    role: null,
    /** {frequency, accessCode, expiresAt} or null. */
    code: null,
    members: [],
    invites: [],
    membersBusy: false,
    /** {id, token, link, expiresAt}: the newest invite's token is only shown once. */
    newestInvite: null,
  };
}

export function isOwner(state) {
  return state.role === "owner";
}

/** "in 52 minutes", "in 6 days", "3 minutes ago". */
export function relativeTime(ms, now = Date.now()) {
  const diff = ms - now;
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const seconds = Math.round(diff / 1000);
  if (Math.abs(seconds) < 60) return rtf.format(seconds, "second");
  const minutes = Math.round(diff / 60_000);
  if (Math.abs(minutes) < 60) return rtf.format(minutes, "minute");
  const hours = Math.round(diff / 3_600_000);
  if (Math.abs(hours) < 48) return rtf.format(hours, "hour");
  return rtf.format(Math.round(diff / 86_400_000), "day");
}

/** The time of day for today, else the day and time. */
export function clockTime(ms) {
  const date = new Date(ms);
  const sameDay = new Date().toDateString() === date.toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleString([], { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/**
 * What the dial readout shows for `code` on `station` (null: not loaded):
 * the numbers, the line under them, and what the code tools offer.
 */
export function codeReadout(code, station, now = Date.now()) {
  const frequency = (code && code.frequency) || null;
  const access = (code && code.accessCode) || null;
  const vis = station ? station.visibility : "public";
  let line;
  if (!frequency) line = "No frequency right now: change the code to get one.";
  else if (!access) line = vis === "public" || vis === "unlisted" ? "No access code needed: the frequency is enough." : "No access code right now.";
  else if (code.expiresAt) {
    line = code.expiresAt <= now ? "This code has expired: change it to get a new one." : `The code expires ${relativeTime(code.expiresAt, now)} (${clockTime(code.expiresAt)}).`;
  } else line = "The code never expires.";
  return {
    frequency,
    access,
    // Read digit by digit, not as two numbers.
    codeText: access ? `${access.slice(0, 3)} ${access.slice(3)}` : "—",
    spoken: access ? access.split("").join(" ") : "none",
    line,
    shareDisabled: !frequency || (vis === "code" && !access),
    shareLabel: vis === "code" ? "Share the code" : "Share the frequency",
    // "Change code" is for code-protected stations; a station without a
    // frequency may ask for one. Public and unlisted ones keep theirs.
    offer: vis === "code" || !frequency,
    rotateLabel: vis === "code" ? "Change code" : "Get a frequency",
    hint:
      vis === "code"
        ? "Changing the code gives a new frequency and access code; the old ones stop working at once. People already listening stay."
        : "A frequency lets people tune in by typing it on the dial.",
  };
}

/** The status line after a new code. */
export function newCodeText(code) {
  return `New code: ${code.frequency || "no frequency"}${code.accessCode ? `, access code ${code.accessCode}` : ""}. The old one no longer works.`;
}

/** What sharing the code sends: the join link, and the access code when there is one. */
export function codeShare(code, station, origin) {
  const name = station ? station.name : "my station";
  const text = code.accessCode
    ? `Tune in to ${name} on Wavelength: frequency ${code.frequency}, access code ${code.accessCode}.`
    : `Tune in to ${name} on Wavelength: frequency ${code.frequency}.`;
  return { title: name, text, url: `${origin}/#/join/${enc(code.frequency)}` };
}

/**
 * The station form's edits against `station`: {changes} (maybe none), or
 * {error, field} ("name" or "max") for one that can't be saved.
 */
export function stationChanges(station, { name: rawName, visibility, max: rawMax }) {
  const changes = {};
  const name = rawName.trim();
  if (!name) return { error: "The station needs a name.", field: "name" };
  if (name !== station.name) changes.name = name;
  if (visibility && visibility !== (station.visibility || "public")) changes.visibility = visibility;
  let max = null;
  if (rawMax.trim()) {
    max = Number(rawMax.trim());
    if (!Number.isInteger(max) || max < 1 || max > 10000) {
      return { error: "Maximum listeners is a whole number from 1 to 10,000, or blank for no limit.", field: "max" };
    }
  }
  if (max !== (station.maxListeners ?? null)) changes.maxListeners = max;
  return { changes };
}

export const ROLE_NAMES = { owner: "Owner", codj: "Co-DJ", listener: "Listener" };
const ROLE_ORDER = { owner: 0, codj: 1, listener: 2 };

/** The people in order: not banned first, then owner, co-DJs, listeners; connected first; by name. */
export function sortMembers(list) {
  const members = Array.isArray(list) ? list.slice() : [];
  return members.sort(
    (a, b) =>
      Number(a.banned) - Number(b.banned) ||
      (ROLE_ORDER[a.role] ?? 3) - (ROLE_ORDER[b.role] ?? 3) ||
      Number(b.connected) - Number(a.connected) ||
      String(a.person.displayName).localeCompare(String(b.person.displayName)),
  );
}

/** Changes when anything the people list shows changes. */
export function membersSignature(members) {
  return JSON.stringify(members.map((m) => [m.person.id, m.person.displayName, m.role, m.connected, m.banned]));
}

/**
 * The buttons on a person's row, as {action, label, danger}: nobody acts
 * on themselves or the owner; a co-DJ may only kick listeners.
 */
export function memberActions(member, { self, owner }) {
  if (self || member.role === "owner") return [];
  if (member.banned) return owner ? [{ action: "unban", label: "Unban", danger: false }] : [];
  const actions = [];
  if (owner && member.role === "listener") actions.push({ action: "codj", label: "Make co-DJ", danger: false });
  if (owner && member.role === "codj") actions.push({ action: "uncodj", label: "Remove co-DJ", danger: false });
  if (owner || member.role === "listener") actions.push({ action: "kick", label: "Kick", danger: true });
  if (owner) actions.push({ action: "ban", label: "Ban", danger: true });
  return actions;
}

/** Live invites first, newest first. */
export function sortInvites(invites) {
  const list = Array.isArray(invites) ? invites.slice() : [];
  return list.sort((a, b) => Number(a.revoked) - Number(b.revoked) || (b.createdAt || 0) - (a.createdAt || 0));
}

/** An invite's row: whether it is dead (revoked or expired) and its words. */
export function inviteSummary(invite, now = Date.now()) {
  const expired = Boolean(invite.expiresAt && invite.expiresAt <= now);
  const state = invite.revoked ? "Revoked" : expired ? "Expired" : invite.expiresAt ? `Expires ${relativeTime(invite.expiresAt, now)}` : "Never expires";
  return {
    dead: Boolean(invite.revoked) || expired,
    meta: `${state} · ${invite.uses || 0} joined`,
    made: invite.createdAt ? `Made ${clockTime(invite.createdAt)}` : "Invite",
  };
}

/** A new invite's full link: the server's `url`, or one made from its token. */
export function inviteURL(created, origin) {
  try {
    return new URL(created.url || `/#/i/${enc(created.token)}`, origin).href;
  } catch {
    return `${origin}/#/i/${enc(created.token)}`;
  }
}
