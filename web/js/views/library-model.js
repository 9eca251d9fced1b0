// The library browser's decisions, apart from the DOM and the API: which
// page a tab and a drill-down show, where "back" goes from an album, the
// counts said in its status line, and what a track's Up Next toggle says.
// Pure functions, unit-tested in e2e/js/library.test.js; library.js (with
// library-pages.js and library-rows.js) draws and fetches.

/** How many search results are asked for (a full page reads "25+"). */
export const SEARCH_LIMIT = 25;
/** How many songs "Songs" lists a page at a time. */
export const SONGS_PAGE = 100;

/** "1 album", "3 albums". */
export function countText(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** The search's count: "" for none, "25+ tracks" for a full page. */
export function searchCountText(count, limit = SEARCH_LIMIT) {
  if (!count) return "";
  return `${count === limit ? `${limit}+` : count} ${count === 1 ? "track" : "tracks"}`;
}

/** The songs listed so far, "+" while there are more to show. */
export function songsCountText(listed, more) {
  return `${listed}${more ? "+" : ""} ${listed === 1 ? "song" : "songs"}`;
}

/** An artist's row: "2 albums · 1 song". */
export function artistCountsText(artist) {
  return `${countText(artist.albumCount, "album", "albums")} · ${countText(artist.trackCount, "song", "songs")}`;
}

/** An artist's initial, as a letter (a whole emoji or accented letter), "?" for none. */
export function initialOf(name) {
  return Array.from(String(name || ""))[0] || "?";
}

/**
 * The page to show for `tab` and `drill` ({kind: "artist", artist} |
 * {kind: "album", artist, album, from} | null): "search", "album",
 * "artist", "artists", "albums" or "songs".
 */
export function pageFor(tab, drill) {
  if (tab === "search") return "search";
  if (drill && drill.kind === "album") return "album";
  if (drill && drill.kind === "artist") return "artist";
  if (tab === "artists" || tab === "albums") return tab;
  return "songs";
}

/** Back from an album: to the artist it was opened from, else to all albums ({label, drill}). */
export function albumBack(from) {
  return from && from.kind === "artist" ? { label: from.artist, drill: from } : { label: "All albums", drill: null };
}

/** A track's Up Next toggle: {pressed, icon, text, key} (`key` changes when the button's content must). */
export function toggleLook(queued, busy) {
  const label = queued ? "Queued" : "Add";
  return { pressed: queued, icon: queued ? "check" : "plus", text: busy ? "…" : label, key: `${label}${busy}` };
}
