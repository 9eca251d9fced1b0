// The lyrics panel on the station screen (the listener's and the DJ's): the
// words of the song playing, the line being sung highlighted
// (aria-current) and kept in view inside the panel, in time with the
// station's synced clock: the position in the file is the one the player
// and the progress bar use (server now, frozen while the DJ holds, − the
// entry's start + its offset), so a seek, a hold, a skip and tuning in
// mid-song need nothing of their own. Unsynced lyrics are plain text.
//
// The screen's frame (every 250 ms) calls renderLyrics, which touches the
// DOM only when the line changes; a timer set for the next line's time
// moves the highlight on time between frames. Nothing shows for a live
// show, a track without lyrics, or when the host switched lyrics off
// (the party's `settings.lyrics`, live); each listener can hide them too
// ("Lyrics", aria-pressed, remembered in localStorage).
//
// Words come from files: they go in as text (ui/dom.js), never as markup.

import { api, request } from "../../api/api.js";
import { h, fill } from "../../ui/dom.js";
import { holdPlace } from "../../ui/hold-place.js";
import { current } from "./actions.js";
import {
  LyricsCache,
  hostAllowsLyrics,
  loadLyricsFor,
  lyricsClock,
  lyricsPanelModel,
  lyricsShown,
  rememberLyricsShown,
} from "./lyrics-model.js";

const enc = encodeURIComponent;

/** One cache for the page: a track's lyrics are asked for once, whichever station plays it. */
const cache = new LyricsCache({
  load: (trackID) =>
    loadLyricsFor(trackID, {
      details: (id) => api.track(id),
      lines: (id) => request(`/api/tracks/${enc(id)}/lyrics.json`),
    }),
  limit: 20,
});

// A listener who scrolled the words themselves is left to read for this long.
const HANDS_OFF_MS = 5000;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function createLyricsPanel() {
  const toggle = h(
    "button",
    { class: "btn-lyrics-toggle", type: "button", "aria-pressed": "true" },
    h("span", { class: "lyrics-switch", "aria-hidden": "true" }),
    "Lyrics",
  );
  const heading = h("h2", { id: "lyrics-heading", class: "section-title lyrics-heading" }, toggle);
  const note = h("p", { class: "lyrics-note", hidden: true }, "Not timed to the song");
  // Focusable, so the words scroll from the keyboard too.
  const list = h("ol", { class: "lyrics-lines", tabindex: "0", "aria-labelledby": "lyrics-heading" });
  const el = h("section", { class: "panel lyrics-panel", "aria-labelledby": "lyrics-heading", hidden: true }, heading, note, list);

  const panel = {
    el,
    toggle,
    note,
    list,
    /** The track whose lines are in the list, or null. */
    trackID: null,
    synced: false,
    /** The highlighted line's index, -1 for none. */
    index: -1,
    shown: lyricsShown(storage()),
    /** The host's switch: true, false, or null until the party is known. */
    allowed: null,
    /** The last party object read, and a count of parties seen (a fetched one older than a pushed one is dropped). */
    party: null,
    partySeen: 0,
    timer: null,
    handsOffUntil: 0,
    /** Set by renderLyrics: draws again (after a load, the toggle, the timer). */
    redraw: () => {},
    destroyed: false,
  };

  toggle.addEventListener("click", () => {
    panel.shown = !panel.shown;
    rememberLyricsShown(storage(), panel.shown);
    panel.redraw();
  });
  const handsOff = () => {
    panel.handsOffUntil = performance.now() + HANDS_OFF_MS;
  };
  for (const type of ["wheel", "touchstart", "pointerdown", "keydown"]) list.addEventListener(type, handsOff, { passive: true });
  return panel;
}

function lineItem(line, index, synced) {
  const text = line.text.trim();
  const attrs = { class: text ? "lyrics-line" : "lyrics-line is-gap", dataset: { index: String(index) } };
  if (synced) attrs.dataset.timeMs = String(line.timeMs);
  // An instrumental gap: a note to see, a word to hear.
  if (!text) {
    return synced
      ? h("li", attrs, h("span", { "aria-hidden": "true" }, "♪"), h("span", { class: "visually-hidden" }, "Instrumental"))
      : h("li", { ...attrs, "aria-hidden": "true" });
  }
  return h("li", attrs, text);
}

/**
 * Shows `model` (lyricsPanelModel's): rebuilds the lines only for another
 * track, and says whether it did.
 */
function show(panel, model) {
  const { el, toggle, note, list } = panel;
  el.hidden = !model.visible;
  if (!model.visible) {
    el.dataset.trackId = "";
    return false;
  }
  const rebuilt = panel.trackID !== model.trackID;
  if (rebuilt) {
    panel.trackID = model.trackID;
    panel.synced = model.synced;
    panel.index = -1;
    fill(list, model.lines.map((line, index) => lineItem(line, index, model.synced)));
    list.scrollTop = 0;
    list.classList.remove("has-current");
    el.dataset.synced = String(model.synced);
    el.dataset.line = "-1";
    el.classList.toggle("is-synced", model.synced);
  }
  el.dataset.trackId = model.trackID;
  toggle.setAttribute("aria-pressed", String(model.shown));
  el.classList.toggle("is-collapsed", !model.shown);
  list.hidden = !model.shown;
  note.hidden = !model.shown || model.synced;
  return rebuilt;
}

