// The library on its own screen: browse by artist, album and song. A track
// opens its details; signed in, you can add it to your own station's Up
// Next from there (a DJ command over HTTP, with a fresh command id).

import { api } from "../api/api.js";
import { h, randomID } from "../ui/dom.js";
import { session } from "../api/session.js";
import { createLibraryBrowser } from "./library.js";
import { createAnalysisStatus } from "./analysis-status.js";
import { createUploadsPanel } from "./uploads.js";

function addToMyStation(track) {
  const person = session && session.person;
  if (!person || person.kind !== "user" || !person.stationID) return null;
  let added = false;
  return {
    label: "Add to my Up Next",
    isDone: () => added,
    run: async () => {
      await api.command(person.stationID, randomID("c"), { op: "append", trackID: track.id });
      added = true;
    },
  };
}

export function createLibraryView() {
  const browser = createLibraryBrowser({ initialTab: "artists", addFromDetails: addToMyStation });
  const analysis = createAnalysisStatus();
  // Uploading is for accounts: a guest's music would outlive the guest.
  const person = session && session.person;
  const uploads = person && person.kind === "user" ? createUploadsPanel() : null;
  const el = h(
    "section",
    { class: "screen library-screen" },
    h("h1", { class: "screen-title", tabindex: "-1" }, "The library"),
    h("p", { class: "muted" }, "Every track this server can put on the air."),
    analysis.el,
    h("div", { class: "panel" }, browser.el),
    uploads ? uploads.el : null,
  );
  return {
    el,
    title: "Library · Wavelength",
    update: (route) => route.path[0] === "library",
    destroy: () => {
      browser.destroy();
      analysis.destroy();
      if (uploads) uploads.destroy();
    },
  };
}
