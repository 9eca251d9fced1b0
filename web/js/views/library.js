// The library browser: find-as-you-type search, and browsing by artist,
// album and song, with artwork. In the DJ booth every track has a toggle
// that puts it in Up Next and takes it off again. A track's row opens its
// details (art, facts, lyrics), from where a DJ can add it too.
//
// This file holds the controller: the tab and drill-down, the search box's
// typing, the fetch under way (one at a time), the status line, and the
// pick buttons' state. The pages are library-pages.js, the rows and pieces
// library-rows.js, the booth's Up Next toggles library-queue.js, and the
// decisions library-model.js.

import { fill, setText } from "../ui/dom.js";
import { pageFor } from "./library-model.js";
import { runSearch, showAlbum, showAlbums, showArtist, showArtists, showSongs } from "./library-pages.js";
import { buildLibraryView, failureNotice, pickButton, trackRowView } from "./library-rows.js";
import { libraryQueue } from "./library-queue.js";

const SEARCH_DEBOUNCE_MS = 140;

/**
 * @param {{ tabs?: string[], initialTab?: string, queue?: {
 *   isQueued: (trackID: string) => boolean,
 *   isOnAir: (trackID: string) => boolean,
 *   toggle: (track: object) => Promise<void>,
 * }, addFromDetails?: (track: object) => ({label: string, isDone: () => boolean, run: () => Promise}|null)}} options
 * `addFromDetails` gives the details dialog its add button (the booth's
 * queue gives one by itself).
 * `pick` ({verb, done, onPick: (track) => Promise}) gives every track row a
 * button: "Request" at a party, "Suggest" in a lobby; it says `done` once
 * `onPick` resolved (the same feedback as the panels' song search).
 */
export function createLibraryBrowser({ tabs = ["search", "artists", "albums", "songs"], initialTab = "search", queue = null, addFromDetails = null, pick = null } = {}) {
  let controller = null;
  let debounce = null;
  const view = buildLibraryView(tabs, initialTab, (name) => show(name));
  const booth = libraryQueue({ queue, addFromDetails, root: () => view.el });
  const b = {
    view, queue, pick,
    tab: initialTab,
    drill: null, // {kind:"artist", artist} | {kind:"album", artist, album, from}
    query: "",
    // The tracks picked from here (a row drawn again still says so).
    picked: new Set(),
    render, show, abortPending, loading, done, failed, trackRow,
  };

  function abortPending() {
    if (controller) controller.abort();
    controller = new AbortController();
    return controller.signal;
  }

  function show(name) {
    b.tab = name;
    b.drill = null;
    for (const button of view.tabButtons) button.setAttribute("aria-pressed", String(button.dataset.tab === name));
    render();
  }

  function render() {
    view.searchBox.hidden = b.tab !== "search";
    fill(view.crumbs);
    const page = pageFor(b.tab, b.drill);
    if (page === "search") runSearch(b, view.searchInput.value, { immediate: true });
    else if (page === "album") showAlbum(b, b.drill.artist, b.drill.album);
    else if (page === "artist") showArtist(b, b.drill.artist);
    else if (page === "artists") showArtists(b);
    else if (page === "albums") showAlbums(b);
    else showSongs(b);
  }

  function loading(text = "Loading…") {
    setText(view.status, text);
    view.el.setAttribute("aria-busy", "true");
  }

  function done(text = "") {
    setText(view.status, text);
    view.el.removeAttribute("aria-busy");
  }

  function failed(error) {
    if (error.name === "AbortError") return;
    done("");
    fill(view.body, failureNotice(error.message, () => render()));
  }

  function trackRow(track, { numbered = false } = {}) {
    const row = trackRowView(track, { numbered, add: () => booth.detailsAdd(track) });
    if (queue) row.append(booth.toggleFor(track));
    if (pick) row.append(pickButton(track, pick, b.picked));
    return row;
  }

  view.searchInput.addEventListener("input", () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => runSearch(b, view.searchInput.value), SEARCH_DEBOUNCE_MS);
  });
  view.searchInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      clearTimeout(debounce);
      runSearch(b, view.searchInput.value);
    }
  });
  render();

  return {
    el: view.el,
    /** The timeline changed: refresh every toggle's state. */
    refreshToggles: booth.refreshAll,
    focusSearch() {
      if (b.tab !== "search") show("search");
      view.searchInput.focus();
    },
    destroy() {
      clearTimeout(debounce);
      if (controller) controller.abort();
    },
  };
}
