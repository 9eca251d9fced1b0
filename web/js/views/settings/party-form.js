// "Who picks the music": the DJ, the party (listeners request and vote,
// seed 001) or the lobby (the next song is elected, seed 004), with the
// host's rules. The owner changes them and everyone
// listening sees the change at once (PATCH …/party); a co-DJ sees them
// read-only.

import { request } from "../../api/api.js";
import { h } from "../../ui/dom.js";
import { isOwner } from "./state.js";
import { errorText, say, status } from "./widgets.js";
import { createPlaylistPanel, playlistWords } from "./playlist-panel.js";

const MODES = [
  { value: "dj", label: "The DJ", line: "You and your co-DJs pick; the robot DJ fills the gaps." },
  { value: "requests", label: "The party", line: "Listeners request songs and vote; fair turns, and you can override." },
  { value: "lobby", label: "The lobby", line: "Everyone votes on the next song; picks the room liked count for more." },
];

// Seed 004's lobby types; each sets sensible defaults (the server's presets).
const KINDS = [
  { value: "party", label: "Party", line: "Chat and lyrics on." },
  { value: "gym", label: "Gym", line: "Short tracks, no reading; the room votes the level." },
  { value: "car", label: "Car", line: "Nothing to read but lyrics; the room votes the level." },
  { value: "radio", label: "Radio", line: "One request each, long memory for repeats." },
];

// Loudness targets in LUFS: every song is brought to this level.
const TARGETS = [
  { value: -23, label: "Broadcast, −23 LUFS (quiet, most headroom)" },
  { value: -18, label: "Gentle, −18 LUFS" },
  { value: -14, label: "Streaming, −14 LUFS (default)" },
  { value: -11, label: "Loud, −11 LUFS" },
  { value: -9, label: "Club, −9 LUFS" },
];

const SAVED = {
  dj: "Saved. The DJ picks the music.",
  requests: "Saved. Listeners can request and vote now.",
  lobby: "Saved. The next song goes to a vote when the next one starts.",
};

