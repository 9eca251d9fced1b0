// Up Next's decisions, apart from the DOM: when the list needs drawing
// again (its signature), where a dragged row would land and how the rows
// around it make room, a row's classes and words, and how a DJ's buttons
// name an entry. Pure functions, unit-tested in e2e/js/queue.test.js;
// queue.js and queue-rows.js draw.

/** What the drawn list depends on: the entries, their starts, "after the live show" marks, and whether the DJ's controls show. */
export function queueSignature(upcoming, notes, owner) {
  return `${upcoming.map((e, i) => `${e.id}@${e.start}${notes[i] && notes[i].afterLive ? "~" : ""}`).join(",")}|${owner}`;
}

/**
 * Where the row at `index` lands when dragged by `dy` pixels, from the rows'
 * rectangles ({top, height}) when the drag began: the count of the other
 * rows whose middle is above the dragged row's middle.
 */
export function dropTarget(rects, index, dy) {
  const mid = rects[index].top + rects[index].height / 2 + dy;
  let target = 0;
  rects.forEach((rect, i) => {
    if (i !== index && mid > rect.top + rect.height / 2) target += 1;
  });
  return target;
}

/** How far (px) the row at `i` moves to make room while the row at `index` (`height` tall) is over `target`. */
export function rowShift(i, index, target, height) {
  if (i === index) return 0;
  if (index < target && i > index && i <= target) return -height;
  if (index > target && i < index && i >= target) return height;
  return 0;
}

/** A row's classes: a DJ's pick, a live show, a voice clip, after the live show. */
export function rowClass(entry, { live = false, voice = false, afterLive = false } = {}) {
  return `upnext-row${entry.source === "dj" ? " is-dj" : ""}${live ? " is-live" : ""}${voice ? " is-voice" : ""}${afterLive ? " is-after-live" : ""}`;
}

/** What a DJ's buttons call the entry: "Title by Artist", or "the voice clip from Name". */
export function entryName(entry, voice) {
  const { track } = entry;
  return voice ? `the voice clip from ${track.artist}` : `${track.title} by ${track.artist}`;
}

/** The row's title and sub-line: a live show's, a voice clip's, else the song's. */
export function rowWords(entry, live, voice) {
  const { track } = entry;
  return {
    title: live ? live.title : voice ? voice.title : track.title,
    sub: live ? live.dj : voice ? voice.sub : track.artist,
    // The robot says why it picked a song once it has learned the room.
    // (A live show's "why" is its title, shown already.)
    why: entry.why && !live && !voice ? entry.why : null,
    badge: entry.source === "dj" ? "DJ pick" : entry.source === "elected" ? "Voted in" : null,
  };
}
