// Voice clips in words (no DOM): the host's clip inbox (the station's clips
// from GET …/clips, a listener's shout-out arriving live as `clipWaiting`,
// approved, deleted), the quota in megabytes, and how a clip's entry on the
// timeline (source "voice") reads in now playing, Up Next and history.
// Names and notes come from people: every value here is text, to be set
// with textContent. Unit-tested in e2e/js/clips.test.js.

import { lengthText } from "./recorder-model.js";

// ---------------------------------------------------------------- clips

/** A ClipView from the server, checked: {id, person: {id, name}, note, durationMs, status, createdAt, audioURL}, or null. */
export function readClip(value) {
  if (!value || typeof value !== "object" || typeof value.id !== "string" || !value.id) return null;
  const person = value.person && typeof value.person === "object" ? value.person : {};
  return {
    id: value.id,
    person: { id: typeof person.id === "string" ? person.id : "", name: typeof person.name === "string" && person.name.trim() ? person.name : "Someone" },
    note: typeof value.note === "string" ? value.note : "",
    durationMs: Number.isFinite(Number(value.durationMs)) ? Number(value.durationMs) : 0,
    status: value.status === "approved" ? "approved" : "pending",
    createdAt: Number.isFinite(Number(value.createdAt)) ? Number(value.createdAt) : 0,
    audioURL: typeof value.audioURL === "string" && value.audioURL.startsWith("/") ? value.audioURL : `/api/clips/${encodeURIComponent(value.id)}/audio`,
  };
}

export function emptyInbox() {
  return { clips: [], usedBytes: null, quotaBytes: null, loaded: false, gone: [] };
}

/**
 * The server's list (GET …/clips: {clips, usedBytes, quotaBytes}) taken in.
 * It is the truth for what it holds; a clip that came live and isn't in it
 * yet (it arrived after the server answered) stays, unless it was deleted
 * here meanwhile.
 */
export function applyClipList(inbox, list) {
  const from = inbox || emptyInbox();
  const listed = ((list && Array.isArray(list.clips) ? list.clips : []).map(readClip).filter(Boolean));
  const ids = new Set(listed.map((c) => c.id));
  const gone = new Set(from.gone);
  const kept = from.clips.filter((c) => !ids.has(c.id) && c.arrivedLive && !gone.has(c.id));
  return {
    ...from,
    clips: [...listed.filter((c) => !gone.has(c.id)), ...kept],
    usedBytes: Number.isFinite(Number(list && list.usedBytes)) ? Number(list.usedBytes) : from.usedBytes,
    quotaBytes: Number.isFinite(Number(list && list.quotaBytes)) ? Number(list.quotaBytes) : from.quotaBytes,
    // Deleted here: kept out even if a list already on its way still has them.
    loaded: true,
  };
}

/** A clip that arrived (the socket's clipWaiting, or your own just sent): added once, or replacing its older copy. */
export function addClip(inbox, value, { live = false } = {}) {
  const clip = readClip(value);
  const from = inbox || emptyInbox();
  if (!clip || from.gone.includes(clip.id)) return from;
  const entry = live ? { ...clip, arrivedLive: true } : clip;
  const at = from.clips.findIndex((c) => c.id === clip.id);
  const clips = at === -1 ? [...from.clips, entry] : from.clips.map((c, i) => (i === at ? { ...c, ...entry } : c));
  return { ...from, clips };
}

/** Approved (it plays next): the same clip, now approved. */
export function approveClip(inbox, value) {
  const clip = readClip(value);
  if (!clip) return inbox;
  return addClip(inbox, { ...clip, status: "approved" });
}

/** Deleted: gone from the lists (and not brought back by a list already on its way). */
export function removeClip(inbox, clipID) {
  const from = inbox || emptyInbox();
  return { ...from, clips: from.clips.filter((c) => c.id !== clipID), gone: [...from.gone, clipID] };
}

/** 4_404_019 → "4.2", 20_971_520 → "20" (MB of 2^20 bytes, one decimal under 10). */
export function megabytes(bytes) {
  const mb = Math.max(0, Number(bytes) || 0) / 1048576;
  if (mb === 0) return "0";
  if (mb < 0.1) return "0.1";
  return mb < 10 ? String(Math.round(mb * 10) / 10) : String(Math.round(mb));
}

/** "4.2 of 20 MB used", or "" before the server has said. */
export function quotaText(usedBytes, quotaBytes) {
  if (!Number.isFinite(usedBytes) || !Number.isFinite(quotaBytes) || quotaBytes <= 0) return "";
  return `${megabytes(usedBytes)} of ${megabytes(quotaBytes)} MB used`;
}

/** A clip as a row says it: {id, name, note, length, label}. */
export function clipRow(clip) {
  const length = lengthText(clip.durationMs);
  return {
    id: clip.id,
    name: clip.person.name,
    note: clip.note,
    length,
    audioURL: clip.audioURL,
    status: clip.status,
    label: `${clip.person.name}'s clip, ${length}${clip.note ? `: ${clip.note}` : ""}`,
  };
}

/**
 * What the inbox shows: the clips waiting (oldest first: first come, first
 * heard), those approved (newest first), the counts and the quota.
 */
export function inboxModel(inbox) {
  const from = inbox || emptyInbox();
  const pending = from.clips.filter((c) => c.status === "pending").sort((a, b) => a.createdAt - b.createdAt);
  const approved = from.clips.filter((c) => c.status === "approved").sort((a, b) => b.createdAt - a.createdAt);
  const quota = quotaText(from.usedBytes, from.quotaBytes);
  return {
    loaded: from.loaded,
    pending: pending.map(clipRow),
    approved: approved.map(clipRow),
    waiting: pending.length,
    quota,
    full: Number.isFinite(from.usedBytes) && Number.isFinite(from.quotaBytes) && from.quotaBytes > 0 && from.usedBytes >= from.quotaBytes,
    empty: pending.length ? "" : from.loaded ? "No shout-outs waiting." : "Looking for shout-outs…",
  };
}

// ------------------------------------------------------- on the timeline

/** A voice clip's entry: source "voice" (track id "clip:<id>"). */
export function isVoice(entry) {
  return Boolean(entry && entry.source === "voice");
}

const DEFAULT_TITLE = "Voice clip";

/**
 * A voice entry's words: {name, note, title: "Voice clip · Name"}. The
 * server puts the note in the track's title ("Voice clip" when there is
 * none) and the author's name in its artist.
 */
export function voiceWords(entry) {
  const track = (entry && entry.track) || {};
  const name = typeof track.artist === "string" ? track.artist.trim() : "";
  const raw = typeof track.title === "string" ? track.title.trim() : "";
  const note = raw && raw !== DEFAULT_TITLE ? raw : "";
  return { name, note, title: name ? `${DEFAULT_TITLE} · ${name}` : DEFAULT_TITLE };
}

/** Now playing's texts for a voice entry: {label, title, artist, album, announce}. */
export function voiceNowText(entry) {
  const { name, note, title } = voiceWords(entry);
  return {
    label: "Voice clip between songs",
    title,
    artist: note,
    album: "",
    announce: `A voice clip${name ? ` from ${name}` : ""}${note ? `: ${note}` : ""}.`,
  };
}

/** Up Next's and history's two lines for a voice entry: {title, sub}. */
export function voiceRowText(entry) {
  const { note, title } = voiceWords(entry);
  return { title, sub: note || "A voice clip between songs" };
}
