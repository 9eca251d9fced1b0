// Now playing: the album art (with the tuning static and the overlay that
// says why nothing sounds), the title, artist and album, a spoken
// announcement per track, and the progress bar with its times; for a live
// show its LIVE sign, how long it has been live and no progress
// (live-show.js).

import { h, fill, setText, icon, artwork, formatDuration } from "../../ui/dom.js";
import { isLive } from "../../playback/timeline.js";
import { createStatic } from "../static.js";
import { renderPlayButton } from "./controls.js";
import { createLiveShow, renderLiveEntry } from "./live-show.js";
import { entryKey, nowPlayingText, progressOf } from "./state.js";
import { isVoice } from "../clips/clips-model.js";
import { voiceArt } from "../clips/voice-art.js";

export function createNowPlaying() {
  const artSlot = h("div", { class: "art-slot" });
  const staticFx = createStatic();
  const overlay = h("div", { class: "art-overlay" });
  const live = createLiveShow();
  const artStage = h("div", { class: "art-stage" }, artSlot, staticFx.el, live.artSign, overlay);
  const npLabel = h("p", { class: "np-label" }, "Now playing");
  const npTitle = h("h2", { class: "np-title" }, "…");
  const npArtist = h("p", { class: "np-artist" });
  const npAlbum = h("p", { class: "np-album" });
  const announcer = h("p", { class: "visually-hidden", "aria-live": "polite" });
  const meta = h("div", { class: "now-meta" }, npLabel, live.line, npTitle, npArtist, npAlbum, live.status, announcer);
  const progressFill = h("div", { class: "progress-fill" });
  const progress = h(
    "div",
    { class: "progress", role: "progressbar", "aria-label": "Track progress", "aria-valuemin": "0", "aria-valuemax": "0", "aria-valuenow": "0" },
    h("div", { class: "progress-track" }, progressFill),
  );
  const elapsed = h("span", { class: "time-elapsed" }, "0:00");
  const remaining = h("span", { class: "time-remaining" }, "");
  const times = h("div", { class: "times", "aria-hidden": "true" }, elapsed, remaining);
  return { artSlot, staticFx, overlay, artStage, npLabel, npTitle, npArtist, npAlbum, announcer, meta, progress, progressFill, elapsed, remaining, times, live };
}

/**
 * Shows `entry` (null: between songs or nothing on the air) once per entry;
 * the screen's `el` carries its id. Returns whether it changed.
 */
export function renderNow(np, state, el, entry) {
  const id = entryKey(entry);
  if (id === state.shownEntryID) return false;
  state.shownEntryID = id;
  el.dataset.entryId = entry ? entry.id : "";
  const text = nowPlayingText(entry, state.session && state.session.timeline);
  if (!entry) {
    fill(np.artSlot, artwork(null, { size: "lg" }));
  } else {
    const { track } = entry;
    fill(np.artSlot, isVoice(entry) ? voiceArt("lg") : artwork(track, { size: "lg", alt: `Cover of ${track.album || track.title}` }));
    // Restart the bloom animation for the new cover.
    np.artStage.classList.remove("bloom");
    void np.artStage.offsetWidth;
    np.artStage.classList.add("bloom");
  }
  setText(np.npLabel, text.label);
  setText(np.npTitle, text.title);
  setText(np.npArtist, text.artist);
  setText(np.npAlbum, text.album);
  renderLiveEntry(np.live, np, el, entry);
  el.dataset.voice = isVoice(entry) ? "on" : "off";
  if (text.announce) setText(np.announcer, text.announce);
  return true;
}

/** The progress bar and times at `timelineMs` on the timeline. */
export function renderProgress(np, entry, timelineMs) {
  const { progress, progressFill, elapsed, remaining } = np;
  // A live show has no length: no progress (hidden), see live-show.js.
  if (isLive(entry)) return;
  if (!entry) {
    progressFill.style.transform = "scaleX(0)";
    setText(elapsed, "0:00");
    setText(remaining, "");
    return;
  }
  const { span, pos } = progressOf(entry, timelineMs);
  progressFill.style.transform = `scaleX(${span ? pos / span : 0})`;
  setText(elapsed, formatDuration(pos));
  setText(remaining, `-${formatDuration(span - pos)}`);
  const secs = String(Math.floor(pos / 1000));
  if (progress.getAttribute("aria-valuenow") !== secs) {
    progress.setAttribute("aria-valuemax", String(Math.floor(span / 1000)));
    progress.setAttribute("aria-valuenow", secs);
    progress.setAttribute("aria-valuetext", `${formatDuration(pos)} of ${formatDuration(span)}`);
  }
}

/** The art while tuning in: a blank cover, static and "Tuning in…". */
export function showTuning(np) {
  fill(np.artSlot, artwork(null, { size: "lg" }));
  np.staticFx.on();
  np.overlay.className = "art-overlay is-shown is-tuning";
  fill(np.overlay, h("p", { class: "overlay-text tuning-text" }, "Tuning in…"));
}

const OVERLAY_TEXT = {
  paused: "Stopped · still following the station",
  held: "The DJ paused the station · it resumes for everyone together",
  error: "This track won't play here. The next one will try again.",
  onair: "You're on the air · your own show isn't played back here",
};

// Static on the art while these last, with their words.
const TUNING_TEXT = { loading: "Tuning in…", dropped: "Waiting for the live source…" };

/**
 * The player's state on the art: static while tuning, a "Tap to listen"
 * button when the browser blocks sound (`onListen`), or why it is quiet.
 */
export function renderPlayerOverlay(np, player, onListen) {
  const { overlay, staticFx } = np;
  const state = player.state;
  const tuning = state === "loading" || state === "dropped" || (state === "idle" && player.wantPlay);
  if (state === "playing") staticFx.off();
  else if (tuning) staticFx.on();
  fill(overlay);
  overlay.className = "art-overlay";
  if (state === "blocked") {
    overlay.classList.add("is-shown");
    overlay.append(
      h(
        "button",
        { class: "btn btn-primary btn-listen", type: "button", onclick: onListen },
        icon("play", { size: 28 }),
        "Tap to listen",
      ),
    );
    staticFx.off();
  } else if (Object.hasOwn(OVERLAY_TEXT, state)) {
    overlay.classList.add("is-shown", "is-dim");
    overlay.append(h("p", { class: "overlay-text" }, OVERLAY_TEXT[state]));
    staticFx.off();
  } else if (tuning) {
    overlay.classList.add("is-shown", "is-tuning");
    overlay.append(h("p", { class: "overlay-text tuning-text" }, TUNING_TEXT[state] || TUNING_TEXT.loading));
  }
  // A live show's sign on the art steps aside while the overlay has something to say.
  np.artStage.classList.toggle("has-overlay", overlay.classList.contains("is-shown"));
}

/** The player's state on the screen (`el`), the Listen/Stop button and the art. */
export function renderPlayer(view, onListen) {
  const { player } = view;
  view.el.dataset.player = player.state;
  renderPlayButton(view.controls, player.wantPlay && player.state !== "blocked");
  renderPlayerOverlay(view.np, player, onListen);
}
