// Find a song as you type, with one button per result: "Request" at a party,
// "Suggest" in a lobby. Results are built from tags as text.

import { api } from "../../api/api.js";
import { h, fill, artwork } from "../../ui/dom.js";

/**
 * @param {{ id: string, resultsID: string, label: string, verb: string, done: string, onPick: (track) => Promise }} options
 *   `id` names the search field and `resultsID` its list of results; `verb` is the
 *   button's word ("Request"), `done` what it says once picked ("Asked").
 */
export function createSongSearch({ id, resultsID, label, verb, done, onPick }) {
  const input = h("input", {
    id,
    class: "input",
    type: "search",
    placeholder: "Artist, song or album",
    autocomplete: "off",
    "aria-controls": resultsID,
  });
  const results = h("ul", { id: resultsID, class: "party-results", "aria-label": `Songs you can ${verb.toLowerCase()}` });
  const status = h("p", { class: "hint party-search-status", role: "status" });
  const el = h("div", { class: "party-search", hidden: true }, h("label", { for: id, class: "label" }, label), input, status, results);
  let timer = null;
  let inFlight = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(run, 180);
  });

  async function run() {
    const q = input.value.trim();
    if (inFlight) inFlight.abort();
    if (!q) {
      fill(results);
      status.textContent = "";
      results.dataset.query = "";
      return;
    }
    inFlight = new AbortController();
    status.textContent = "Searching…";
    try {
      const answer = await api.search(q, { limit: 8, signal: inFlight.signal });
      const tracks = answer.tracks || [];
      status.textContent = tracks.length ? "" : "No songs match.";
      fill(results, tracks.map(row));
      // Which search these are the results of (tests wait for theirs).
      results.dataset.query = q;
    } catch (error) {
      if (error.name === "AbortError") return;
      status.textContent = "Search failed. Check your connection and try again.";
    }
  }

  function row(track) {
    const button = h(
      "button",
      {
        class: `btn btn-secondary btn-${verb.toLowerCase()}`,
        type: "button",
        dataset: { trackId: track.id },
        "aria-label": `${verb} ${track.title} by ${track.artist}`,
        onclick: async () => {
          button.disabled = true;
          try {
            await onPick(track);
            button.textContent = done;
          } catch {
            button.disabled = false;
          }
        },
      },
      verb,
    );
    return h(
      "li",
      { class: "party-result" },
      artwork(track, { size: "sm" }),
      h("span", { class: "track-text" }, h("span", { class: "track-title" }, track.title), h("span", { class: "track-artist" }, track.artist)),
      button,
    );
  }

  return { el, focus: () => input.focus() };
}
