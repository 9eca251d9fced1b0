// The top of the history screen: what is on the air now, counting down.
// Shown over the playing station it reads the station's live session;
// opened on its own it follows GET …/timeline, asking again when the song
// on the air ends (and every half minute, for skips).

import { request } from "../../api/api.js";
import { h, fill, setText, artwork } from "../../ui/dom.js";
import { entryAt, isLive, spanOf, positionIn, timelineNow } from "../../playback/timeline.js";
import { timeLeftText } from "../station/studio-model.js";
import { liveHistoryTitle, liveWords } from "../station/live-model.js";

const POLL_MAX_MS = 30_000;
const POLL_MIN_MS = 2_000;
const RETRY_MS = 15_000;

export function createNowCard() {
  const art = h("div", { class: "log-now-art" });
  const title = h("p", { class: "log-now-title" }, "…");
  const artist = h("p", { class: "log-now-artist" });
  const left = h("p", { class: "log-now-left" });
  const lamp = h("span", { class: "onair-lamp small" }, "On air");
  const el = h(
    "section",
    { class: "panel log-now", "aria-labelledby": "log-now-heading" },
    h("h2", { id: "log-now-heading", class: "section-title" }, lamp, "Now playing"),
    h("div", { class: "log-now-body" }, art, h("div", { class: "log-now-text" }, title, artist, left)),
  );
  return { el, lamp, art, title, artist, left, shown: undefined };
}

/** Shows `entry` (null: nothing on the air) with `leftMs` to go. */
export function renderNowCard(card, entry, leftMs) {
  const key = entry ? `${entry.id}:${entry.track.id}` : null;
  if (key !== card.shown) {
    card.shown = key;
    card.el.dataset.entryId = entry ? entry.id : "";
    fill(card.art, artwork(entry ? entry.track : null, { size: "md", alt: "" }));
    const live = isLive(entry);
    setText(card.title, entry ? (live ? liveHistoryTitle(entry) : entry.track.title) : "Nothing on the air right now");
    setText(
      card.artist,
      entry
        ? live ? liveWords(entry).album : [entry.track.artist, entry.track.album].filter(Boolean).join(" · ")
        : "The station plays again as soon as someone tunes in.",
    );
    card.el.classList.toggle("is-quiet", !entry);
    card.el.classList.toggle("is-live", live);
    setText(card.lamp, entry ? (live ? "Live" : "On air") : "Off air");
  }
  // A live show has no length: no countdown.
  setText(card.left, entry && !isLive(entry) && leftMs != null ? `${timeLeftText(leftMs)} left` : "");
}

/**
 * The station's timeline by polling, for the screen opened on its own:
 * {current(), leftMs(), start(), stop()}. Times are on the server's clock,
 * estimated from each answer's serverTime (close enough for a countdown).
 */
export function timelineSource(stationID) {
  let timeline = null;
  let offset = 0;
  let timer = null;
  let stopped = false;
  const serverNow = () => Date.now() + offset;

  async function poll() {
    let wait = RETRY_MS;
    try {
      const answer = await request(`/api/stations/${encodeURIComponent(stationID)}/timeline?history=0`);
      if (stopped) return;
      timeline = answer;
      offset = (Number(answer.serverTime) || Date.now()) - Date.now();
      const entry = entryAt(timeline, timelineNow(timeline, serverNow()));
      // (A live show's expiration is a day away while its source is on: ask every half minute.)
      const until = entry && !isLive(entry) ? entry.expiration - serverNow() + 700 : POLL_MAX_MS;
      wait = Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, until));
    } catch {
      // Keep what we had; ask again shortly.
    }
    if (!stopped) timer = setTimeout(poll, wait);
  }

  return {
    current: () => (timeline ? entryAt(timeline, timelineNow(timeline, serverNow())) : null),
    leftMs() {
      const entry = this.current();
      return entry ? spanOf(entry) - positionIn(entry, timelineNow(timeline, serverNow())) : null;
    },
    /** Starts polling; resolves once the first answer (or failure) is in. */
    start() {
      stopped = false;
      return poll();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
