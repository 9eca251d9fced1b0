// The party (requests mode, seed 001) on the station screen: ask for a song
// with find-as-you-type, vote requests up or down, vote to skip the song
// that plays, and take back your own request. The host and co-DJs also
// move a request to the top, play it now or veto it. A listener with no
// name yet joins as a guest first (one vote per person).
//
// `partyModel` is pure (what to show); `createPartyPanel` builds the DOM and
// `render` fills it. Everything from tags or people goes in as text.

import { api } from "../../api/api.js";
import { h, fill, artwork } from "../../ui/dom.js";

/** What the panel shows, from the session's party and who you are. */
export function partyModel(party, { myVotes = {}, staff = false, personID = null, named = false, currentEntryID = null } = {}) {
  if (!party || party.mode !== "requests") return { visible: false };
  const { settings } = party;
  const rows = (party.requests || []).map((request) => ({
    id: request.id,
    track: request.track,
    by: request.requesterName || "Someone",
    arranged: Boolean(request.arranged),
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
 *           onTop: (id) => Promise, onPlayNow: (id) => Promise, onVeto: (id) => Promise,
 *           onSkipVote: () => Promise, onJoin: (name) => Promise }} actions
 */
export function createPartyPanel(actions) {
  const count = h("span", { class: "count-pill" });
  const rules = h("p", { class: "hint party-rules" });
  const list = h("ol", { class: "requests", "aria-labelledby": "party-heading" });
  const empty = h("p", { class: "empty requests-empty" }, "No requests yet. Find a song and ask for it.");
  const closed = h("p", { class: "hint party-closed", hidden: true }, "The host has closed requests for now. You can still vote.");

  // Joining as a guest: a name, so each person votes once.
  const nameInput = h("input", { id: "party-name", class: "input", type: "text", maxlength: "40", autocomplete: "nickname", required: true });
  const joinStatus = h("p", { class: "hint party-join-status", role: "status" });
  const joinForm = h(
    "form",
    {
      class: "party-join",
      hidden: true,
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        const name = nameInput.value.trim();
        if (!name) {
          joinStatus.textContent = "Type the name the room will see.";
          nameInput.focus();
          return;
        }
        joinStatus.textContent = "Joining…";
        try {
          await actions.onJoin(name);
          joinStatus.textContent = "";
        } catch (error) {
          joinStatus.textContent = (error && error.message) || "Couldn't join. Try again.";
        }
      },
    },
    h("label", { for: "party-name", class: "label" }, "Your name, to request and vote"),
    h("div", { class: "party-join-row" }, nameInput, h("button", { class: "btn btn-primary", type: "submit" }, "Join the party")),
    joinStatus,
  );

  // Find a song to request, as you type.
  const searchInput = h("input", {
    id: "party-search",
    class: "input",
    type: "search",
    placeholder: "Artist, song or album",
    autocomplete: "off",
    "aria-controls": "party-results",
  });
  const results = h("ul", { id: "party-results", class: "party-results", "aria-label": "Songs you can request" });
  const searchStatus = h("p", { class: "hint party-search-status", role: "status" });
  const search = h(
    "div",
    { class: "party-search", hidden: true },
    h("label", { for: "party-search", class: "label" }, "Request a song"),
    searchInput,
    searchStatus,
    results,
  );
  let searchTimer = null;
  let searchAbort = null;
  searchInput.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(runSearch, 180);
  });

  async function runSearch() {
    const q = searchInput.value.trim();
    if (searchAbort) searchAbort.abort();
    if (!q) {
      fill(results);
      searchStatus.textContent = "";
      results.dataset.query = "";
      return;
    }
    searchAbort = new AbortController();
    searchStatus.textContent = "Searching…";
    try {
      const answer = await api.search(q, { limit: 8, signal: searchAbort.signal });
      const tracks = answer.tracks || [];
      searchStatus.textContent = tracks.length ? "" : "No songs match.";
      fill(results, tracks.map(resultRow));
      // Which search these are the results of (tests wait for theirs).
      results.dataset.query = q;
    } catch (error) {
      if (error.name === "AbortError") return;
      searchStatus.textContent = "Search failed. Check your connection and try again.";
    }
  }

  function resultRow(track) {
    const button = h(
      "button",
      {
        class: "btn btn-secondary btn-request",
        type: "button",
        dataset: { trackId: track.id },
        "aria-label": `Request ${track.title} by ${track.artist}`,
        onclick: async () => {
          button.disabled = true;
          try {
            await actions.onRequest(track);
            button.textContent = "Asked";
          } catch {
            button.disabled = false;
          }
        },
      },
      "Request",
    );
    return h(
      "li",
      { class: "party-result" },
      artwork(track, { size: "sm" }),
      h("span", { class: "track-text" }, h("span", { class: "track-title" }, track.title), h("span", { class: "track-artist" }, track.artist)),
      button,
    );
  }

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
    joinForm,
    search,
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

  function requestRow(row, index, model) {
    const tools = [];
    if (model.staff) {
      if (index > 0) {
        tools.push(h("button", { class: "btn-text btn-top", type: "button", dataset: { focusKey: `${row.id}:top` }, "aria-label": `Play next: ${row.track.title}`, onclick: () => actions.onTop(row.id).catch(() => {}) }, "Next"));
      }
      tools.push(h("button", { class: "btn-text btn-play-now", type: "button", "aria-label": `Play now: ${row.track.title}`, onclick: () => actions.onPlayNow(row.id).catch(() => {}) }, "Play now"));
      tools.push(h("button", { class: "btn-text btn-veto", type: "button", "aria-label": `Veto: ${row.track.title}`, onclick: () => actions.onVeto(row.id).catch(() => {}) }, "Veto"));
    } else if (row.mine) {
      tools.push(h("button", { class: "btn-text btn-withdraw", type: "button", "aria-label": `Take back: ${row.track.title}`, onclick: () => actions.onWithdraw(row.id).catch(() => {}) }, "Take back"));
    }
    return h(
      "li",
      { class: `request-row${row.arranged ? " is-arranged" : ""}`, dataset: { requestId: row.id, trackId: row.track.id } },
      artwork(row.track, { size: "sm" }),
      h(
        "span",
        { class: "track-text" },
        h("span", { class: "track-title" }, row.track.title),
        h("span", { class: "track-artist" }, row.track.artist),
        h("span", { class: "request-by" }, row.arranged ? `Host's pick · asked by ${row.by}` : `Asked by ${row.by}`),
      ),
      model.named ? h("span", { class: "votes", role: "group", "aria-label": `Votes for ${row.track.title}` }, voteButton(row, "up"), voteButton(row, "down")) : null,
      tools.length ? h("span", { class: "request-tools" }, tools) : null,
    );
  }

  /** Shows `model` (see partyModel). */
  function render(model) {
    el.hidden = !model.visible;
    if (!model.visible) return;
    rules.textContent = model.rules;
    count.textContent = model.count ? String(model.count) : "";
    joinForm.hidden = model.named;
    search.hidden = !model.named || !model.open;
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
      const again = list.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
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
    focusSearch: () => searchInput.focus(),
  };
}
