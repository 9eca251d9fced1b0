// The party (requests mode, seed 001) on the station screen: ask for a song
// with find-as-you-type, vote requests up or down, vote to skip the song
// that plays, and take back your own request. The host and co-DJs also
// move a request to the top, play it now or veto it. A listener with no
// name yet joins as a guest first (one vote per person).
//
// `partyModel` is pure (what to show); `createPartyPanel` builds the DOM and
// `render` fills it. Everything from tags or people goes in as text.

import { h, fill, artwork, icon } from "../../ui/dom.js";
import { createGuestJoin } from "./guest-join.js";
import { createSongSearch } from "./song-search.js";
import { createLibraryBrowse } from "./library-browse.js";

/** What the panel shows, from the session's party and who you are. */
export function partyModel(party, { myVotes = {}, staff = false, personID = null, named = false, currentEntryID = null } = {}) {
  if (!party || party.mode !== "requests") return { visible: false };
  const { settings } = party;
  const rows = (party.requests || []).map((request) => ({
    id: request.id,
    track: request.track,
    by: request.requesterName || "Someone",
    arranged: Boolean(request.arranged),
    // On the timeline already, next of the room's songs: it no longer moves.
    linedUp: Boolean(request.linedUp),
    vote: myVotes[request.id] || null,
    ups: request.upvotes,
    downs: request.downvotes,
    mine: Boolean(personID) && request.requesterID === personID,
  }));
  const skip = party.skip && party.skip.entryID === currentEntryID ? party.skip : null;
  const rules = [
    settings.open ? `Up to ${settings.maxPendingPerPerson} request${settings.maxPendingPerPerson === 1 ? "" : "s"} each` : "Requests are closed",
    settings.maxTrackMillis ? `songs up to ${Math.round(settings.maxTrackMillis / 60000)} min` : null,
    settings.poolOnly ? "from the host's playlist" : null,
  ].filter(Boolean);
  // Where the host may move each request: up to just after the lined-up
  // ones, down to the end (toIndex counts the whole list, as the server does).
  const fixed = rows.filter((row) => row.linedUp).length;
  rows.forEach((row, index) => {
    row.up = !row.linedUp && index > fixed ? index - 1 : null;
    row.down = !row.linedUp && index < rows.length - 1 ? index + 1 : null;
    // "Next": first of the waiting ones, after those lined up.
    row.top = !row.linedUp && index > fixed;
  });
  return {
    visible: true,
    open: Boolean(settings.open),
    staff,
    named,
    personID,
    rows,
    rules: rules.join(" · "),
    skip,
    count: rows.length,
  };
}

/** "2 of 3 want to skip" for the skip vote, or null. */
export function skipText(skip) {
  if (!skip) return null;
  return `${skip.votes} of ${skip.needed} to skip`;
}

/**
 * @param {{ onRequest: (track) => Promise, onVote: (id, vote) => Promise, onWithdraw: (id) => Promise,
 *           onTop: (id) => Promise, onMove: (id, toIndex) => Promise, onPlayNow: (id) => Promise, onVeto: (id) => Promise,
 *           onSkipVote: () => Promise, onJoin: (name) => Promise }} actions
 */
