// The station screen's state, apart from the DOM that shows it: which
// station, the screen's mode (main, add, settings), your role, whether the
// screen is ready or over, the live session, and what is on the air now.
// Plain data and pure functions (no DOM): the render modules read it,
// views/station.js and station/tune-in.js change it.

import { canDJ } from "../../live/station-session.js";
import { entryAt, isLive, upcomingAt, positionIn, spanOf, timelineNow } from "../../playback/timeline.js";
import { liveNowText } from "./live-model.js";
import { isVoice, voiceNowText } from "../clips/clips-model.js";
import { ErrorCode } from "../../api/error-codes.js";

export function createStationState(route) {
  return {
    stationID: route.path[1],
    mode: modeOf(route),
    /** "owner" | "codj" | "listener" | null (not known yet) */
    role: null,
    /** The final notice's reason, once the station is over for us. */
    over: null,
    /** The StationSession, once started (null again if the station never loaded). */
    session: null,
    destroyed: false,
    /** True once the station and your role are known and the screen is built. */
    ready: false,
    /** The entry the now-playing panel shows ("entryID:trackID"), null for none. */
    shownEntryID: undefined,
    flipping: false,
  };
}

const MODES = new Set(["add", "settings", "screen", "history"]);

/** The screen's mode from its route: #/station/ID, …/add, …/settings, …/screen (the party screen), …/history. */
export function modeOf(route) {
  const part = route.path[2];
  return MODES.has(part) ? part : "main";
}

/** A role as the server says it ("none" is a listener here). */
export function normalRole(role) {
  return role === "none" ? "listener" : role || null;
}

/** Whether the booth is open: you may DJ and the station isn't over for you. */
export function isDJ(state) {
  return canDJ(state.role) && !state.over;
}

/** The toast when the booth opens or closes on a role change, or null. */
export function roleChangeText(was, role) {
  if (was && canDJ(role) && !canDJ(was)) return role === "codj" ? "You're a co-DJ now: the booth is open." : "The booth is open.";
  if (was && canDJ(was) && !canDJ(role)) return "You're a listener again: the booth is closed.";
  return null;
}

/** The entry on the air at the clock's `now`, or null. */
export function currentEntry(session, now) {
  return session && session.timeline ? entryAt(session.timeline, timelineNow(session.timeline, now)) : null;
}

/** The entries still to come at the clock's `now`. */
export function upcomingEntries(session, now) {
  return session && session.timeline ? upcomingAt(session.timeline, timelineNow(session.timeline, now)) : [];
}

/** Whether the DJ holds the station. */
export function isHeldNow(session) {
  return Boolean(session && session.timeline && session.timeline.pausedAt != null);
}

/** The queued entry that toggling `trackID` off removes (the last DJ pick of it), or null to queue it. */
export function entryToRemove(upcoming, trackID) {
  const queued = upcoming.filter((e) => e.track.id === trackID);
  if (!queued.length) return null;
  return queued.filter((e) => e.source === "dj").pop() || queued[queued.length - 1];
}

/** Where a seek lands: inside the entry, a second before its end at most. */
export function seekTarget(entry, positionMs) {
  return Math.round(Math.min(spanOf(entry) - 1000, Math.max(0, positionMs)));
}

/** The fraction of the progress bar at `clientX`, 0…1. */
export function seekFraction(clientX, rect) {
  return Math.min(1, Math.max(0, (clientX - rect.left) / Math.max(1, rect.width)));
}

/** The entry's span and how far into it the timeline is at `timelineMs` (clamped). */
export function progressOf(entry, timelineMs) {
  const span = spanOf(entry);
  const pos = Math.min(span, Math.max(0, positionIn(entry, timelineMs)));
  return { span, pos };
}

/** Identifies what the now-playing panel shows, so it re-renders only on a change. */
export function entryKey(entry) {
  return entry ? `${entry.id}:${entry.track.id}` : null;
}

