// The library browser's small pieces of DOM: the tab bar and search box,
// an artist list, an album grid, a track row (its details button, the DJ's
// Up Next toggle, a guest's Request or Suggest button), "back", the empty
// library and a failure with "Try again". Every name from the library goes
// in as text. Wording decisions are library-model.js's.

import { h, fill, icon, artwork, formatDuration } from "../ui/dom.js";
import { openTrackDetails } from "./track-details.js";
import { artistCountsText, initialOf, toggleLook } from "./library-model.js";

const TAB_NAMES = { search: "Search", artists: "Artists", albums: "Albums", songs: "Songs" };

/** The browser's frame: {el, tabButtons, searchInput, searchBox, status, crumbs, body}. */
export function buildLibraryView(tabs, tab, onTab) {
  const tabButtons = tabs.map((name) =>
    h("button", { class: "seg", type: "button", "aria-pressed": String(name === tab), dataset: { tab: name }, onclick: () => onTab(name) }, TAB_NAMES[name]),
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
  return { el, tabButtons, searchInput, searchBox, status, crumbs, body };
}

/** A failure, with "Try again". */
export function failureNotice(message, onRetry) {
  return h(
    "div",
    { class: "notice notice-error", role: "alert" },
    message,
    " ",
    h("button", { class: "btn btn-small", type: "button", onclick: onRetry }, "Try again"),
  );
}

export function emptyLibrary() {
  return h(
    "div",
    { class: "empty" },
    h("strong", {}, "The library is empty."),
    " Start the server with ",
    h("code", {}, "--library /path/to/music"),
    " to add your music.",
  );
}

export function backButton(label, onclick) {
  return h("button", { class: "btn btn-ghost btn-back", type: "button", onclick }, icon("back", { size: 20 }), label);
}

/** Every artist, a button each that opens it. */
export function artistList(artists, onOpen) {
  return h(
    "ul",
    { class: "artist-list" },
    artists.map((artist) =>
      h(
        "li",
        {},
        h(
          "button",
          { class: "artist-row", type: "button", onclick: () => onOpen(artist) },
          h("span", { class: "artist-initial", "aria-hidden": "true" }, initialOf(artist.name)),
          h("span", { class: "artist-name" }, artist.name),
          h("span", { class: "artist-counts" }, artistCountsText(artist)),
        ),
      ),
    ),
  );
}

/** Albums as tiles with their art, a button each that opens it. */
export function albumGrid(albums, onOpen) {
  return h(
    "ul",
    { class: "album-grid" },
    albums.map((album) =>
      h(
        "li",
        {},
        h(
          "button",
          { class: "album-tile", type: "button", onclick: () => onOpen(album) },
          artwork(album, { size: "tile" }),
          h("span", { class: "album-title" }, album.title),
          h("span", { class: "album-artist" }, album.artist, album.year ? ` · ${album.year}` : ""),
        ),
      ),
    ),
  );
}

/**
 * A track's row: the whole row but its buttons opens the details (one
 * button, named for screen readers, so the row is one tab stop).
 */
export function trackRowView(track, { numbered = false, add = null } = {}) {
  const open = h(
    "button",
    {
      class: "track-open",
      type: "button",
      "aria-label": `Details: ${track.title} by ${track.artist}`,
      onclick: () => openTrackDetails(track, { add: add ? add() : null }),
    },
    numbered && track.trackNumber ? h("span", { class: "track-no", "aria-hidden": "true" }, String(track.trackNumber)) : artwork(track, { size: "sm" }),
    h("span", { class: "track-text" }, h("span", { class: "track-title" }, track.title), h("span", { class: "track-sub" }, `${track.artist} · ${track.album}`)),
    h("span", { class: "track-dur" }, formatDuration(track.durationMs)),
  );
  return h("li", { class: "track-row", dataset: { trackId: track.id } }, open);
}

/** The DJ's Up Next toggle for `track`, drawn by showToggle. */
export function toggleButton(track) {
  return h("button", {
    class: "btn-toggle",
    type: "button",
    dataset: { trackId: track.id },
    "aria-pressed": "false",
    "aria-label": `Up Next: ${track.title} by ${track.artist}`,
  });
}

/** Shows whether the toggle's track is queued, busy, and (on its row) on the air. */
export function showToggle(button, { queued, busy, onAir }) {
  const look = toggleLook(queued, busy);
  button.setAttribute("aria-pressed", String(look.pressed));
  button.toggleAttribute("aria-busy", busy);
  button.classList.toggle("is-on", queued);
  const row = button.closest(".track-row");
  if (row) row.classList.toggle("is-onair", onAir);
  if (button.dataset.shown !== look.key) {
    button.dataset.shown = look.key;
    fill(button, icon(look.icon, { size: 24 }), h("span", { class: "toggle-text" }, look.text));
  }
}

/** A guest's "Request" / "Suggest" button; says `pick.done` once `pick.onPick` resolved. */
export function pickButton(track, pick, picked) {
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
