// The room's level (seed 004's volume control): listeners vote it a step
// louder or quieter, and when enough of the room agrees every player moves
// to the new level at the same instant. The host and co-DJs can set it back
// to the station's loudness at once.
//
// `levelModel` is pure (what to show); `createLevelPanel` builds the DOM and
// `render` fills it.

import { h } from "../../ui/dom.js";

/** What the level row shows, from the session's party. */
export function levelModel(party, { named = false, staff = false } = {}) {
  const volume = party && party.mode !== "dj" ? party.volume : null;
  if (!volume) return { visible: false };
  return {
    visible: true,
    named,
    staff,
    level: volume.levelDb,
    up: volume.up,
    down: volume.down,
    needed: volume.needed,
    mine: volume.mine || null,
    // Only the copy sent to you (it has your votes) says what your vote is.
    personal: party.myVotes != null,
    canGoUp: Boolean(volume.canGoUp),
    canGoDown: Boolean(volume.canGoDown),
  };
}

/** "+3 dB", "0 dB", "−6 dB" (a real minus sign). */
export function levelText(db) {
  const rounded = Math.round(db * 10) / 10;
  if (rounded === 0) return "0 dB";
  return `${rounded > 0 ? "+" : "−"}${Math.abs(rounded)} dB`;
}

/** "1 of 2 want it louder", or the quiet line when nobody voted. */
export function tallyText(model) {
  if (model.up === 0 && model.down === 0) return model.needed === 1 ? "1 vote moves it a step" : `${model.needed} votes move it a step`;
  const parts = [];
  if (model.up) parts.push(`${model.up} of ${model.needed} want it louder`);
  if (model.down) parts.push(`${model.down} of ${model.needed} want it quieter`);
  return parts.join(" · ");
}

/** @param {{ onVote: (up: boolean|null) => Promise, onReset: () => Promise }} actions */
export function createLevelPanel(actions) {
  const value = h("span", { class: "level-value" });
  const tally = h("span", { class: "level-tally", "aria-live": "polite" });
  const quieter = h("button", { class: "btn-level btn-level-down", type: "button", "aria-label": "Vote quieter" }, "− Quieter");
  const louder = h("button", { class: "btn-level btn-level-up", type: "button", "aria-label": "Vote louder" }, "+ Louder");
  const reset = h("button", { class: "btn-text btn-level-reset", type: "button", hidden: true }, "Reset level");
  const buttons = h("span", { class: "level-buttons", role: "group", "aria-label": "The room's level" }, quieter, louder, reset);
  const el = h(
    "div",
    { class: "room-level", hidden: true, role: "group", "aria-labelledby": "room-level-label" },
    h("span", { class: "level-label", id: "room-level-label" }, "Room level ", value),
    buttons,
    tally,
  );
  // Your own vote: the party sent to everyone leaves it out; the copy the
  // server sends you after you vote (and on joining) carries it. It is
  // forgotten when the level moves and every vote starts afresh.
  let mine = null;
  let level = null;
  const vote = (direction) => {
    const next = mine === direction ? null : direction;
    actions.onVote(next === null ? null : next === "up").catch(() => {});
  };
  quieter.addEventListener("click", () => vote("down"));
  louder.addEventListener("click", () => vote("up"));
  reset.addEventListener("click", () => actions.onReset().catch(() => {}));

  /** A new state of the room: your vote is forgotten once the votes start afresh. */
  function render(model) {
    if (model.visible) {
      if (model.personal) mine = model.mine;
      else if ((level !== null && model.level !== level) || (model.up === 0 && model.down === 0)) mine = null;
      level = model.level;
    }
    paint(model);
  }

  function paint(model) {
    el.hidden = !model.visible;
    if (!model.visible) return;
    model = { ...model, mine };
    value.textContent = levelText(model.level);
    tally.textContent = tallyText(model);
    quieter.hidden = louder.hidden = !model.named;
    quieter.setAttribute("aria-pressed", String(model.mine === "down"));
    louder.setAttribute("aria-pressed", String(model.mine === "up"));
    quieter.disabled = !model.canGoDown && model.mine !== "down";
    louder.disabled = !model.canGoUp && model.mine !== "up";
    reset.hidden = !model.staff || model.level === 0;
  }

  return { el, render };
}
