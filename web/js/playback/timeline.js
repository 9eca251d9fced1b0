// Pure helpers over a TimelineWindow. Entries carry absolute start and
// expiration instants on the server clock, so "what plays now" is derived.

/**
 * The instant the timeline is read at: `now`, or while the DJ has paused the
 * station (`pausedAt`), that instant, frozen.
 */
export function timelineNow(timeline, now) {
  return timeline && timeline.pausedAt != null ? Math.min(now, timeline.pausedAt) : now;
}

/** Paused by the DJ at `now`? */
export function isHeld(timeline, now) {
  return Boolean(timeline && timeline.pausedAt != null && now >= timeline.pausedAt);
}

/** The current entry and everything upcoming, in play order. */
export function playOrder(timeline) {
  if (!timeline) return [];
  return [timeline.current, ...(timeline.upNext || [])].filter(Boolean);
}

/** The entry playing at `now` (server ms), or null. */
export function entryAt(timeline, now) {
  for (const entry of playOrder(timeline)) {
    if (entry.start <= now && now < entry.expiration) return entry;
  }
  return null;
}

/** Entries that haven't started by `now`, in order. */
export function upcomingAt(timeline, now) {
  return playOrder(timeline).filter((entry) => entry.start > now);
}

/** The next instant at which what plays changes, or null. */
export function nextBoundary(timeline, now) {
  let best = null;
  for (const entry of playOrder(timeline)) {
    for (const t of [entry.start, entry.expiration]) {
      if (t > now && (best === null || t < best)) best = t;
    }
  }
  return best;
}

/** Where in the file the entry is at `now`, in ms. */
export function positionIn(entry, now) {
  return now - entry.start + (entry.offsetMs || 0);
}

/**
 * A live show: a source on the air (broadcast software, or a browser) takes
 * over the timeline with an entry of source "live", heard from its relay
 * (`track.audioURL`, /live/{station}.mp3) instead of a file. While the
 * source is connected its expiration is far away (a day): it has no length,
 * no progress and no remaining time.
 */
export function isLive(entry) {
  return Boolean(entry && entry.source === "live");
}

/** The track length the progress bar spans: offset + duration of the entry. */
export function spanOf(entry) {
  return Math.max((entry.offsetMs || 0) + entry.durationMs, entry.track ? entry.track.durationMs || 0 : 0);
}
