// "Who picks the music": the DJ, the party (listeners request and vote,
// seed 001) or the lobby (the next song is elected, seed 004), with the
// host's rules. The owner changes them and everyone
// listening sees the change at once (PATCH …/party); a co-DJ sees them
// read-only.

import { request } from "../../api/api.js";
import { h } from "../../ui/dom.js";
import { isOwner } from "./state.js";
import { errorText, say, status } from "./widgets.js";

const MODES = [
  { value: "dj", label: "The DJ", line: "You and your co-DJs pick; the robot DJ fills the gaps." },
  { value: "requests", label: "The party", line: "Listeners request songs and vote; fair turns, and you can override." },
  { value: "lobby", label: "The lobby", line: "Everyone votes on the next song; picks the room liked count for more." },
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
  const saveButton = h("button", { class: "btn btn-primary btn-wide", type: "submit" }, "Save");
  const partyStatus = status("party-status");
  const coNote = h("p", { class: "hint codj-note" }, "Only the owner can change these.");
  const form = { modeInputs, perPerson, showCounts, open, saveButton, partyStatus, coNote, party: null };
  form.el = h(
    "form",
    { class: "panel party-form", "aria-labelledby": "party-form-heading", novalidate: true, onsubmit: (e) => saveParty(state, form, e) },
    h("h2", { id: "party-form-heading", class: "section-title" }, "The party"),
    coNote,
    modeFieldset,
    h("label", { class: "check-row", for: "party-open" }, open, " Take requests now"),
    h("label", { for: "party-per-person", class: "label" }, "Requests waiting per person"),
    perPerson,
    h("label", { class: "check-row", for: "party-show-counts" }, showCounts, " Show vote counts to everyone"),
    h("p", { class: "hint" }, "Hidden by default, so moving a song up doesn't look strange. You and your co-DJs always see them."),
    saveButton,
    partyStatus,
  );
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
}

export function renderParty(state, form) {
  const owner = isOwner(state);
  form.coNote.hidden = owner;
  for (const input of [...form.modeInputs, form.perPerson, form.showCounts, form.open]) input.disabled = !owner;
  form.saveButton.hidden = !owner;
  const party = form.party;
  if (!party) return;
  for (const input of form.modeInputs) input.checked = input.value === party.mode;
  form.open.checked = Boolean(party.settings.open);
  form.showCounts.checked = Boolean(party.settings.showVoteCounts);
  const per = String(party.settings.maxPendingPerPerson);
  if (![...form.perPerson.options].some((o) => o.value === per)) form.perPerson.append(h("option", { value: per }, per));
  form.perPerson.value = per;
}

async function saveParty(state, form, event) {
  event.preventDefault();
  if (!isOwner(state)) return;
  const picked = form.modeInputs.find((i) => i.checked);
  const body = {
    mode: picked ? picked.value : "dj",
    open: form.open.checked,
    showVoteCounts: form.showCounts.checked,
    maxPendingPerPerson: Number(form.perPerson.value),
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
