// The station's plays, newest first: a search over titles, artists and
// albums (as you type), the list, and "Older plays" paging back with
// `before`. refresh() puts plays that ended since on top, unless a search
// is showing; every answer is checked against the latest question asked,
// so a slow one never overwrites a newer one.

import { request } from "../../api/api.js";
import { h, fill, setText, icon } from "../../ui/dom.js";
import { PAGE, historyURL, mayHaveMore, mergeNewer } from "./model.js";
import { playRow } from "./rows.js";

const TYPING_MS = 300;

export function createPlays(stationID) {
  const state = { q: "", items: [], more: false, asked: 0, typing: null, destroyed: false };
  const input = h("input", {
    id: "history-q",
    class: "input input-search log-q",
    type: "search",
    placeholder: "A title, an artist or an album",
    autocomplete: "off",
    spellcheck: "false",
    enterkeyhint: "search",
  });
  const status = h("p", { class: "log-status", role: "status", "aria-live": "polite" });
  const list = h("ol", { class: "log-list", "aria-label": "Plays, newest first" });
  const empty = h("div", { class: "log-empty", hidden: true });
  const older = h("button", { class: "btn btn-secondary log-older", type: "button", hidden: true, onclick: () => loadOlder() }, "Older plays");
  const el = h(
    "section",
    { class: "panel log-plays", "aria-labelledby": "log-plays-heading" },
    h("h2", { id: "log-plays-heading", class: "section-title" }, "Played here"),
    h(
      "form",
      { class: "log-search", role: "search", onsubmit: (event) => { event.preventDefault(); search(input.value, { now: true }); } },
      h("label", { class: "label", for: "history-q" }, "Search what played"),
      h("div", { class: "search-field" }, icon("search", { size: 20 }), input),
    ),
    status,
    list,
    empty,
    older,
  );
  input.addEventListener("input", () => search(input.value));

  function render({ focusFrom = -1 } = {}) {
    const now = Date.now();
    fill(list, state.items.map((entry) => playRow(entry, now)));
    list.hidden = state.items.length === 0;
    older.hidden = !state.more || state.items.length === 0;
    empty.hidden = state.items.length > 0;
    if (!state.items.length) fill(empty, ...emptyText(state.q));
    el.dataset.count = String(state.items.length);
    if (focusFrom >= 0 && list.children[focusFrom]) {
      const row = list.children[focusFrom];
      row.tabIndex = -1;
      row.focus();
    }
  }

  async function fetchPage(params) {
    return (await request(historyURL(stationID, params))) || [];
  }

  /** The newest plays matching `q` (the latest plays when empty). */
  function search(q, { now = false } = {}) {
    clearTimeout(state.typing);
    const words = (q || "").trim();
    if (!now && words === state.q && state.items.length) return;
    state.typing = setTimeout(() => load(words), now ? 0 : TYPING_MS);
  }

  async function load(words = state.q) {
    const token = ++state.asked;
    el.dataset.state = "loading";
    setText(status, words ? `Searching for “${words}”…` : "Tuning through the logbook…");
    try {
      const page = await fetchPage({ q: words, limit: PAGE });
      if (token !== state.asked || state.destroyed) return;
      state.q = words;
      state.items = page;
      state.more = mayHaveMore(page);
      render();
      setText(status, words ? matchText(page.length, state.more, words) : "");
      el.dataset.state = "ready";
      el.dataset.q = words;
    } catch (error) {
      if (token !== state.asked || state.destroyed) return;
      setText(status, error.message || "Couldn't load the plays.");
      el.dataset.state = "error";
    }
  }

  async function loadOlder() {
    const oldest = state.items[state.items.length - 1];
    if (!oldest) return;
    const token = ++state.asked;
    older.disabled = true;
    try {
      const page = await fetchPage({ q: state.q, before: oldest.start, limit: PAGE });
      if (token !== state.asked || state.destroyed) return;
      const known = new Set(state.items.map((e) => e.id));
      const from = state.items.length;
      state.items = [...state.items, ...page.filter((e) => !known.has(e.id))];
      state.more = mayHaveMore(page);
      render({ focusFrom: state.items.length > from ? from : -1 });
      if (!page.length) setText(status, "That's as far back as this station's history goes.");
    } catch (error) {
      if (token === state.asked) setText(status, error.message || "Couldn't load older plays.");
    } finally {
      older.disabled = false;
    }
  }

  /** Plays that ended since go on top (only while no search is showing). */
  async function refresh() {
    if (state.q || state.destroyed) return;
    const token = state.asked;
    try {
      const page = await fetchPage({ limit: PAGE });
      // A search or a page asked meanwhile wins.
      if (token !== state.asked || state.q || state.destroyed) return;
      const merged = mergeNewer(state.items, page);
      if (merged.length === state.items.length) return;
      if (!state.items.length) state.more = mayHaveMore(page);
      state.items = merged;
      render();
    } catch {
      // The next song's end tries again.
    }
  }

  return {
    el,
    load: () => load(""),
    refresh,
    destroy() {
      state.destroyed = true;
      clearTimeout(state.typing);
    },
  };
}

function matchText(count, more, words) {
  if (!count) return `No plays match “${words}”.`;
  return `${count}${more ? "+" : ""} ${count === 1 ? "play matches" : "plays match"} “${words}”.`;
}

function emptyText(words) {
  if (words) {
    // The status line above says "No plays match …" (and is announced).
    return [h("p", { class: "hint" }, "Try part of a title, an artist's name or an album, or clear the search to see everything.")];
  }
  return [
    h("p", { class: "log-empty-title" }, "Nothing has played here yet."),
    h("p", { class: "hint" }, "Songs land in the logbook as soon as they've finished playing. Tune in, and the station starts."),
  ];
}
