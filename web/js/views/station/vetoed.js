// The songs the host vetoed (PartyView.vetoed, sent only to the host and
// co-DJs), in every mode: a veto holds for requests, the robot DJ and the
// lobby's ballots. A small list under the party's panel; long, it starts
// folded. "Lift" sends `liftVeto`, and the song may be asked for again.
//
// `vetoedModel` is pure; `createVetoedPanel` builds the DOM. Titles and
// artists go in as text.

import { h, fill, artwork } from "../../ui/dom.js";

/** Folded at first when the list is longer than this. */
export const FOLD_AFTER = 3;

/** What the list shows: only for staff, only when something is vetoed. */
export function vetoedModel(party, { staff = false } = {}) {
  const tracks = staff && party && Array.isArray(party.vetoed) ? party.vetoed.filter((t) => t && t.id) : [];
  return { visible: tracks.length > 0, tracks, count: tracks.length, folded: tracks.length > FOLD_AFTER };
}

/** @param {{ onLift: (track) => Promise }} actions */
export function createVetoedPanel(actions) {
  const count = h("span", { class: "count-pill" });
  const list = h("ul", { class: "vetoed-list", "aria-label": "Vetoed songs" });
  const hint = h("p", { class: "hint vetoed-hint" }, "Nobody can ask for these, and the robot and the lobby leave them out. Lift a veto to allow a song again.");
  const summary = h("summary", { class: "vetoed-summary" }, h("span", { id: "vetoed-heading" }, "Vetoed"), " ", count);
  const details = h("details", { class: "vetoed-details" }, summary, hint, list);
  const el = h("section", { class: "panel vetoed-panel", "aria-labelledby": "vetoed-heading", hidden: true }, details);
  let signature = "";
  // Opened or folded by the host: kept; otherwise folded when long.
  let touched = false;
  summary.addEventListener("click", () => {
    touched = true;
  });

  function row(track) {
    return h(
      "li",
      { class: "vetoed-row", dataset: { trackId: track.id } },
      artwork(track, { size: "sm" }),
      h("span", { class: "track-text" }, h("span", { class: "track-title" }, track.title || "Untitled"), h("span", { class: "track-artist" }, track.artist || "")),
      h(
        "button",
        {
          class: "btn-text btn-lift-veto",
          type: "button",
          dataset: { focusKey: `lift:${track.id}` },
          "aria-label": `Lift the veto: ${track.title || "Untitled"}`,
          onclick: (event) => {
            const button = event.currentTarget;
            button.disabled = true;
            actions.onLift(track).catch(() => {
              button.disabled = false;
            });
          },
        },
        "Lift",
      ),
    );
  }

  /** Shows `model` (see vetoedModel). */
  function render(model) {
    const focusInside = el.contains(document.activeElement);
    el.hidden = !model.visible;
    if (!model.visible) {
      // Nothing vetoed (the last one lifted): no rows left behind, hidden.
      if (signature) {
        const hadFocus = focusInside;
        fill(list);
        signature = "";
        // Focus goes on to what follows (Up Next), not lost to the page.
        if (hadFocus) {
          const next = el.nextElementSibling && el.nextElementSibling.querySelector("button:not([disabled]), a[href], input, [tabindex]");
          if (next) next.focus();
        }
      }
      return;
    }
    count.textContent = String(model.count);
    const next = JSON.stringify(model.tracks.map((t) => [t.id, t.title, t.artist]));
    if (next === signature) return;
    signature = next;
    if (!touched) details.open = !model.folded;
    // Focus on a lifted song's button goes to the list's next one (or the summary).
    const hadFocus = list.contains(document.activeElement);
    fill(list, model.tracks.map(row));
    if (hadFocus) (list.querySelector(".btn-lift-veto") || summary).focus();
  }

  return { el, render };
}
