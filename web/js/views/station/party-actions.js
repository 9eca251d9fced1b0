// What the party's buttons do (see party.js): requests, votes and the
// host's overrides are commands with ids, sent through the live session
// like the DJ's; joining makes this browser a named guest and reconnects,
// so the station knows who votes.

import { session as me } from "../../api/session.js";
import { holdPlace } from "../../ui/hold-place.js";
import { toast } from "../../ui/toast.js";
import { command, current } from "./actions.js";
import { lobbyModel } from "./lobby.js";
import { partyModel } from "./party.js";
import { vetoedModel } from "./vetoed.js";
import { levelModel } from "./room-level.js";
import { refreshLiked } from "./reaction-actions.js";
import { isDJ } from "./state.js";
import { joinElsewhere, renderChat } from "./chat-actions.js";

/** A party command; toasts `success` once applied. Refusals are toasted by `command`. */
export function partyCommand(view, cmd, success = null) {
  return command(view, cmd, success);
}

export async function voteSkip(view) {
  const entry = current(view);
  if (!entry) return;
  try {
    await command(view, { op: "voteSkip", entryID: entry.id });
    view.party.votedToSkip(entry.id);
    renderParty(view);
  } catch {
    // Reported.
  }
}

/** Becomes a guest named `name`, then reconnects as them. */
export async function joinParty(view, name) {
  await me.ensureGuest(name);
  if (view.state.session) view.state.session.reconnect();
  renderParty(view);
  refreshLiked(view);
  const lobby = view.state.session && view.state.session.party && view.state.session.party.mode === "lobby";
  toast(lobby ? `You're in as ${name}. Vote away.` : `You're in as ${name}. Request away.`);
}

/**
 * Shows the party as it is now. The requests and the ballot come, go and
 * change size as the room votes, above Up Next: what someone reads below
 * them stays where it is on screen (it jumped 144 px on a phone when one
 * more song was asked for).
 */
export function renderParty(view) {
  const { state } = view;
  const session = state.session;
  if (!session || !view.party) return;
  const entry = current(view);
  const person = me && me.person;
  const requests = partyModel(session.party, {
    myVotes: session.myVotes,
    staff: isDJ(state),
    personID: person ? person.id : null,
    named: Boolean(person),
    currentEntryID: entry ? entry.id : null,
  });
  // One name form: the chat gives way to the party's or the lobby's.
  const elsewhere = joinElsewhere(view);
  if (view.chat && view.chat.ctx && view.chat.ctx.joinElsewhere !== elsewhere) renderChat(view);
  const requestsShape = [requests.visible, requests.rows, requests.staff, requests.named, requests.open, Boolean(requests.skip)];
  renderHeld(view, view.party, requests, requestsShape);
  if (view.vetoed) {
    const vetoed = vetoedModel(session.party, { staff: isDJ(state) });
    renderHeld(view, view.vetoed, vetoed, [vetoed.visible, vetoed.count]);
  }
  if (view.level) view.level.render(levelModel(session.party, { named: Boolean(person), staff: isDJ(state) }));
  if (view.lobby) {
    const ballot = lobbyModel(session.party, { standing: session.standing, staff: isDJ(state), named: Boolean(person), serverNow: view.clock.now() });
    const ballotShape = [ballot.visible, ballot.ballotID, ballot.open, ballot.elected, ballot.candidates, ballot.staff, ballot.named, Boolean(ballot.waiting), Boolean(ballot.weight)];
    renderHeld(view, view.lobby, ballot, ballotShape);
  }
}

/**
 * Renders `panel` with `model`, holding the place of what follows it only
 * when what it shows may change its size (`shape` differs from last time):
 * renderParty runs every frame (250 ms), and holding the place reads the
 * page's layout twice.
 */
function renderHeld(view, panel, model, shape) {
  const key = JSON.stringify(shape);
  const shapes = (view.panelShapes ||= new Map());
  if (shapes.get(panel) === key) {
    panel.render(model);
    return;
  }
  shapes.set(panel, key);
  holdPlace(panel.el, () => panel.render(model));
}

/** Tells the room what the host did; names the song from the queue before the change. */
export function announceOverride(view, { kind, trackID, requesterName }) {
  const party = view.state.session && view.state.session.party;
  const request = party && (party.requests || []).find((r) => r.track.id === trackID);
  const candidate = party && party.ballot && party.ballot.candidates.find((c) => c.track.id === trackID);
  const title = request ? request.track.title : candidate ? candidate.track.title : "a request";
  if (kind === "elected") {
    toast(`The host picked ${candidate ? title : "the next song"} over the vote.`);
    return;
  }
  const by = requesterName ? ` (asked by ${requesterName})` : "";
  const text =
    kind === "vetoed" ? `The host said no to ${title}${by}.`
    : kind === "playedNow" ? `The host is playing ${title}${by} now.`
    : `The host moved ${title}${by} up.`;
  toast(text);
}
