// A live show from broadcast software (BUTT, Mixxx, ffmpeg) on the station:
// while GET …/source says a source is on the air, a LIVE sign at the top of
// the now-playing column with the show's name and latest title (the words
// come from the broadcast software, so they are only ever text), and
// "Listen to the live show", which plays the source's relay
// (/live/{station}.mp3) in an <audio> element of its own and pauses the
// station's player meanwhile; "Back to the station" stops it and lets the
// station play again. Pressing the station's own Listen does the same.
//
// The source is asked every POLL_MS while the screen is open (stopped when
// it closes, or when the station is over for this page); a change is said
// in a polite live region. The words are worked out in go-live/model.js.

import { h, fill, setText, icon } from "../../ui/dom.js";
import { liveApi } from "../../api/live.js";
import { liveAnnouncement, liveKey, liveShow, sinceText } from "../go-live/model.js";

export const POLL_MS = 10_000;

// The screens watching a station's source now, for tests
// (`import("/js/views/station/live-show.js").then((m) => m.watching())`).
const watchers = new Set();

/** How many station screens ask for their live source now (0 once they have closed). */
export function watching() {
  return watchers.size;
}

export function createLiveShow() {
  const badge = h("span", { class: "onair-lamp live-badge" }, "Live");
  const since = h("span", { class: "live-since" });
  const name = h("h2", { class: "live-name", id: "live-show-name" });
  const title = h("p", { class: "live-title" });
  const detail = h("p", { class: "live-detail" });
  const status = h("p", { class: "live-status", "aria-live": "polite" });
  const listenButton = h(
    "button",
    { class: "btn btn-primary live-listen", type: "button", "aria-describedby": "live-show-name" },
    icon("play", { size: 22 }),
    "Listen to the live show",
  );
  const backButton = h(
    "button",
    { class: "btn btn-secondary live-back", type: "button", hidden: true },
    icon("back", { size: 22 }),
    "Back to the station",
  );
  // The live show's own player: the station's player (Web Audio or
  // #wl-audio) stays on the station's timeline, paused while this plays.
  const audio = h("audio", { class: "live-audio", preload: "none" });
  const el = h(
    "section",
    { class: "live-show", hidden: true, "aria-labelledby": "live-show-name", dataset: { state: "off" } },
    h("div", { class: "live-head" }, badge, h("span", { class: "live-kicker" }, "From the studio"), since),
    name,
    title,
    detail,
    h("div", { class: "live-actions" }, listenButton, backButton),
    status,
    audio,
  );
  // Said whenever a show starts, changes or ends, shown or not.
  const announcer = h("p", { class: "visually-hidden live-announcer", "aria-live": "polite" });
  // On the art while the live show plays (the station's overlay steps aside).
  const artSign = h(
    "div",
    { class: "live-art", "aria-hidden": "true" },
    h("span", { class: "onair-lamp live-art-lamp" }, "Live"),
    h("span", { class: "live-art-name" }),
  );
  return {
    el, badge, since, name, title, detail, status, listenButton, backButton, audio, announcer, artSign,
    show: null, shown: "", listening: false, resumeStation: false, timer: null, abort: null, stopped: true,
  };
}

function setScreenState(view) {
  const live = view.liveShow;
  const value = live.listening ? "listening" : live.show ? "on" : "off";
  live.el.dataset.state = value;
  view.el.dataset.live = value;
}

/** Shows `show` (liveShow's words, or null for nothing live). */
function render(view) {
  const live = view.liveShow;
  const { show } = live;
  setScreenState(view);
  live.el.hidden = !show;
  live.listenButton.hidden = !show || live.listening;
  live.backButton.hidden = !live.listening;
  const key = liveKey(show);
  if (key === live.shown) return;
  live.shown = key;
  if (!show) return;
  setText(live.name, show.name);
  setText(live.title, show.title ? `Now: ${show.title}` : "");
  live.title.hidden = !show.title;
  setText(live.detail, show.detail);
  live.detail.hidden = !show.detail;
  setText(live.since, sinceText(show.since));
  setText(live.artSign.lastChild, show.name);
}

/** Takes the server's word on the source: a change is said, and an ended show stops playing here. */
function apply(view, show) {
  const live = view.liveShow;
  const before = live.show;
  live.show = show;
  const words = liveAnnouncement(before, show);
  if (words) setText(live.announcer, words);
  if (!show && live.listening) stopListening(view, { resume: true, words: "The live show has ended: back to the station." });
  render(view);
}