export function createPartyPanel(actions) {
  const count = h("span", { class: "count-pill" });
  const rules = h("p", { class: "hint party-rules" });
  const list = h("ol", { class: "requests", "aria-labelledby": "party-heading" });
  const empty = h("p", { class: "empty requests-empty" }, "No requests yet. Find a song and ask for it.");
  const closed = h("p", { class: "hint party-closed", hidden: true }, "The host has closed requests for now. You can still vote.");

  // Joining as a guest (one vote per person), and finding a song to request.
  const join = createGuestJoin({ id: "party-name", label: "Your name, to request and vote", button: "Join the party", onJoin: actions.onJoin });
  const search = createSongSearch({ id: "party-search", resultsID: "party-results", label: "Request a song", verb: "Request", done: "Asked", onPick: actions.onRequest });
  // Or find one by artist, album or song.
  const browse = createLibraryBrowse({ id: "party-browse", summary: "Browse the library to request", verb: "Request", done: "Asked", onPick: actions.onRequest });

  // Vote to skip the song that plays.
  const skipButton = h("button", { class: "btn btn-secondary btn-skip-vote", type: "button", onclick: () => actions.onSkipVote() }, "Vote to skip");
  const skipProgress = h("span", { class: "skip-progress", "aria-live": "polite" });
  const skipRow = h("div", { class: "skip-vote", hidden: true }, skipButton, skipProgress);

  const el = h(
    "section",
    { class: "panel party-panel", "aria-labelledby": "party-heading", hidden: true },
    h("h2", { id: "party-heading", class: "section-title" }, "Requests ", count),
    rules,
    skipRow,
    join.el,
    search.el,
    browse.el,
    closed,
    list,
    empty,
  );

  let signature = "";
  let votedSkipOn = null;

  function voteButton(row, vote) {
    const on = row.vote === vote;
    const n = vote === "up" ? row.ups : row.downs;
    const word = vote === "up" ? "Vote up" : "Vote down";
    return h(
      "button",
      {
        class: `btn-vote btn-vote-${vote}`,
        type: "button",
        "aria-pressed": on ? "true" : "false",
        "aria-label": `${word}: ${row.track.title}`,
        dataset: { focusKey: `${row.id}:${vote}` },
        onclick: () => actions.onVote(row.id, on ? null : vote).catch(() => {}),
      },
      vote === "up" ? "▲" : "▼",
      n == null ? null : h("span", { class: "vote-count" }, String(n)),
    );
  }

  /**
   * The host's move up and move down, by tap or keyboard; focus stays on
   * the button pressed as the row moves (its focus key goes with it).
   */
  function moveButtons(row, index, model) {
    const count = model.rows.length;
    const move = (to, dir) =>
      h(
        "button",
        {
          class: `btn-move btn-move-${dir}`,
          type: "button",
          disabled: to === null,
          dataset: { focusKey: `${row.id}:move-${dir}` },
          "aria-label": dir === "up" ? `Move up: ${row.track.title}, now ${index + 1} of ${count}` : `Move down: ${row.track.title}, now ${index + 1} of ${count}`,
          title: dir === "up" ? "Move up" : "Move down",
          onclick: () => to !== null && actions.onMove(row.id, to).catch(() => {}),
        },
        icon(dir, { size: 18 }),
      );
    return h("span", { class: "request-move", role: "group", "aria-label": `Place of ${row.track.title}` }, move(row.up, "up"), move(row.down, "down"));
  }

  function requestRow(row, index, model) {
    const tools = [];
    if (model.staff) {
      if (row.up !== null || row.down !== null) tools.push(moveButtons(row, index, model));
      if (row.top) {
        tools.push(h("button", { class: "btn-text btn-top", type: "button", dataset: { focusKey: `${row.id}:top` }, "aria-label": `Play next: ${row.track.title}`, onclick: () => actions.onTop(row.id).catch(() => {}) }, "Next"));
      }
      tools.push(h("button", { class: "btn-text btn-play-now", type: "button", "aria-label": `Play now: ${row.track.title}`, onclick: () => actions.onPlayNow(row.id).catch(() => {}) }, "Play now"));
      tools.push(h("button", { class: "btn-text btn-veto", type: "button", "aria-label": `Veto: ${row.track.title}`, onclick: () => actions.onVeto(row.id).catch(() => {}) }, "Veto"));
    } else if (row.mine) {
      tools.push(h("button", { class: "btn-text btn-withdraw", type: "button", "aria-label": `Take back: ${row.track.title}`, onclick: () => actions.onWithdraw(row.id).catch(() => {}) }, "Take back"));
    }
    return h(
      "li",
      { class: `request-row${row.arranged ? " is-arranged" : ""}${row.linedUp ? " is-lined-up" : ""}`, dataset: { requestId: row.id, trackId: row.track.id } },
      artwork(row.track, { size: "sm" }),
      h(
        "span",
        { class: "track-text" },
        h("span", { class: "track-title" }, row.track.title),
        h("span", { class: "track-artist" }, row.track.artist),
        row.linedUp
          ? h("span", { class: "request-by" }, h("span", { class: "request-badge" }, "Up next"), ` · asked by ${row.by}${row.mine ? " (you)" : ""}`)
          : h("span", { class: "request-by" }, row.arranged ? `Host's pick · asked by ${row.by}` : `Asked by ${row.by}`),
      ),
      // Lined up on the timeline: votes no longer move it (the server refuses them).
      model.named && !row.linedUp ? h("span", { class: "votes", role: "group", "aria-label": `Votes for ${row.track.title}` }, voteButton(row, "up"), voteButton(row, "down")) : null,
      tools.length ? h("span", { class: "request-tools" }, tools) : null,
    );
  }

  /** Shows `model` (see partyModel). */
  function render(model) {
    el.hidden = !model.visible;
    if (!model.visible) return;
    rules.textContent = model.rules;
    count.textContent = model.count ? String(model.count) : "";
    join.el.hidden = model.named;
    search.el.hidden = !model.named || !model.open;
    browse.el.hidden = search.el.hidden;
    closed.hidden = model.open;
    skipRow.hidden = !model.named || !model.skip;
    if (model.skip) {
      skipProgress.textContent = skipText(model.skip);
      skipButton.disabled = votedSkipOn === model.skip.entryID;
      skipButton.textContent = votedSkipOn === model.skip.entryID ? "You voted to skip" : "Vote to skip";
    }
    const next = JSON.stringify([model.rows, model.staff, model.named]);
    if (next === signature) return;
    signature = next;
    const active = document.activeElement;
    const focusKey = active && list.contains(active) ? active.dataset.focusKey : null;
    fill(list, model.rows.map((row, index) => requestRow(row, index, model)));
    empty.hidden = model.rows.length > 0;
    if (focusKey) {
      let again = list.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      // Moved to the top (or the end): its other arrow takes the focus.
      if (again && again.disabled) again = again.parentElement.querySelector("button:not([disabled])");
      if (again) again.focus();
    }
  }

  return {
    el,
    render,
    /** The skip vote for `entryID` was counted: the button says so. */
    votedToSkip(entryID) {
      votedSkipOn = entryID;
    },
    focusSearch: () => search.focus(),
  };
}