export function createPartyForm(state) {
  const modeInputs = MODES.map((m) =>
    h("input", { type: "radio", name: `mode-${state.stationID}`, value: m.value, id: `mode-${m.value}`, class: "vis-radio", "aria-describedby": `mode-${m.value}-line` }),
  );
  const modeFieldset = h(
    "fieldset",
    { class: "vis-group" },
    h("legend", { class: "label vis-legend" }, "Who picks the music"),
    MODES.map((m, i) =>
      h(
        "label",
        { class: "vis-option", for: `mode-${m.value}`, dataset: { value: m.value } },
        modeInputs[i],
        h("span", { class: "vis-text" }, h("span", { class: "vis-label" }, m.label), h("span", { class: "vis-line", id: `mode-${m.value}-line` }, m.line)),
      ),
    ),
  );
  const perPerson = h("select", { id: "party-per-person", class: "input" }, [1, 2, 3, 5, 10].map((n) => h("option", { value: String(n) }, String(n))));
  const showCounts = h("input", { id: "party-show-counts", type: "checkbox" });
  const open = h("input", { id: "party-open", type: "checkbox" });
  const kind = h("select", { id: "party-kind", class: "input", "aria-describedby": "party-kind-line" }, KINDS.map((k) => h("option", { value: k.value }, k.label)));
  const kindLine = h("p", { class: "hint", id: "party-kind-line" });
  const chat = h("input", { id: "party-chat", type: "checkbox" });
  const guestChat = h("input", { id: "party-guest-chat", type: "checkbox", "aria-describedby": "party-guest-chat-line" });
  const guestClips = h("input", { id: "party-guest-clips", type: "checkbox", "aria-describedby": "party-guest-clips-line" });
  const lyrics = h("input", { id: "party-lyrics", type: "checkbox" });
  const volumeVoting = h("input", { id: "party-volume-voting", type: "checkbox" });
  const target = h("select", { id: "party-target", class: "input" }, TARGETS.map((t) => h("option", { value: String(t.value) }, t.label)));
  // Requests (or a lobby's suggestions) only from the station's playlist:
  // the host's playlist at a party, the base playlist in a lobby.
  const poolOnly = h("input", { id: "party-pool-only", type: "checkbox", "aria-describedby": "party-pool-only-line" });
  const poolOnlyLabel = h("span", { class: "pool-only-label" });
  const poolOnlyLine = h("p", { class: "hint", id: "party-pool-only-line" });
  const playlist = createPlaylistPanel(state);
  const saveButton = h("button", { class: "btn btn-primary btn-wide", type: "submit" }, "Save");
  const partyStatus = status("party-status");
  const coNote = h("p", { class: "hint codj-note" }, "Only the owner can change these.");
  const form = { modeInputs, perPerson, showCounts, open, kind, kindLine, chat, guestChat, guestClips, lyrics, volumeVoting, target, poolOnly, poolOnlyLabel, poolOnlyLine, playlist, saveButton, partyStatus, coNote, party: null };
  kind.addEventListener("change", () => applyKind(state, form));
  // The playlist's words follow the mode picked, saved or not.
  for (const input of modeInputs) input.addEventListener("change", () => renderPlaylistWords(form));
  form.el = h(
    "form",
    { class: "panel party-form", "aria-labelledby": "party-form-heading", novalidate: true, onsubmit: (e) => saveParty(state, form, e) },
    h("h2", { id: "party-form-heading", class: "section-title" }, "The party"),
    coNote,
    modeFieldset,
    h("label", { class: "check-row", for: "party-open" }, open, " Take requests now"),
    h("label", { for: "party-per-person", class: "label" }, "Requests waiting per person"),
    perPerson,
    h("label", { class: "check-row", for: "party-pool-only" }, poolOnly, " ", poolOnlyLabel),
    poolOnlyLine,
    h("label", { class: "check-row", for: "party-show-counts" }, showCounts, " Show vote counts to everyone"),
    h("p", { class: "hint" }, "Hidden by default, so moving a song up doesn't look strange. You and your co-DJs always see them."),
    h("label", { for: "party-kind", class: "label" }, "Room type"),
    kind,
    kindLine,
    h("label", { class: "check-row", for: "party-chat" }, chat, " Chat"),
    h("label", { class: "check-row", for: "party-guest-chat" }, guestChat, " Guests may chat"),
    h("p", { class: "hint", id: "party-guest-chat-line" }, "Guests join with a name only. Off, they read the chat but only people with an account write."),
    h("label", { class: "check-row", for: "party-guest-clips" }, guestClips, " Listeners may send voice clips"),
    h("p", { class: "hint", id: "party-guest-clips-line" }, "Shout-outs of up to 30 seconds wait in your booth's clip inbox until you approve them; then they play between songs."),
    h("label", { class: "check-row", for: "party-lyrics" }, lyrics, " Lyrics in sync"),
    h("label", { class: "check-row", for: "party-volume-voting" }, volumeVoting, " Listeners vote the level up and down"),
    h("label", { for: "party-target", class: "label" }, "Every song plays at"),
    target,
    saveButton,
    partyStatus,
  );
  // The form, then the playlist it may limit requests to (a panel of its
  // own: its search isn't part of the form's Save).
  form.el = h("div", { class: "party-settings" }, form.el, playlist.el);
  renderPlaylistWords(form);
  return form;
}

/** Loads the party's rules into the form. */
export async function loadParty(state, form) {
  try {
    form.party = await request(`${state.base}/party`);
  } catch (error) {
    say(form.partyStatus, errorText(error), "error");
    return;
  }
  renderParty(state, form);
  form.playlist.load();
}

export function renderParty(state, form) {
  const owner = isOwner(state);
  form.coNote.hidden = owner;
  for (const input of [...form.modeInputs, form.perPerson, form.showCounts, form.poolOnly, form.open, form.kind, form.chat, form.guestChat, form.guestClips, form.lyrics, form.volumeVoting, form.target]) {
    input.disabled = !owner;
  }
  form.saveButton.hidden = !owner;
  const party = form.party;
  if (!party) return;
  for (const input of form.modeInputs) input.checked = input.value === party.mode;
  form.open.checked = Boolean(party.settings.open);
  form.showCounts.checked = Boolean(party.settings.showVoteCounts);
  form.poolOnly.checked = Boolean(party.settings.poolOnly);
  const per = String(party.settings.maxPendingPerPerson);
  if (![...form.perPerson.options].some((o) => o.value === per)) form.perPerson.append(h("option", { value: per }, per));
  form.perPerson.value = per;
  const settings = party.settings;
  form.kind.value = settings.kind || "party";
  const kind = KINDS.find((k) => k.value === form.kind.value);
  form.kindLine.textContent = kind ? kind.line : "";
  form.chat.checked = settings.chat !== false;
  form.guestChat.checked = settings.guestChat !== false;
  form.guestClips.checked = settings.guestClips === true;
  form.lyrics.checked = settings.lyrics !== false;
  form.volumeVoting.checked = Boolean(settings.volumeVoting);
  const lufs = String(typeof settings.loudnessTarget === "number" ? settings.loudnessTarget : -14);
  if (![...form.target.options].some((o) => o.value === lufs)) form.target.append(h("option", { value: lufs }, `${lufs} LUFS`));
  form.target.value = lufs;
  renderPlaylistWords(form);
}

