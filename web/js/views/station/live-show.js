// A live show on the station. A source on the air (broadcast software, or
// a browser) takes the station's timeline over with an entry of source
// "live", which the player plays by itself from the source's relay
// (playback/live-relay.js) and leaves for the next song when it ends. Here:
// the LIVE sign and "live for 3 min" over the show's title and DJ in now
// playing, the sign on the art, no progress bar or times (a live show has
// no length), and a polite status while the source has dropped within its
// grace. The words are worked out in live-model.js; the title comes from
// broadcast software, so it only ever goes in as text.

import { h, setText } from "../../ui/dom.js";
import { isLive, liveForText, liveStatusText, liveWords } from "./live-model.js";

export function createLiveShow() {
  const badge = h("span", { class: "onair-lamp live-badge" }, "Live");
  const since = h("span", { class: "live-since" });
  // In now playing, in place of "Now playing".
  const line = h("p", { class: "np-live", hidden: true }, badge, " ", since);
  // Said when the source drops and when it is back (empty otherwise).
  const status = h("p", { class: "live-status", role: "status", "aria-live": "polite" });
  // On the art, under the player's overlay (Tap to listen, Stopped).
  const artName = h("span", { class: "live-art-name" });
  const artSign = h("div", { class: "live-art", "aria-hidden": "true" }, h("span", { class: "onair-lamp live-art-lamp" }, "Live"), artName);
  return { line, badge, since, status, artSign, artName };
}

/**
 * The entry on the air changed: the live parts shown for a live one, and
 * now playing's label, progress and times hidden (`np`, now-playing.js);
 * the screen (`el`) says `data-live="on"` meanwhile.
 */
export function renderLiveEntry(live, np, el, entry) {
  const on = isLive(entry);
  live.line.hidden = !on;
  np.npLabel.hidden = on;
  np.progress.hidden = on;
  np.times.hidden = on;
  el.dataset.live = on ? "on" : "off";
  setText(live.artName, on ? liveWords(entry).title : "");
  if (!on) setText(live.since, "");
}

/** Each frame: how long the show has been live (at `timelineMs`), and whether its source dropped. */
export function renderLiveFrame(live, entry, timelineMs, player) {
  if (isLive(entry)) setText(live.since, liveForText(timelineMs - entry.start));
  setText(live.status, liveStatusText(entry, player));
}
