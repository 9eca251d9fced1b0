// The station's playlist (its pool: GET/PUT …/pool {trackIDs}), in the
// party settings: "the host's playlist" at a party (requests may be limited
// to it, settings.poolOnly), the lobby's "base playlist", and the robot DJ's
// songs in DJ mode. See it, add a song from search, take one off. An empty
// playlist means the whole library. Owner and co-DJs (the server checks).
// Titles come from tags: they only ever go in as text.

import { api, request } from "../../api/api.js";
import { h, fill, artwork } from "../../ui/dom.js";
import { createSongSearch } from "../station/song-search.js";
import { errorText, say, status } from "./widgets.js";

// The server keeps at most this many; the screen lists this many at once.
const POOL_LIMIT = 500;
const SHOWN = 200;

/** The playlist's words for a mode (pure). */
export function playlistWords(mode) {
  if (mode === "lobby") {
    return {
      heading: "Base playlist",
      onlyLabel: "Suggestions only from the base playlist",
      onlyLine: "The lobby's ballot picks from the base playlist below; off, anyone may suggest any song in the library.",
      empty: "No base playlist yet: the whole library is on the ballot. Add songs to make one.",
    };
  }
  if (mode === "requests") {
    return {
      heading: "The host's playlist",
      onlyLabel: "Requests only from the host's playlist",
      onlyLine: "Guests may ask only for songs on your playlist below; off, any song in the library.",
      empty: "No playlist yet: the whole library can be requested. Add songs to make one.",
    };
  }
  return {
    heading: "The station's playlist",
    onlyLabel: "Requests only from the host's playlist",
    onlyLine: "For when listeners request (the party) or suggest (the lobby).",
    empty: "No playlist yet: the robot DJ plays the whole library. Add songs to make one.",
  };
}

/** "12 songs" */
export function playlistCount(n) {
  return n === 1 ? "1 song" : `${n} songs`;
}

export function createPlaylistPanel(state) {
  const heading = h("h2", { id: "playlist-heading", class: "section-title" }, "The host's playlist");
  const count = h("span", { class: "count-pill playlist-count" });
  const line = h("p", { class: "hint playlist-line" });
  const list = h("ul", { class: "liked-list playlist-list", "aria-labelledby": "playlist-heading" });
  const more = h("p", { class: "hint playlist-more", hidden: true });
  const listStatus = status("playlist-status");
  const search = createSongSearch({ id: "playlist-search", resultsID: "playlist-results", label: "Add a song to the playlist", verb: "Add", done: "Added", onPick: (track) => add(track) });
  search.el.hidden = false;
  const el = h(
    "section",
    { class: "panel playlist-panel", "aria-labelledby": "playlist-heading", dataset: { state: "loading" } },
    h("div", { class: "playlist-head" }, heading, count),
    line,
    listStatus,
    list,
    more,
    search.el,
  );

  let mode = "dj";
  /** The playlist's track ids, in its order; null until loaded. */
  let ids = null;
  /** id → track summary, from search and from the server. */
  const known = new Map();
  let busy = Promise.resolve();

  function setMode(next) {
    mode = next || "dj";
    heading.textContent = playlistWords(mode).heading;
    render();
  }

  async function load() {
    try {
      const pool = await request(`${state.base}/pool`);
      ids = Array.isArray(pool.trackIDs) ? pool.trackIDs : [];
    } catch (error) {
      say(listStatus, errorText(error), "error");
      return;
    }
    render();
    await lookUp(ids.slice(0, SHOWN));
    el.dataset.state = "ready";
    render();
  }

  /** Track summaries for `wanted` ids not known yet, a few at a time. */
  async function lookUp(wanted) {
    const missing = wanted.filter((id) => !known.has(id));
    for (let i = 0; i < missing.length; i += 6) {
      await Promise.all(
        missing.slice(i, i + 6).map((id) =>
          api
            .track(id)
            .then((details) => known.set(id, details.track || details))
            .catch(() => known.set(id, { id, title: "A song no longer in the library", artist: "" })),
        ),
      );
    }
  }

  function render() {
    const words = playlistWords(mode);
    if (ids === null) {
      line.textContent = "Loading the playlist…";
      return;
    }
    count.textContent = ids.length ? playlistCount(ids.length) : "";
    line.textContent = ids.length ? "" : words.empty;
    line.hidden = !line.textContent;
    const shown = ids.slice(0, SHOWN).filter((id) => known.has(id));
    fill(list, shown.map((id) => row(known.get(id))));
    more.hidden = ids.length <= SHOWN;
    more.textContent = ids.length > SHOWN ? `And ${ids.length - SHOWN} more.` : "";
  }

  function row(track) {
    return h(
      "li",
      { class: "liked-row playlist-row", dataset: { trackId: track.id } },
      artwork(track, { size: "sm" }),
      h("span", { class: "track-text" }, h("span", { class: "track-title" }, track.title), h("span", { class: "track-artist" }, track.artist)),
      h(
        "button",
        { class: "btn-text btn-playlist-remove", type: "button", dataset: { trackId: track.id }, "aria-label": `Take ${track.title} off the playlist`, onclick: () => remove(track) },
        "Remove",
      ),
    );
  }

  /** Saves `next` as the playlist; one change at a time. */
  function save(next, done) {
    busy = busy.then(async () => {
      say(listStatus, "Saving…");
      try {
        const answer = await request(`${state.base}/pool`, { method: "PUT", body: { trackIDs: next } });
        ids = Array.isArray(answer.trackIDs) ? answer.trackIDs : next;
        render();
        say(listStatus, done);
      } catch (error) {
        say(listStatus, errorText(error), "error");
        throw error;
      }
    });
    return busy;
  }

  async function add(track) {
    await busy.catch(() => {});
    if (ids === null) ids = [];
    known.set(track.id, track);
    if (ids.includes(track.id)) {
      say(listStatus, `${track.title} is already on the playlist.`);
      return;
    }
    if (ids.length >= POOL_LIMIT) {
      say(listStatus, `A playlist holds at most ${POOL_LIMIT} songs.`, "error");
      throw new Error("full");
    }
    await save([...ids, track.id], `Added ${track.title}.`);
  }

  async function remove(track) {
    await busy.catch(() => {});
    const index = ids.indexOf(track.id);
    if (index < 0) return;
    const next = ids.filter((id) => id !== track.id);
    await save(next, next.length ? `Took ${track.title} off the playlist.` : `Took ${track.title} off. The playlist is empty: the whole library is back.`).catch(() => {});
    // Focus stays in the list: on the row that took its place, or the search.
    const rows = list.querySelectorAll(".btn-playlist-remove");
    const target = rows[Math.min(index, rows.length - 1)];
    if (target) target.focus();
    else search.focus();
  }

  return { el, load, setMode };
}