/** The now-playing texts for `entry` (null: between songs, or nothing at all on the air). */
export function nowPlayingText(entry, timeline) {
  if (!entry) {
    const nothing = Boolean(timeline && !timeline.current && !(timeline.upNext || []).length);
    return {
      label: nothing ? "Nothing on the air" : "Between songs",
      title: nothing ? "Silence on this frequency" : "…",
      artist: nothing ? "The library may be empty, or the robot DJ has nothing to play." : "",
      album: "",
      announce: null,
    };
  }
  // A live show: its title and DJ (live-model.js).
  if (isLive(entry)) return liveNowText(entry);
  // A voice clip between songs: whose, and their note (clips-model.js).
  if (isVoice(entry)) return voiceNowText(entry);
  const { track } = entry;
  return {
    label: entry.source === "dj" ? "Now playing · DJ pick" : "Now playing",
    title: track.title,
    artist: track.artist,
    album: [track.album, track.year].filter(Boolean).join(" · "),
    announce: `Now playing ${track.title} by ${track.artist}`,
  };
}

/** The last five played, newest first. */
export function historyItems(timeline) {
  return ((timeline && timeline.history) || []).slice(0, 5);
}

// Connected is "On air" (or "On hold" while the DJ holds the station):
// "Live" is only a live show's, the red LIVE sign (live-show.js).
const CONNECTION_TEXT = { connecting: "Tuning…", live: "On air", reconnecting: "Reconnecting…", outdated: "Update", closed: "Off", removed: "Off", ended: "Off air", denied: "Off" };

/** The connection pill's word for a connection state; `held`: the station is on hold. */
export function connectionText(connection, { held = false } = {}) {
  if (connection === "live" && held) return "On hold";
  return CONNECTION_TEXT[connection] || connection;
}

/** "98.3 Name", or just the name when the station has no frequency. */
export function stationLine(station) {
  return [station.frequency, station.name].filter(Boolean).join(" ");
}

// The end of the station for this page (removed, banned, the session ended,
// not allowed in): what the final notice says. `name` is the station's
// name, or null when it never loaded.
const mid = (name) => name || "this station";
const lead = (name) => name || "This station";
const OVER_TEXT = {
  removed: (name) => [`You were removed from ${mid(name)}`, "The host took you off this station, so the music has stopped here."],
  banned: (name) => [`You were banned from ${mid(name)}`, "The host banned you from this station. You can't tune back in."],
  left: (name) => [`You left ${mid(name)}`, "You left this station from another window or device."],
  another_lobby: (name) => [`You left ${mid(name)}`, "You joined another lobby, and you can be in one at a time. Tune back in whenever you like."],
  ended: (name) => ["The host ended this session", `${lead(name)} is off the air. Thanks for listening.`],
  ended_by_you: () => ["You ended this session", "Everyone was disconnected and the access code was released. Your listeners join again with a new code or an invite."],
  [ErrorCode.signInRequired]: (name) => [`${lead(name)} is private`, "Ask the host for its frequency and access code, or for an invite link."],
  [ErrorCode.notAMember]: (name) => [`${lead(name)} is private`, "Ask the host for its frequency and access code, or for an invite link."],
  banned_access: (name) => ["You can't listen here", `You were banned from ${mid(name)}.`],
  [ErrorCode.stationFull]: (name) => [`${lead(name)} is full`, "It has as many listeners as the host allows. Try again in a little while."],
};

/** Why the station is over: the event's kind, or for a refusal its code. */
export function overReason(kind, code) {
  return kind === "denied" ? code || ErrorCode.notAMember : kind;
}

/** The connection state an ending leaves (never "reconnecting"). */
export function overConnection(kind) {
  return kind === "ended" ? "ended" : kind === "denied" ? "denied" : "removed";
}

/**
 * The final notice's {title, line, hostEnded} for an ending of `kind`
 * whose reason is `over`; `role` is yours, `message` the server's words.
 */
export function overText(kind, over, { role = null, name = null, message = "" } = {}) {
  const hostEnded = over === "ended" && role === "owner";
  const key = hostEnded ? "ended_by_you" : over === ErrorCode.banned && kind === "denied" ? "banned_access" : over;
  const [title, line] = (OVER_TEXT[key] || (() => ["Can't tune in", message || "This station isn't available to you."]))(name || null);
  return { title, line, hostEnded };
}
