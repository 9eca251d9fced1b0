// The library browser's pages, each fetched and drawn into its body: the
// search's results, all artists, all albums, one artist's albums, one
// album's songs, and every song a page at a time. Each takes the browser
// `b` (library.js: its view, tab, drill-down, the fetch's abort signal and
// the status line) and draws rows with library-rows.js.

import { api } from "../api/api.js";
import { h, fill } from "../ui/dom.js";
import { SEARCH_LIMIT, SONGS_PAGE, albumBack, countText, searchCountText, songsCountText } from "./library-model.js";
import { albumGrid, artistList, backButton, emptyLibrary } from "./library-rows.js";

function trackList(b, tracks, { numbered = false } = {}) {
  return h("ul", { class: `track-list${numbered ? " is-numbered" : ""}` }, tracks.map((t) => b.trackRow(t, { numbered })));
}

/** Opens an album from a grid, remembering where it was opened from. */
function openAlbum(b, album) {
  b.drill = { kind: "album", artist: album.artist, album: album.title, from: b.drill };
  b.render();
}

/** The search's results for `text` (a hint when it is empty). */
export async function runSearch(b, text, { immediate = false } = {}) {
  b.query = text.trim();
  if (!b.query) {
    b.abortPending();
    b.done("");
    fill(b.view.body, h("p", { class: "hint" }, b.queue ? "Type a title, artist or album. Each result has a + that puts it in Up Next; press it again to take it off." : "Type a title, artist or album."));
    return;
  }
  const signal = b.abortPending();
  if (!immediate) b.loading("Searching…");
  try {
    const result = await api.search(b.query, { limit: SEARCH_LIMIT, signal });
    if (signal.aborted || b.tab !== "search") return;
    const tracks = result.tracks || [];
    b.done(searchCountText(tracks.length));
    fill(b.view.body, tracks.length ? trackList(b, tracks) : h("p", { class: "empty" }, "Nothing matches “", b.query, "”."));
  } catch (error) {
    b.failed(error);
  }
}

export async function showArtists(b) {
  const signal = b.abortPending();
  b.loading();
  try {
    const artists = await api.artists({ signal });
    if (signal.aborted) return;
    b.done(countText(artists.length, "artist", "artists"));
    if (!artists.length) return fill(b.view.body, emptyLibrary());
    fill(
      b.view.body,
      artistList(artists, (artist) => {
        b.drill = { kind: "artist", artist: artist.name };
        b.render();
      }),
    );
  } catch (error) {
    b.failed(error);
  }
}

export async function showAlbums(b) {
  const signal = b.abortPending();
  b.loading();
  try {
    const albums = await api.albums({ signal });
    if (signal.aborted) return;
    b.done(countText(albums.length, "album", "albums"));
    fill(b.view.body, albums.length ? albumGrid(albums, (album) => openAlbum(b, album)) : emptyLibrary());
  } catch (error) {
    b.failed(error);
  }
}

export async function showArtist(b, artist) {
  const signal = b.abortPending();
  fill(b.view.crumbs, backButton("All artists", () => b.show("artists")), h("h3", { class: "crumb-title" }, artist));
  b.loading();
  try {
    const albums = await api.albums({ artist, signal });
    if (signal.aborted) return;
    b.done(countText(albums.length, "album", "albums"));
    fill(b.view.body, albumGrid(albums, (album) => openAlbum(b, album)));
  } catch (error) {
    b.failed(error);
  }
}

export async function showAlbum(b, artist, album) {
  const signal = b.abortPending();
  const back = albumBack(b.drill.from);
  fill(
    b.view.crumbs,
    backButton(back.label, () => {
      if (back.drill) {
        b.drill = back.drill;
        b.render();
      } else b.show(b.tab);
    }),
    h("h3", { class: "crumb-title" }, album, h("span", { class: "crumb-sub" }, ` · ${artist}`)),
  );
  b.loading();
  try {
    const tracks = await api.tracks({ artist, album, limit: 500, signal });
    if (signal.aborted) return;
    b.done(countText(tracks.length, "song", "songs"));
    fill(
      b.view.body,
      tracks.length
        ? trackList(b, tracks, { numbered: true })
        : h("p", { class: "empty" }, "No songs found on this album. The library may have changed since it was listed; go back and try again."),
    );
  } catch (error) {
    b.failed(error);
  }
}

/** Every song, SONGS_PAGE at a time with "Show more". */
export async function showSongs(b) {
  const signal = b.abortPending();
  b.loading();
  const list = h("ul", { class: "track-list" });
  const more = h("button", { class: "btn btn-secondary btn-wide", type: "button" }, "Show more");
  let offset = 0;
  const page = async () => {
    more.disabled = true;
    try {
      const tracks = await api.tracks({ limit: SONGS_PAGE, offset, signal });
      if (signal.aborted) return;
      offset += tracks.length;
      for (const track of tracks) list.append(b.trackRow(track));
      more.hidden = tracks.length < SONGS_PAGE;
      more.disabled = false;
      b.done(songsCountText(offset, !more.hidden));
      if (!offset) fill(b.view.body, emptyLibrary());
    } catch (error) {
      b.failed(error);
    }
  };
  more.addEventListener("click", page);
  fill(b.view.body, list, more);
  await page();
}
