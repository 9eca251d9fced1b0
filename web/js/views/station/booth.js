// The DJ booth's pieces beside the transport: the progress bar becomes a
// slider that seeks for everyone, an "Add tracks" link, a card that opens
// the station settings, and for the owner the way to go live from
// broadcast software (the stream key on the account screen). They come and
// go with your role, live.

import { h, fill, icon } from "../../ui/dom.js";
import { buildHash, stationHref } from "../../router.js";
import { gearIcon } from "../settings/labels.js";
import { spanOf } from "../../playback/timeline.js";
import { seekFraction } from "./state.js";
import { broadcastPanel } from "../go-live/broadcast.js";

export function createBoothParts(stationID) {
  const addLink = h("a", { class: "btn btn-secondary btn-add", href: stationHref(stationID, "add") }, icon("search", { size: 22 }), "Add tracks");
  const ownerTools = h("div", { class: "owner-tools" });
  // "Go live" from this browser (go-live/broadcast.js): one panel per station, kept across redraws.
  const broadcast = broadcastPanel(stationID);
  return { addLink, ownerTools, broadcast };
}

/** Opens the booth's pieces for `role` (owner or co-DJ). */
export function showBooth(booth, { progress, nowCol }, stationID, role, onOpenSettings) {
  progress.tabIndex = 0;
  progress.setAttribute("role", "slider");
  progress.setAttribute("aria-label", "Track position: click or use the arrow keys to seek for everyone");
  progress.classList.add("is-seekable");
  nowCol.append(booth.addLink, booth.broadcast.el);
  fill(
    booth.ownerTools,
    h(
      "a",
      { class: "card booth-settings-card", href: stationHref(stationID, "settings"), onclick: onOpenSettings },
      gearIcon(26),
      h(
        "span",
        { class: "booth-settings-text" },
        h("span", { class: "booth-settings-title" }, "Station settings"),
        h("span", { class: "booth-settings-sub" }, role === "owner" ? "Who can listen, the access code, invites, co-DJs" : "The access code, invites and who's listening"),
      ),
    ),
    h("a", { class: "btn btn-secondary btn-room", href: stationHref(stationID, "screen") }, "Party screen for the room"),
    // The key is the person's (it also goes live during a show they host
    // elsewhere), so it is made on the account screen.
    role === "owner"
      ? h("a", { class: "btn btn-secondary btn-golive", href: buildHash(["account"], new URLSearchParams({ go: "live" })) }, icon("radio", { size: 20 }), "Go live from BUTT or Mixxx")
      : null,
  );
}

/** Closes them: the progress bar only shows progress again. */
export function hideBooth(booth, { progress }) {
  booth.addLink.remove();
  booth.broadcast.detach();
  progress.removeAttribute("tabindex");
  progress.setAttribute("role", "progressbar");
  progress.setAttribute("aria-label", "Track progress");
  progress.classList.remove("is-seekable");
  fill(booth.ownerTools);
}

/**
 * Seeking by the progress bar (a click, or ←/→ by ten seconds).
 * `seekableEntry()` is the entry on the air while you may seek (else null),
 * `positionNow(entry)` how far into it the station is (ms), `seek(ms)` asks.
 */
export function bindSeeking(progress, { seekableEntry, positionNow, seek }) {
  progress.addEventListener("click", (event) => {
    const entry = seekableEntry();
    if (!entry) return;
    seek(seekFraction(event.clientX, progress.getBoundingClientRect()) * spanOf(entry));
  });
  progress.addEventListener("keydown", (event) => {
    const entry = seekableEntry();
    if (!entry || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    event.preventDefault();
    seek(positionNow(entry) + (event.key === "ArrowRight" ? 10_000 : -10_000));
  });
}
