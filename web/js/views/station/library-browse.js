// Browsing the library from the party's and the lobby's panel: artists,
// albums and songs (the library browser), every song with the panel's own
// button ("Request" at a party, "Suggest" in a lobby) and the same feedback
// as the panel's song search. A disclosure, built the first time it opens,
// so the station screen doesn't load the library for everyone.

import { h } from "../../ui/dom.js";
import { createLibraryBrowser } from "../library.js";

/** @param {{ id: string, summary: string, verb: string, done: string, onPick: (track) => Promise }} options */
export function createLibraryBrowse({ id, summary, verb, done, onPick }) {
  const body = h("div", { class: "party-browse-body" });
  const el = h("details", { class: "party-browse", id, hidden: true }, h("summary", { class: "party-browse-summary" }, summary), body);
  let browser = null;
  el.addEventListener("toggle", () => {
    if (!el.open || browser) return;
    browser = createLibraryBrowser({ tabs: ["artists", "albums", "songs"], initialTab: "artists", pick: { verb, done, onPick } });
    body.append(browser.el);
  });
  return {
    el,
    destroy() {
      if (browser) browser.destroy();
    },
  };
}