/** Moves the highlight to line `index` (-1: none yet) and keeps it in view inside the list. */
function highlight(panel, index, { smooth = true } = {}) {
  const { list, el } = panel;
  if (index === panel.index) return;
  const before = list.children[panel.index];
  if (before) {
    before.classList.remove("is-current");
    before.removeAttribute("aria-current");
  }
  panel.index = index;
  el.dataset.line = String(index);
  // Lines already sung are dimmer than those to come.
  list.classList.toggle("has-current", index >= 0);
  const line = list.children[index];
  if (!line) return;
  line.classList.add("is-current");
  line.setAttribute("aria-current", "true");
  scrollToLine(panel, line, smooth);
}

function scrollToLine(panel, line, smooth) {
  const { list } = panel;
  if (list.hidden || performance.now() < panel.handsOffUntil) return;
  // Inside the list only: the page itself never moves under the reader.
  const top = Math.max(0, line.offsetTop - (list.clientHeight - line.offsetHeight) / 2);
  if (Math.abs(list.scrollTop - top) < 1) return;
  list.scrollTo({ top, behavior: smooth && !reducedMotion() ? "smooth" : "auto" });
}

/**
 * Draws the panel for the station as it is now; called by the screen's
 * frame, and by itself when a line is due, an answer arrives or the
 * listener presses "Lyrics".
 */
export function renderLyrics(view) {
  const panel = view.lyrics;
  const { state } = view;
  if (!panel || panel.destroyed || state.destroyed) return;
  panel.redraw = () => renderLyrics(view);
  clearTimeout(panel.timer);
  panel.timer = null;
  const session = state.session;
  const timeline = session && session.timeline;
  const entry = timeline ? current(view) : null;
  // Until the host's switch is known the panel waits (no flash of words a host switched off).
  const allowed = panel.allowed === true;
  panel.el.dataset.host = panel.allowed === null ? "" : allowed ? "on" : "off";
  let cached = null;
  if (allowed && entry && entry.track && entry.source !== "live" && entry.source !== "voice") {
    const trackID = entry.track.id;
    cached = cache.peek(trackID);
    // Asked for once; a failure again only after a while (never in a loop).
    if (cache.due(cached)) {
      cache.want(trackID).then(() => {
        if (!panel.destroyed && !state.destroyed) renderLyrics(view);
      });
    }
  }
  const model = lyricsPanelModel({ entry, allowed, cached, shown: panel.shown });
  const wasCollapsed = panel.list.hidden;
  // Words coming or going (a new song) move what is below: the chat stays put.
  const resized = panel.el.hidden !== !model.visible ||
    (model.visible && (panel.trackID !== model.trackID || wasCollapsed !== !model.shown));
  let rebuilt = false;
  const draw = () => {
    rebuilt = show(panel, model);
  };
  if (resized) holdPlace(panel.el, draw);
  else draw();
  if (!model.visible || !model.shown || !model.synced) {
    if (model.visible && !model.synced) highlight(panel, -1);
    return;
  }
  const { index, waitMs } = lyricsClock({ synced: true, lines: model.lines }, entry, timeline, view.clock.now());
  // A glide from line to line; a new song or words shown again jump straight there.
  highlight(panel, index, { smooth: !wasCollapsed && !rebuilt });
  // Shown again: the line being sung in view at once.
  if (wasCollapsed && index >= 0) scrollToLine(panel, panel.list.children[index], false);
  // The next line on time, between frames (which still come every 250 ms).
  if (waitMs !== null && waitMs < 250) panel.timer = setTimeout(() => renderLyrics(view), waitMs + 5);
}

/** The session's party changed: the host's switch, live. */
export function lyricsPartyChanged(view) {
  const panel = view.lyrics;
  const party = view.state.session && view.state.session.party;
  if (!panel || !party || party === panel.party) return;
  panel.party = party;
  panel.partySeen += 1;
  panel.allowed = hostAllowsLyrics(party);
  renderLyrics(view);
}

/**
 * A snapshot came. A station whose music the DJ picks sends no party when
 * a listener connects (only when the host changes it), so its switch is
 * asked for (GET …/party); a party pushed meanwhile is the fresher.
 */
export async function lyricsSnapshot(view) {
  const panel = view.lyrics;
  const { state } = view;
  const session = state.session;
  if (!panel || !session) return;
  const mode = session.station && session.station.mode;
  if (mode === "requests" || mode === "lobby") {
    // Their party comes with the connection; a silent one leaves the default.
    if (panel.allowed === null) setTimeout(() => panel.allowed === null && fallback(view), 3000);
    return;
  }
  const seen = panel.partySeen;
  let allowed = true;
  try {
    const party = await request(`/api/stations/${enc(state.stationID)}/party`);
    allowed = hostAllowsLyrics(party);
  } catch {
    // Not known: lyrics are on by default.
    if (panel.allowed !== null) return;
  }
  if (panel.destroyed || state.destroyed || panel.partySeen !== seen) return;
  panel.allowed = allowed;
  renderLyrics(view);
}

function fallback(view) {
  if (view.lyrics.destroyed || view.state.destroyed) return;
  view.lyrics.allowed = true;
  renderLyrics(view);
}

export function destroyLyrics(view) {
  const panel = view.lyrics;
  if (!panel) return;
  panel.destroyed = true;
  clearTimeout(panel.timer);
}

/** For tests and a person's console: what the cache holds. */
export const lyricsCache = cache;
