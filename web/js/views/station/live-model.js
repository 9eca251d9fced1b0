// A live show on the station's timeline, in words (no DOM): the entry a
// source put on the air (source "live": its title is the show's, from the
// broadcast software's ice-name or the scheduled show; its artist is the
// DJ), how long it has been live, what Up Next says of the songs queued
// after it (their start times are a day away while the source is
// connected), and how a past live show reads in history. Every value is
// text, to be set with textContent. Unit-tested in e2e/js.

import { isLive } from "../../playback/timeline.js";
import { formatDuration } from "../../ui/dom.js";

export { isLive };

/** What the station screen says while the live source is gone (within its grace). */
export const DROPPED_TEXT = "The live source dropped — waiting for it to come back";

const MINUTE_MS = 60_000;

/** Control characters out, runs of space as one: broadcast software sends what its user typed. */
export function cleanText(value) {
  if (typeof value !== "string") return "";
  return value.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim();
}

/** "live for 3 min" for a show `ms` into it ("live for 1 h 5 min", "live for less than a minute"). */
export function liveForText(ms) {
  const minutes = Math.floor(Math.max(0, Number(ms) || 0) / MINUTE_MS);
  if (minutes < 1) return "live for less than a minute";
  if (minutes < 60) return `live for ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `live for ${hours} h ${rest} min` : `live for ${hours} h`;
}

/** "Live" (or "LIVE") is the sign's word, never a title: the server's stand-in when the source sent none. */
function named(value) {
  const text = cleanText(value);
  return /^live$/i.test(text) ? "" : text;
}

/**
 * The show's title and DJ: {title, dj, album}. A source that sent no title
 * gets the show's name (the entry's `why`: the scheduled show), else the
 * DJ's name, said once: then `dj` is empty, so nothing reads "Live — Live"
 * or names the DJ twice. "Live show" only when there is neither.
 */
export function liveWords(entry) {
  const track = (entry && entry.track) || {};
  const dj = cleanText(track.artist);
  const title = named(track.title) || named(entry && entry.why);
  return {
    title: title || dj || "Live show",
    dj: title ? dj : "",
    album: named(track.album),
  };
}

/** Now playing's texts for a live entry: {label, title, artist, album, announce}. */
export function liveNowText(entry) {
  const { title, dj, album } = liveWords(entry);
  return {
    label: "Live",
    title,
    artist: dj,
    album,
    announce: `Live now: ${title}${dj ? ` with ${dj}` : ""}.`,
  };
}

/**
 * For each entry still to come (`upcoming`, in play order), whether it is a
 * live show itself and whether it comes after one (the current entry, or an
 * earlier upcoming one): [{live, afterLive}].
 */
export function upNextNotes(current, upcoming) {
  let afterLive = isLive(current);
  return (upcoming || []).map((entry) => {
    const note = { live: isLive(entry), afterLive };
    if (note.live) afterLive = true;
    return note;
  });
}

/**
 * Up Next's "when" for an entry: "21:04 · 3:12", "after the live show ·
 * 3:12" for one queued behind a live show (its start would be a day away),
 * or "Live show" for a live entry itself (it has no length).
 */
export function upNextWhenText(entry, note, localTime) {
  if (note && note.live) return "Live show";
  const length = formatDuration(entry.durationMs);
  if (note && note.afterLive) return `after the live show · ${length}`;
  return `${localTime(entry.start)} · ${length}`;
}

/**
 * How long a live show really ran (ms): up to its expiration (its duration
 * reads a day while the source is connected), or up to `now` while it is
 * still on the air.
 */
export function liveLengthMs(entry, now) {
  const start = Number(entry.start);
  let end = Number.isFinite(entry.expiration) ? entry.expiration : start + (Number(entry.durationMs) || 0);
  if (Number.isFinite(entry.durationMs)) end = Math.min(end, start + entry.durationMs);
  if (Number.isFinite(now) && now < end) end = now;
  return Math.max(0, end - start);
}

/** A past live show's row title: "Live: <title> — <DJ>". */
export function liveHistoryTitle(entry) {
  const { title, dj } = liveWords(entry);
  return dj ? `Live: ${title} — ${dj}` : `Live: ${title}`;
}

/** A past live show's second line: "Live on <station> · 1:02:03" (or "on the air now"). */
export function liveHistorySub(entry, now) {
  const { album } = liveWords(entry);
  const onAir = Number.isFinite(now) && Number.isFinite(entry.expiration) && entry.expiration > now && entry.start <= now;
  const length = onAir ? "on the air now" : formatDuration(liveLengthMs(entry, now));
  return [album, length].filter(Boolean).join(" · ");
}

/** What the station screen says while the live show is this page's own broadcast. */
export const OWN_SHOW_TEXT = "You're on the air: your own show isn't played back here, so there's no echo.";

/** The polite status under a live show: its source dropped (within the grace), your own show, or nothing. */
export function liveStatusText(entry, player) {
  if (!isLive(entry) || !player || !player.wantPlay) return "";
  if (player.state === "dropped") return DROPPED_TEXT;
  if (player.state === "onair") return OWN_SHOW_TEXT;
  return "";
}
