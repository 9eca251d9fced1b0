// The booth's "Find tracks" column (#/station/ID/add): a bar with what's on
// the air and a Done link, and the library browser whose toggles add a
// track to Up Next or take it off again. Built when the booth opens, taken
// down when it closes.

import { h, fill, setText, artwork } from "../../ui/dom.js";
import { stationHref } from "../../router.js";
import { createLibraryBrowser } from "../library.js";
import { isVoice, voiceRowText } from "../clips/clips-model.js";
import { voiceArt } from "../clips/voice-art.js";

/**
 * Fills `addCol` and returns {library, nowBar}.
 * @param {{isQueued: (trackID: string) => boolean, isOnAir: (trackID: string) => boolean, toggle: (track: object) => void}} queue
 */
export function buildFindTracks(addCol, stationID, queue) {
  const nowBarArt = h("div", { class: "nowbar-art" });
  const nowBarText = h("span", { class: "nowbar-text" });
  const nowBar = h(
    "div",
    { class: "nowbar" },
    nowBarArt,
    nowBarText,
    h("a", { class: "btn btn-secondary btn-done", href: stationHref(stationID) }, "Done"),
  );
  nowBar.update = (entry) => {
    // A voice clip between songs reads as one (clips-model.js).
    const voice = isVoice(entry) ? voiceRowText(entry) : null;
    fill(nowBarArt, voice ? voiceArt("sm") : artwork(entry && entry.track, { size: "sm" }));
    setText(nowBarText, voice ? voice.title : entry ? `${entry.track.title} — ${entry.track.artist}` : "Nothing on the air");
  };
  const library = createLibraryBrowser({ queue });
  fill(
    addCol,
    h(
      "section",
      { class: "panel add-panel", "aria-labelledby": "add-heading" },
      h("h2", { id: "add-heading", class: "section-title" }, "Find tracks"),
      nowBar,
      library.el,
    ),
  );
  return { library, nowBar };
}

/** Empties the column and stops its library browser. */
export function tearDownFindTracks(addCol, findTracks) {
  findTracks.library.destroy();
  fill(addCol);
}
