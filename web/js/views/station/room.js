// The party screen (#/station/ID/screen): a TV or laptop view for the room,
// like seed 001's AirPlay view. Huge now playing with its art, the requests
// the room made (live), and a QR code with the frequency to join: a guest
// who scans it lands on the invite, gives a name and is in, ready to
// request. For the owner and co-DJs (the QR is an invite link they make);
// the music keeps playing here as on the station screen.

import { request } from "../../api/api.js";
import { h, fill, artwork, setText } from "../../ui/dom.js";
import { inviteURL } from "../settings/state.js";
import { isVoice, voiceWords } from "../clips/clips-model.js";

// An invite for the room lasts the night, and one is kept per tab so a
// reload doesn't make another.
const INVITE_MINUTES = 12 * 60;
const storageKey = (stationID) => `wavelength:room-invite:${stationID}`;

/** The room's invite ({token, link, expiresAt}), made once per tab and night. */
export async function roomInvite(stationID, now = Date.now()) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(storageKey(stationID)) || "null");
    if (kept && kept.token && (!kept.expiresAt || kept.expiresAt - now > 30 * 60 * 1000)) return kept;
  } catch {
    // A damaged entry: make a new invite.
  }
  const created = await request(`/api/stations/${encodeURIComponent(stationID)}/invites`, {
    method: "POST",
    body: { expiresInMinutes: INVITE_MINUTES },
  });
  const invite = { token: created.token, link: inviteURL(created, location.origin), expiresAt: created.expiresAt || null };
  try {
    sessionStorage.setItem(storageKey(stationID), JSON.stringify(invite));
  } catch {
    // Private mode: fine, the next load makes another.
  }
  return invite;
}

/**
 * What the room shows (pure): the song, up to six requests, the join line.
 * Vote counts only when the host shows them to everyone
 * (settings.showVoteCounts): the TV is usually the host's own connection,
 * which gets the counts staff see, but the whole room reads it. In DJ mode
 * (and a lobby) the room takes no requests here: the words say what is true.
 */
export function roomModel({ entry, party, frequency }) {
  const mode = party ? party.mode : "dj";
  const requests = mode === "requests" ? (party.requests || []).slice(0, 6) : [];
  const showCounts = Boolean(party && party.settings && party.settings.showVoteCounts === true);
  // A voice clip between songs: whose it is, and their note.
  const voice = isVoice(entry) ? voiceWords(entry) : null;
  return {
    title: voice ? voice.title : entry ? entry.track.title : "Between songs",
    artist: voice ? voice.note : entry ? entry.track.artist : "",
    track: entry ? entry.track : null,
    entryKey: entry ? `${entry.id}:${entry.track.id}` : null,
    requests: requests.map((r) => ({
      id: r.id,
      title: r.track.title,
      artist: r.track.artist,
      by: r.requesterName,
      // On the timeline already, the next of the room's songs: votes no longer move it.
      linedUp: Boolean(r.linedUp),
      votes: r.linedUp || !showCounts || r.upvotes == null ? null : r.upvotes - (r.downvotes || 0),
    })),
    mode,
    taking: Boolean(party && party.mode === "requests" && party.settings && party.settings.open),
    frequency: frequency || null,
  };
}

/** The room's words for its mode: the side's heading, its empty line and the join line (pure). */
export function roomWords({ mode, taking }) {
  if (mode === "requests") {
    return {
      heading: "Up next from the room",
      empty: taking ? "No requests yet. Scan the code and ask for a song!" : "No requests waiting. The host has closed requests for now.",
      join: taking ? "Scan to join and request a song" : "Scan to join",
    };
  }
  if (mode === "lobby") {
    return { heading: "The room votes", empty: "Scan the code to vote on the next song, or suggest one, from your phone.", join: "Scan to join, vote and suggest a song" };
  }
  return { heading: "On the air", empty: "The DJ picks the music tonight. Scan the code to tune in on your phone and listen along.", join: "Scan to tune in and listen along" };
}

export function createRoom({ backHref }) {
  const art = h("div", { class: "room-art" });
  const title = h("h2", { class: "room-title" }, "…");
  const artist = h("p", { class: "room-artist" });
  const list = h("ol", { class: "room-requests", "aria-label": "Requests, in the order they will play" });
  const heading = h("h2", { class: "room-heading" }, "Up next from the room");
  const empty = h("p", { class: "room-empty" }, "No requests yet. Scan the code and ask for a song!");
  const qr = h("div", { class: "room-qr" }, h("p", { class: "room-qr-wait" }, "Making the join code…"));
  const joinLine = h("p", { class: "room-join-line" }, "Scan to join");
  const frequency = h("p", { class: "room-frequency" });
  const link = h("p", { class: "room-link" });
  const el = h(
    "section",
    { class: "room", "aria-label": "Party screen", hidden: true },
    h(
      "div",
      { class: "room-now" },
      art,
      h("div", { class: "room-now-text" }, h("p", { class: "room-label" }, "Now playing"), title, artist),
    ),
    h(
      "div",
      { class: "room-side" },
      heading,
      list,
      empty,
      h("div", { class: "room-join" }, qr, h("div", { class: "room-join-text" }, joinLine, frequency, link)),
      h("a", { class: "btn btn-secondary room-exit", href: backHref }, "Back to the station"),
    ),
  );
  let shownEntry;
  let shownRequests = "";

  function render(model) {
    if (model.entryKey !== shownEntry) {
      shownEntry = model.entryKey;
      fill(art, artwork(model.track, { size: "lg", alt: model.track ? `Cover of ${model.track.album || model.track.title}` : "" }));
      setText(title, model.title);
      setText(artist, model.artist);
    }
    const signature = JSON.stringify(model.requests);
    if (signature !== shownRequests) {
      shownRequests = signature;
      fill(
        list,
        model.requests.map((r, index) =>
          h(
            "li",
            { class: `room-request${r.linedUp ? " is-lined-up" : ""}`, dataset: { requestId: r.id } },
            h("span", { class: "room-pos" }, String(index + 1)),
            h(
              "span",
              { class: "room-request-text" },
              r.linedUp ? h("span", { class: "room-request-badge" }, "Playing next") : null,
              h("span", { class: "room-request-title" }, r.title),
              h("span", { class: "room-request-by" }, `${r.artist} · asked by ${r.by}`),
            ),
            r.votes == null ? null : h("span", { class: "room-votes", "aria-label": `${r.votes} votes` }, r.votes > 0 ? `+${r.votes}` : String(r.votes)),
          ),
        ),
      );
      empty.hidden = model.requests.length > 0;
    }
    const words = roomWords(model);
    setText(heading, words.heading);
    setText(empty, words.empty);
    list.hidden = model.mode !== "requests";
    setText(joinLine, words.join);
    setText(frequency, model.frequency ? `${model.frequency} FM` : "");
  }

  /** Shows the join code for `invite` ({token, link}). */
  function showInvite(invite) {
    fill(qr, h("img", { class: "qr-img room-qr-img", src: `/api/invites/${encodeURIComponent(invite.token)}/qr.svg`, alt: "QR code to join this party", width: "240", height: "240" }));
    el.dataset.inviteLink = invite.link;
    setText(link, invite.link.replace(/^https?:\/\//, ""));
  }

  function showInviteError(message) {
    fill(qr, h("p", { class: "room-qr-wait" }, message));
  }

  return { el, render, showInvite, showInviteError };
}
