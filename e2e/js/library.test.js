// The library browser's pure module (views/library-model.js): which page a
// tab and a drill-down show, where back goes from an album, the status
// line's counts and the Up Next toggle's words.

import { deepEqual, equal, suite } from "./assert.js";
import {
  SEARCH_LIMIT, albumBack, artistCountsText, countText, initialOf, pageFor, searchCountText, songsCountText, toggleLook,
} from "/js/views/library-model.js";

const test = suite("library");

test("library: a tab shows its page, a drill-down (an album before an artist) wins over it, search always searches", () => {
  equal(pageFor("search", null), "search");
  equal(pageFor("search", { kind: "album" }), "search");
  equal(pageFor("artists", null), "artists");
  equal(pageFor("albums", null), "albums");
  equal(pageFor("songs", null), "songs");
  equal(pageFor("artists", { kind: "artist", artist: "A" }), "artist");
  equal(pageFor("albums", { kind: "album", artist: "A", album: "B" }), "album");
});

test("library: back from an album goes to the artist it came from, else to all albums", () => {
  const artist = { kind: "artist", artist: "Nina <b>" };
  deepEqual(albumBack(artist), { label: "Nina <b>", drill: artist });
  deepEqual(albumBack(null), { label: "All albums", drill: null });
  deepEqual(albumBack(undefined), { label: "All albums", drill: null });
});

test("library: counts say one and many, a full search page is 25+, more songs to show add +", () => {
  equal(countText(1, "album", "albums"), "1 album");
  equal(countText(0, "album", "albums"), "0 albums");
  equal(searchCountText(0), "");
  equal(searchCountText(1), "1 track");
  equal(searchCountText(7), "7 tracks");
  equal(searchCountText(SEARCH_LIMIT), "25+ tracks");
  equal(songsCountText(100, true), "100+ songs");
  equal(songsCountText(1, false), "1 song");
  equal(artistCountsText({ albumCount: 1, trackCount: 2 }), "1 album · 2 songs");
});

test("library: an artist's initial is a whole character", () => {
  equal(initialOf("Émilie"), "É");
  equal(initialOf("🎷 Sax"), "🎷");
  equal(initialOf(""), "?");
});

test("library: the toggle says Add or Queued, … while busy, and changes content only when that changes", () => {
  deepEqual(toggleLook(false, false), { pressed: false, icon: "plus", text: "Add", key: "Addfalse" });
  deepEqual(toggleLook(true, false), { pressed: true, icon: "check", text: "Queued", key: "Queuedfalse" });
  equal(toggleLook(true, true).text, "…");
  equal(toggleLook(true, true).key === toggleLook(true, false).key, false);
});