/** The mode picked on the form (saved or not). */
function pickedMode(form) {
  const picked = form.modeInputs.find((i) => i.checked);
  return picked ? picked.value : form.party ? form.party.mode : "dj";
}

/** "Requests only from the host's playlist" at a party, "…the base playlist" in a lobby. */
function renderPlaylistWords(form) {
  const words = playlistWords(pickedMode(form));
  form.poolOnlyLabel.textContent = words.onlyLabel;
  form.poolOnlyLine.textContent = words.onlyLine;
  form.playlist.setMode(pickedMode(form));
}

/**
 * The form's values for the settings a room type's preset leaves alone (the
 * server's LobbyKind.preset sets chat, lyrics, the level vote and requests
 * per person; the rest are the host's), as they are on screen now, saved or
 * not: {name: value}.
 */
export function unpresetValues(form) {
  const picked = form.modeInputs.find((i) => i.checked);
  return {
    mode: picked ? picked.value : null,
    open: form.open.checked,
    showCounts: form.showCounts.checked,
    guestChat: form.guestChat.checked,
    guestClips: form.guestClips.checked,
    poolOnly: form.poolOnly ? form.poolOnly.checked : null,
    target: form.target.value,
  };
}

/** Puts `values` (from unpresetValues) back on the form; answers whether any differs from what the server holds. */
function restoreUnpreset(form, values) {
  const before = JSON.stringify(unpresetValues(form));
  if (values.mode) for (const input of form.modeInputs) input.checked = input.value === values.mode;
  form.open.checked = values.open;
  form.showCounts.checked = values.showCounts;
  form.guestChat.checked = values.guestChat;
  form.guestClips.checked = values.guestClips;
  if (form.poolOnly && values.poolOnly !== null) form.poolOnly.checked = values.poolOnly;
  form.target.value = values.target;
  return JSON.stringify(unpresetValues(form)) !== before;
}

/**
 * A room type is a preset: it applies at once, and the form shows what it
 * set. What the preset doesn't own (who picks the music, taking requests,
 * vote counts, guests, the level) stays as the host left it on screen,
 * saved or not: the Save button still saves it.
 */
async function applyKind(state, form) {
  if (!isOwner(state)) return;
  const kind = form.kind.value;
  const unsaved = unpresetValues(form);
  say(form.partyStatus, "Saving…");
  try {
    form.party = await request(`${state.base}/party`, { method: "PATCH", body: { kind } });
    renderParty(state, form);
    const pending = restoreUnpreset(form, unsaved);
    renderPlaylistWords(form);
    const label = (KINDS.find((k) => k.value === kind) || KINDS[0]).label;
    say(form.partyStatus, `Saved. ${label} defaults are set; change any of them below.${pending ? " Your other changes aren't saved yet: press Save." : ""}`);
  } catch (error) {
    say(form.partyStatus, errorText(error), "error");
  }
}

async function saveParty(state, form, event) {
  event.preventDefault();
  if (!isOwner(state)) return;
  const picked = form.modeInputs.find((i) => i.checked);
  const body = {
    mode: picked ? picked.value : "dj",
    open: form.open.checked,
    showVoteCounts: form.showCounts.checked,
    poolOnly: form.poolOnly.checked,
    maxPendingPerPerson: Number(form.perPerson.value),
    chat: form.chat.checked,
    guestChat: form.guestChat.checked,
    guestClips: form.guestClips.checked,
    lyrics: form.lyrics.checked,
    volumeVoting: form.volumeVoting.checked,
    loudnessTarget: Number(form.target.value),
  };
  form.saveButton.disabled = true;
  say(form.partyStatus, "Saving…");
  try {
    form.party = await request(`${state.base}/party`, { method: "PATCH", body });
    renderParty(state, form);
    say(form.partyStatus, SAVED[body.mode] || SAVED.dj);
  } catch (error) {
    say(form.partyStatus, errorText(error), "error");
  } finally {
    form.saveButton.disabled = false;
  }
}
