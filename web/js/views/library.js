// The library browser: find-as-you-type search, and browsing by artist,
// album and song, with artwork. In the DJ booth every track has a toggle
// that puts it in Up Next and takes it off again. A track's row opens its
// details (art, facts, lyrics), from where a DJ can add it too.

import { api } from "../api/api.js";
import { h, fill, setText, icon, artwork, formatDuration } from "../ui/dom.js";
import { openTrackDetails } from "./track-details.js";

const SEARCH_DEBOUNCE_MS = 140;
const PAGE = 100;

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
  const names = { search: "Search", artists: "Artists", albums: "Albums", songs: "Songs" };
  let tab = initialTab;
  let drill = null; // {kind:"artist", artist} | {kind:"album", artist, album}
  let controller = null;
  let debounce = null;
  let query = "";
  const pending = new Set();
  // The tracks picked from here (a row drawn again still says so).
  const picked = new Set();

  const tabButtons = tabs.map((name) =>
    h(
      "button",
      { class: "seg", type: "button", "aria-pressed": String(name === tab), dataset: { tab: name }, onclick: () => show(name) },
      names[name],
    ),
  );
  const tabBar = h("div", { class: "segmented", role: "group", "aria-label": "Find music by" }, tabButtons);

  const searchInput = h("input", {
    id: `lib-search-${Math.random().toString(36).slice(2, 8)}`,
    class: "input input-search",
    type: "search",
    placeholder: "Title, artist or album",
    autocomplete: "off",
    spellcheck: "false",
    enterkeyhint: "search",
    maxlength: "200",
  });
  const searchLabel = h("label", { for: searchInput.id, class: "label" }, "Find as you type");
  const searchBox = h("div", { class: "lib-search" }, searchLabel, h("div", { class: "search-field" }, icon("search", { size: 20 }), searchInput));
  const status = h("p", { class: "lib-status", role: "status", "aria-live": "polite" });
  const crumbs = h("div", { class: "lib-crumbs" });
  const body = h("div", { class: "lib-body" });

  const el = h("div", { class: "library" }, tabBar, searchBox, crumbs, status, body);

  searchInput.addEventListener("input", () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => runSearch(searchInput.value), SEARCH_DEBOUNCE_MS);
  });
  searchInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      clearTimeout(debounce);
      runSearch(searchInput.value);
    }
  });

  function abortPending() {
    if (controller) controller.abort();
    controller = new AbortController();
    return controller.signal;
  }

  function show(name) {
    tab = name;
    drill = null;
    for (const b of tabButtons) b.setAttribute("aria-pressed", String(b.dataset.tab === name));
    render();
  }

  function render() {
    searchBox.hidden = tab !== "search";
    fill(crumbs);
    if (tab === "search") {
      runSearch(searchInput.value, { immediate: true });
    } else if (drill && drill.kind === "album") {
      renderAlbum(drill.artist, drill.album);
    } else if (drill && drill.kind === "artist") {
      renderArtist(drill.artist);
    } else if (tab === "artists") {
      renderArtists();
    } else if (tab === "albums") {
      renderAlbums();
    } else {
      renderSongs();
    }
  }

  function loading(text = "Loading…") {
    setText(status, text);
    el.setAttribute("aria-busy", "true");
  }

  function done(text = "") {
    setText(status, text);
    el.removeAttribute("aria-busy");
  }

  function failed(error) {
    if (error.name === "AbortError") return;
    done("");
    fill(
      body,
      h(
        "div",
        { class: "notice notice-error", role: "alert" },
        error.message,
        " ",
        h("button", { class: "btn btn-small", type: "button", onclick: () => render() }, "Try again"),
      ),
    );
  }

  function emptyLibrary() {
    return h(
      "div",
      { class: "empty" },
      h("strong", {}, "The library is empty."),
      " Start the server with ",
      h("code", {}, "--library /path/to/music"),
      " to add your music.",
    );
  }

  async function runSearch(text, { immediate = false } = {}) {
    query = text.trim();
    if (!query) {
      abortPending();
      done("");
      fill(body, h("p", { class: "hint" }, queue ? "Type a title, artist or album. Each result has a + that puts it in Up Next; press it again to take it off." : "Type a title, artist or album."));
      return;
    }
    const signal = abortPending();
    if (!immediate) loading("Searching…");
    try {
      const result = await api.search(query, { limit: 25, signal });
      if (signal.aborted || tab !== "search") return;
      const tracks = result.tracks || [];
      done(tracks.length ? `${tracks.length === 25 ? "25+" : tracks.length} ${tracks.length === 1 ? "track" : "tracks"}` : "");
      fill(
        body,
        tracks.length
          ? trackList(tracks)
          : h("p", { class: "empty" }, "Nothing matches “", query, "”."),
      );
    } catch (error) {
      failed(error);
    }
  }

  function backButton(label, onclick) {
    return h("button", { class: "btn btn-ghost btn-back", type: "button", onclick }, icon("back", { size: 20 }), label);
  }

  async function renderArtists() {
    const signal = abortPending();
    loading();
    try {
      const artists = await api.artists({ signal });
      if (signal.aborted) return;
      done(`${artists.length} ${artists.length === 1 ? "artist" : "artists"}`);
      if (!artists.length) return fill(body, emptyLibrary());
      fill(
        body,
        h(
          "ul",
          { class: "artist-list" },
          artists.map((artist) =>
            h(
              "li",
              {},
              h(
                "button",
                {
                  class: "artist-row",
                  type: "button",
                  onclick: () => {
                    drill = { kind: "artist", artist: artist.name };
                    render();
                  },
                },
                h("span", { class: "artist-initial", "aria-hidden": "true" }, Array.from(artist.name)[0] || "?"),
                h("span", { class: "artist-name" }, artist.name),
                h("span", { class: "artist-counts" }, `${artist.albumCount} ${artist.albumCount === 1 ? "album" : "albums"} · ${artist.trackCount} ${artist.trackCount === 1 ? "song" : "songs"}`),
              ),
            ),
          ),
        ),
      );
    } catch (error) {
      failed(error);
    }
  }

  function albumGrid(albums) {
    return h(
      "ul",
      { class: "album-grid" },
      albums.map((album) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              class: "album-tile",
              type: "button",
              onclick: () => {
                drill = { kind: "album", artist: album.artist, album: album.title, from: drill };
                render();
              },
            },
            artwork(album, { size: "tile" }),
            h("span", { class: "album-title" }, album.title),
            h("span", { class: "album-artist" }, album.artist, album.year ? ` · ${album.year}` : ""),
          ),
        ),
      ),
    );
  }

  async function renderAlbums() {
    const signal = abortPending();
    loading();
    try {
      const albums = await api.albums({ signal });
      if (signal.aborted) return;
      done(`${albums.length} ${albums.length === 1 ? "album" : "albums"}`);
      fill(body, albums.length ? albumGrid(albums) : emptyLibrary());
    } catch (error) {
      failed(error);
    }
  }

  async function renderArtist(artist) {
    const signal = abortPending();
    fill(crumbs, backButton("All artists", () => show("artists")), h("h3", { class: "crumb-title" }, artist));
    loading();
    try {
      const albums = await api.albums({ artist, signal });
      if (signal.aborted) return;
      done(`${albums.length} ${albums.length === 1 ? "album" : "albums"}`);
      fill(body, albumGrid(albums));
    } catch (error) {
      failed(error);
    }
  }

  async function renderAlbum(artist, album) {
    const signal = abortPending();
    const from = drill.from;
    fill(
      crumbs,
      backButton(from && from.kind === "artist" ? from.artist : "All albums", () => {
        if (from && from.kind === "artist") {
          drill = from;
          render();
        } else show(tab);
      }),
      h("h3", { class: "crumb-title" }, album, h("span", { class: "crumb-sub" }, ` · ${artist}`)),
    );
    loading();
    try {
      const tracks = await api.tracks({ artist, album, limit: 500, signal });
      if (signal.aborted) return;
      done(`${tracks.length} ${tracks.length === 1 ? "song" : "songs"}`);
      fill(
        body,
        tracks.length
          ? trackList(tracks, { numbered: true })
          : h("p", { class: "empty" }, "No songs found on this album. The library may have changed since it was listed; go back and try again."),
      );
    } catch (error) {
      failed(error);
    }
  }

  async function renderSongs() {
    const signal = abortPending();
    loading();
    const list = h("ul", { class: "track-list" });
    const more = h("button", { class: "btn btn-secondary btn-wide", type: "button" }, "Show more");
    let offset = 0;
    const page = async () => {
      more.disabled = true;
      try {
        const tracks = await api.tracks({ limit: PAGE, offset, signal });
        if (signal.aborted) return;
        offset += tracks.length;
        for (const track of tracks) list.append(trackRow(track));
        more.hidden = tracks.length < PAGE;
        more.disabled = false;
        done(`${offset}${more.hidden ? "" : "+"} ${offset === 1 ? "song" : "songs"}`);
        if (!offset) fill(body, emptyLibrary());
      } catch (error) {
        failed(error);
      }
    };
    more.addEventListener("click", page);
    fill(body, list, more);
    await page();
  }

  function trackList(tracks, { numbered = false } = {}) {
    return h("ul", { class: `track-list${numbered ? " is-numbered" : ""}` }, tracks.map((t) => trackRow(t, { numbered })));
  }

  function detailsAdd(track) {
    if (queue) {
      return {
        label: "Add to Up Next",
        isDone: () => queue.isQueued(track.id),
        run: async () => {
          if (!queue.isQueued(track.id)) await queue.toggle(track);
          refreshAll();
        },
      };
    }
    return addFromDetails ? addFromDetails(track) : null;
  }

  function trackRow(track, { numbered = false } = {}) {
    // The whole row but the toggle opens the details: one button, named
    // for screen readers, so the row is one tab stop.
    const open = h(
      "button",
      {
        class: "track-open",
        type: "button",
        "aria-label": `Details: ${track.title} by ${track.artist}`,
        onclick: () => openTrackDetails(track, { add: detailsAdd(track) }),
      },
      numbered && track.trackNumber ? h("span", { class: "track-no", "aria-hidden": "true" }, String(track.trackNumber)) : artwork(track, { size: "sm" }),
      h(
        "span",
        { class: "track-text" },
        h("span", { class: "track-title" }, track.title),
        h("span", { class: "track-sub" }, `${track.artist} · ${track.album}`),
      ),
      h("span", { class: "track-dur" }, formatDuration(track.durationMs)),
    );
    const row = h("li", { class: "track-row", dataset: { trackId: track.id } }, open);
    if (queue) {
      const button = h("button", {
        class: "btn-toggle",
        type: "button",
        dataset: { trackId: track.id },
        "aria-pressed": "false",
        "aria-label": `Up Next: ${track.title} by ${track.artist}`,
      });
      button.addEventListener("click", async () => {
        if (pending.has(track.id)) return;
        pending.add(track.id);
        updateToggle(button);
        try {
          await queue.toggle(track);
        } catch {
          // The booth reports errors.
        } finally {
          pending.delete(track.id);
          updateToggle(button);
        }
      });
      updateToggle(button);
      row.append(button);
    }
    if (pick) row.append(pickButton(track));
    return row;
  }

  function pickButton(track) {
    const verb = pick.verb;
    const button = h(
      "button",
      {
        class: `btn btn-secondary btn-pick btn-${verb.toLowerCase()}`,
        type: "button",
        dataset: { trackId: track.id },
        "aria-label": `${verb} ${track.title} by ${track.artist}`,
        disabled: picked.has(track.id),
        onclick: async () => {
          button.disabled = true;
          try {
            await pick.onPick(track);
            picked.add(track.id);
            button.textContent = pick.done;
          } catch {
            button.disabled = false;
          }
        },
      },
      picked.has(track.id) ? pick.done : verb,
    );
    return button;
  }

  function updateToggle(button) {
    const id = button.dataset.trackId;
    const queued = queue.isQueued(id);
    const busy = pending.has(id);
    button.setAttribute("aria-pressed", String(queued));
    button.toggleAttribute("aria-busy", busy);
    button.classList.toggle("is-on", queued);
    const row = button.closest(".track-row");
    if (row) row.classList.toggle("is-onair", queue.isOnAir(id));
    const label = queued ? "Queued" : "Add";
    if (button.dataset.shown !== `${label}${busy}`) {
      button.dataset.shown = `${label}${busy}`;
      fill(button, icon(queued ? "check" : "plus", { size: 24 }), h("span", { class: "toggle-text" }, busy ? "…" : label));
    }
  }

  function refreshAll() {
    if (!queue) return;
    for (const button of el.querySelectorAll(".btn-toggle")) updateToggle(button);
  }

  render();

  return {
    el,
    /** The timeline changed: refresh every toggle's state. */
    refreshToggles: refreshAll,
    focusSearch() {
      if (tab !== "search") show("search");
      searchInput.focus();
    },
    destroy() {
      clearTimeout(debounce);
      if (controller) controller.abort();
    },
  };
}
