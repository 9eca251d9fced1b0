// Which playback engine runs ("Sync: Web Audio" or "Sync: basic"): a
// detail for the curious, folded away, not something every listener must
// read.

import { h, setText } from "../../ui/dom.js";
import { MODE_LABELS } from "../../playback/player.js";

export function createPlaybackDetails(player) {
  const syncMode = h("p", { class: "sync-mode", dataset: { mode: player.mode } }, MODE_LABELS[player.mode] || player.mode);
  const el = h("details", { class: "sync-details" }, h("summary", { class: "sync-summary" }, "Playback details"), syncMode);
  return { el, syncMode };
}

export function renderPlaybackMode(details, player) {
  details.syncMode.dataset.mode = player.mode;
  setText(details.syncMode, MODE_LABELS[player.mode] || player.mode);
}
