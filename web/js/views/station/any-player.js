// "Listen in any player": a public or unlisted station is also a plain
// radio stream (/stream/98.3.mp3, 128 kbps) that VLC, a car's app or a
// smart speaker plays, with .m3u and .pls playlists pointing at it. Folded
// away in a disclosure under the playback details; hidden for stations only
// members may hear (the server refuses them a stream).

import { h, fill } from "../../ui/dom.js";
import { copy } from "../../ui/share.js";

const STREAMED = new Set(["public", "unlisted"]);

/**
 * The stream's links for `station` ({mp3, m3u, pls}, absolute on `origin`),
 * or null when it has no stream. By the station's id, never its frequency:
 * a quiet station can give its frequency back, and an address saved in a
 * player must keep working.
 */
export function streamLinks(station, origin) {
  if (!station || !STREAMED.has(station.visibility || "public")) return null;
  const key = encodeURIComponent(station.id || "");
  if (!key) return null;
  const base = `${origin}/stream/${key}`;
  return { mp3: `${base}.mp3`, m3u: `${base}.m3u`, pls: `${base}.pls` };
}

export function createAnyPlayer() {
  const body = h("div", { class: "any-player-body" });
  const el = h(
    "details",
    { class: "any-player", hidden: true },
    h("summary", { class: "any-player-summary" }, "Listen in any player"),
    body,
  );
  return { el, body, shown: "" };
}

/** Shows the links for `station`, or hides them when it has no stream. */
export function renderAnyPlayer(anyPlayer, station, origin = location.origin) {
  const links = streamLinks(station, origin);
  const signature = links ? links.mp3 : "";
  if (signature === anyPlayer.shown) return;
  anyPlayer.shown = signature;
  anyPlayer.el.hidden = !links;
  if (!links) {
    anyPlayer.el.open = false;
    fill(anyPlayer.body);
    return;
  }
  const address = h("input", {
    id: "any-player-url",
    class: "input input-mono any-player-url",
    type: "url",
    readonly: true,
    value: links.mp3,
    spellcheck: "false",
  });
  fill(
    anyPlayer.body,
    h("p", { class: "any-player-hint" }, "The same station as a plain radio stream, for VLC, a car stereo's app or a smart speaker."),
    h("a", { class: "btn btn-secondary btn-small any-player-m3u", href: links.m3u, type: "audio/x-mpegurl" }, "Open in your player (.m3u)"),
    h("label", { class: "label", for: "any-player-url" }, "Stream address (MP3, 128 kbps)"),
    h(
      "div",
      { class: "input-row any-player-row" },
      address,
      h("button", { class: "btn btn-small", type: "button", onclick: () => copy(links.mp3, { select: address, done: "Stream address copied" }) }, "Copy"),
    ),
    h(
      "p",
      { class: "any-player-more" },
      "Or as a ",
      h("a", { class: "any-player-pls", href: links.pls, type: "audio/x-scpls" }, ".pls playlist"),
      ", or the ",
      h("a", { class: "any-player-mp3", href: links.mp3, type: "audio/mpeg" }, "MP3 stream itself"),
      ".",
    ),
  );
}