async function poll(view) {
  const live = view.liveShow;
  const { state } = view;
  clearTimeout(live.timer);
  live.timer = null;
  if (live.stopped) return;
  if (state.destroyed || state.over) {
    stopLiveShow(view);
    return;
  }
  // One question at a time: a poll asked early (the live audio ended)
  // takes over from one under way, so there is only ever one timer.
  if (live.abort) live.abort.abort();
  const abort = new AbortController();
  live.abort = abort;
  let again = true;
  try {
    const source = await liveApi.source(state.stationID, { signal: abort.signal });
    if (live.stopped || abort.signal.aborted) return;
    apply(view, liveShow(source));
  } catch (error) {
    if (live.stopped || (error && error.name === "AbortError")) return;
    // No such station: nothing will ever be live here. Otherwise (no
    // signal, not allowed in yet) the last word stands and we ask again.
    if (error && error.status === 404) {
      apply(view, null);
      again = false;
    }
  } finally {
    if (live.abort === abort) live.abort = null;
  }
  if (again && !live.stopped) live.timer = setTimeout(() => poll(view), POLL_MS);
}

/** Plays the live show here, pausing the station's player. */
export function listen(view) {
  const live = view.liveShow;
  const { player } = view;
  if (!live.show || live.listening) return;
  live.resumeStation = Boolean(player.wantPlay);
  live.listening = true;
  if (player.wantPlay) player.pause();
  setText(live.status, "Tuning in to the live show…");
  live.audio.src = live.show.listenURL;
  const playing = live.audio.play();
  if (playing && typeof playing.catch === "function") {
    playing.catch((error) => {
      if (!live.listening || (error && error.name === "AbortError")) return;
      stopListening(view, { resume: true, words: error && error.name === "NotAllowedError" ? "The browser blocked the sound: press Listen again." : "The live show won't play here." });
    });
  }
  render(view);
  // The button pressed is gone; the way back takes its place.
  live.backButton.focus();
}

/**
 * Stops the live show here. `resume`: the station's player plays again if
 * it was playing before; `words` say why, in the panel's status.
 */
export function stopListening(view, { resume = true, words = "" } = {}) {
  const live = view.liveShow;
  if (!live.listening) return;
  live.listening = false;
  const { audio } = live;
  audio.pause();
  audio.removeAttribute("src");
  audio.load();
  setText(live.status, words);
  if (resume && live.resumeStation && !view.state.destroyed && !view.state.over) view.player.resume();
  live.resumeStation = false;
  render(view);
}

/** Starts asking for the station's live source (the screen's first moment). */
export function startLiveShow(view) {
  const live = view.liveShow;
  if (!live.stopped) return;
  live.stopped = false;
  watchers.add(view);
  const { audio } = live;
  const { player } = view;

  live.listenButton.addEventListener("click", () => listen(view));
  live.backButton.addEventListener("click", () => {
    const hadFocus = document.activeElement === live.backButton;
    stopListening(view, { resume: true, words: "Back to the station." });
    if (hadFocus && !live.listenButton.hidden) live.listenButton.focus();
  });
  audio.addEventListener("playing", () => {
    if (live.listening) setText(live.status, "Playing the live show.");
  });
  audio.addEventListener("waiting", () => {
    if (live.listening) setText(live.status, "Buffering the live show…");
  });
  // The relay ends when the source does (or the connection drops): back to
  // the station, and ask the server at once whether the show is still on.
  const lost = () => {
    if (!live.listening) return;
    stopListening(view, { resume: true, words: "The live show stopped here: back to the station." });
    poll(view);
  };
  audio.addEventListener("ended", lost);
  audio.addEventListener("error", lost);
  // The station's own Listen (or a media key) while the live show plays:
  // the station wins, the live show stops.
  live.onPlayerState = () => {
    if (live.listening && player.wantPlay) stopListening(view, { resume: false, words: "Back to the station." });
  };
  player.addEventListener("state", live.onPlayerState);
  poll(view);
}

/** Stops asking and stops the live show (the screen closes, or the station is over here). */
export function stopLiveShow(view) {
  const live = view.liveShow;
  if (!live || live.stopped) return;
  live.stopped = true;
  watchers.delete(view);
  clearTimeout(live.timer);
  live.timer = null;
  if (live.abort) live.abort.abort();
  live.abort = null;
  stopListening(view, { resume: false });
  if (live.onPlayerState) view.player.removeEventListener("state", live.onPlayerState);
  live.onPlayerState = null;
}
