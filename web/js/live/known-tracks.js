// Compact updates (protocol version 2): an `update` names a track this
// client already holds by id alone, `"track":{"id":"t…"}`, so an update to
// a long Up Next carries the new entry's track and not every track again.
// The client holds the tracks of the last window it accepted; the server
// only names by id what every client holds. Pure, so it can be tested alone.

function entriesOf(timeline) {
  return [timeline.current, ...(timeline.upNext || []), ...(timeline.history || [])].filter(Boolean);
}

/**
 * The tracks of a window by id, in the server's order (current, Up Next,
 * history): where an id appears twice, the later entry's track stands,
 * exactly as the server counts them.
 */
export function knownTracks(timeline) {
  const known = new Map();
  if (!timeline) return known;
  for (const entry of entriesOf(timeline)) {
    if (entry.track && typeof entry.track.id === "string") known.set(entry.track.id, entry.track);
  }
  return known;
}

/**
 * The window with every track named by id filled in from `known`, or null
 * when one is not held (the client then asks for a snapshot).
 */
export function fillTracks(timeline, known) {
  let missing = false;
  const fill = (entry) => {
    if (!entry || !entry.track || entry.track.title !== undefined) return entry;
    const track = known.get(entry.track.id);
    if (!track) {
      missing = true;
      return entry;
    }
    return { ...entry, track };
  };
  const filled = {
    ...timeline,
    current: timeline.current ? fill(timeline.current) : timeline.current,
    upNext: (timeline.upNext || []).map(fill),
    history: (timeline.history || []).map(fill),
  };
  return missing ? null : filled;
}
