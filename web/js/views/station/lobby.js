// The lobby (seed 004) on the station screen: the ballot for the next song
// with a countdown, one vote each (a second replaces the first), your
// weight and why, and suggestions for the next ballot. The host and co-DJs
// see the weighted counts and can pick the winner themselves.
//
// `lobbyModel` is pure (what to show); `createLobbyPanel` builds the DOM and
// `render` fills it. Everything from tags or people goes in as text.

import { h, fill, artwork } from "../../ui/dom.js";
import { createGuestJoin } from "./guest-join.js";
import { createLibraryBrowse } from "./library-browse.js";
import { createSongSearch } from "./song-search.js";

/** What the panel shows, from the session's party and your standing. */
export function lobbyModel(party, { standing = null, staff = false, named = false, serverNow = 0 } = {}) {
  if (!party || party.mode !== "lobby") return { visible: false };
  const ballot = party.ballot || null;
  const open = Boolean(ballot && ballot.elected == null && serverNow < ballot.closesAt);
  const myVote = ballot && standing && standing.ballotID === ballot.id ? standing.vote : null;
  const candidates = ballot
    ? ballot.candidates.map((c) => ({
        track: c.track,
        suggestions: c.suggestions || 0,
        votes: c.votes == null ? null : c.votes,
        mine: myVote === c.track.id,
        elected: ballot.elected === c.track.id,
      }))
    : [];
  return {
    visible: true,
    staff,
    named,
    ballotID: ballot ? ballot.id : null,
    open,
    closesAt: ballot ? ballot.closesAt : null,
    elected: ballot ? ballot.elected || null : null,
    candidates,
    waiting: ballot ? ballot.waitingSuggestions || 0 : 0,
    // The server's line says the weight and why ("Your vote counts 1.22×: …").
    weight: standing ? standing.explanation || weightText(standing.weight) : null,
  };
}

/** "Your vote counts 1.22×". */
export function weightText(weight) {
  const rounded = Math.round(weight * 100) / 100;
  return `Your vote counts ${rounded === 1 ? "1" : rounded.toFixed(2)}×`;
}

/** "Closes in 0:23", or what happened once closed. */
export function countdownText(model, serverNow) {
  if (!model.ballotID) return "The next vote opens when the next song starts.";
  if (model.elected) return "The vote is in: the winner plays next.";
  const left = Math.max(0, Math.ceil((model.closesAt - serverNow) / 1000));
  if (left === 0) return "Counting the votes…";
  return `Closes in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/**
 * @param {{ onVote: (ballotID, trackID) => Promise, onElect: (ballotID, trackID) => Promise,
 *           onSuggest: (track) => Promise, onJoin: (name) => Promise }} actions
 * @param {{ serverNow: () => number }} clock
 */
export function createLobbyPanel(actions, { serverNow }) {
  const countdown = h("p", { class: "ballot-countdown", role: "timer", "aria-live": "off" });
  const list = h("ol", { class: "ballot", "aria-labelledby": "lobby-heading" });
  const weight = h("p", { class: "lobby-weight" });
  const waiting = h("p", { class: "hint lobby-waiting" });
  const join = createGuestJoin({ id: "lobby-name", label: "Your name, to vote and suggest", button: "Join the lobby", onJoin: actions.onJoin });
  const search = createSongSearch({ id: "lobby-search", resultsID: "lobby-results", label: "Suggest a song for the next vote", verb: "Suggest", done: "Suggested", onPick: actions.onSuggest });
  const browse = createLibraryBrowse({ id: "lobby-browse", summary: "Browse the library to suggest", verb: "Suggest", done: "Suggested", onPick: actions.onSuggest });
  const el = h(
    "section",
    { class: "panel lobby-panel", "aria-labelledby": "lobby-heading", hidden: true },
    h("h2", { id: "lobby-heading", class: "section-title" }, "Vote for the next song"),
    countdown,
    list,
    weight,
    join.el,
    search.el,
    browse.el,
    waiting,
  );
  let model = { visible: false };
  let signature = "";

  function candidateRow(c) {
    const name = `${c.track.title} by ${c.track.artist}`;
    const vote = h(
      "button",
      {
        class: `btn-ballot${c.mine ? " is-mine" : ""}`,
        type: "button",
        "aria-pressed": c.mine ? "true" : "false",
        "aria-label": c.mine ? `Your vote: ${name}` : `Vote for ${name}`,
        dataset: { focusKey: `vote:${c.track.id}`, trackId: c.track.id },
        disabled: !model.open || !model.named,
        onclick: () => actions.onVote(model.ballotID, c.track.id).catch(() => {}),
      },
      c.mine ? "✓ Voted" : "Vote",
    );
    const pick = model.staff && model.open
      ? h("button", { class: "btn-text btn-elect", type: "button", "aria-label": `Pick it: ${name}`, onclick: () => actions.onElect(model.ballotID, c.track.id).catch(() => {}) }, "Pick it")
      : null;
    const note = [
      c.elected ? "Voted in" : null,
      c.suggestions ? `suggested by ${c.suggestions}` : "the robot's pick",
      c.votes == null ? null : `${Math.round(c.votes * 100) / 100} votes`,
    ].filter(Boolean).join(" · ");
    return h(
      "li",
      { class: `ballot-row${c.elected ? " is-elected" : ""}`, dataset: { trackId: c.track.id } },
      artwork(c.track, { size: "sm" }),
      h("span", { class: "track-text" }, h("span", { class: "track-title" }, c.track.title), h("span", { class: "track-artist" }, c.track.artist), h("span", { class: "ballot-note" }, note)),
      h("span", { class: "ballot-tools" }, vote, pick),
    );
  }

  function tick() {
    if (!el.isConnected) return;
    if (model.visible) countdown.textContent = countdownText(model, serverNow());
  }
  const timer = setInterval(() => {
    if (!el.isConnected && timer) clearInterval(timer);
    tick();
  }, 1000);

  /** Shows `next` (see lobbyModel). */
  function render(next) {
    model = next;
    el.hidden = !model.visible;
    if (!model.visible) return;
    countdown.textContent = countdownText(model, serverNow());
    weight.textContent = model.weight || "";
    weight.hidden = !model.weight;
    join.el.hidden = model.named;
    search.el.hidden = !model.named;
    browse.el.hidden = !model.named;
    waiting.textContent = model.waiting ? `${model.waiting} suggestion${model.waiting === 1 ? "" : "s"} waiting for the next vote` : "";
    const key = JSON.stringify([model.ballotID, model.open, model.elected, model.candidates, model.staff, model.named]);
    if (key === signature) return;
    signature = key;
    const active = document.activeElement;
    const focusKey = active && list.contains(active) ? active.dataset.focusKey : null;
    fill(list, model.candidates.map(candidateRow));
    if (focusKey) {
      const again = list.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  return { el, render, stop: () => clearInterval(timer) };
}
