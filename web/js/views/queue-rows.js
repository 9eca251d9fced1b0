// One row of Up Next, drawn: its position (or the DJ's drag handle), art,
// title, artist, when it plays and its badge, and for the DJ the buttons
// that move it earlier or later and delete it (each named for the entry).
// Words from the server go in as text; the words are queue-model.js's and
// live-model.js's.

import { h, icon, artwork } from "../ui/dom.js";
import { upNextWhenText, liveWords } from "./station/live-model.js";
import { isVoice, voiceRowText } from "./clips/clips-model.js";
import { voiceArt } from "./clips/voice-art.js";
import { entryName, rowClass, rowWords } from "./queue-model.js";

function iconButton({ className = "btn-icon", label, focusKey, disabled = false, onclick, glyph }) {
  return h("button", { class: className, type: "button", "aria-label": label, dataset: { focusKey }, disabled, onclick }, icon(glyph, { size: 22 }));
}

/** The DJ's move and delete buttons for the entry at `index` of `total`. */
function djButtons(entry, index, total, name, { onMove, onRemove }) {
  return h(
    "span",
    { class: "upnext-actions" },
    iconButton({ label: `Move ${name} earlier`, focusKey: `up:${entry.id}`, disabled: index === 0, onclick: () => onMove(entry, index - 1), glyph: "up" }),
    iconButton({ label: `Move ${name} later`, focusKey: `down:${entry.id}`, disabled: index === total - 1, onclick: () => onMove(entry, index + 1), glyph: "down" }),
    iconButton({ className: "btn-icon btn-danger", label: `Delete ${name} from Up Next`, focusKey: `remove:${entry.id}`, onclick: () => onRemove(entry), glyph: "close" }),
  );
}

/**
 * The row for `entry` at `index` of `total`, with its note from
 * upNextNotes. `owner` shows the DJ's controls; `onDragStart(event, item)`
 * starts a drag from the handle.
 */
export function queueRow(entry, index, total, note, { owner, localTime, onMove, onRemove, onDragStart }) {
  const { track } = entry;
  const live = note.live ? liveWords(entry) : null;
  // A voice clip between songs: "Voice clip · Name" and the note.
  const voice = isVoice(entry) ? voiceRowText(entry) : null;
  const words = rowWords(entry, live, voice);
  const item = h(
    "li",
    { class: rowClass(entry, { live: Boolean(live), voice: Boolean(voice), afterLive: note.afterLive }), dataset: { entryId: entry.id, trackId: track.id } },
    owner
      ? h("span", { class: "drag-handle", "aria-hidden": "true", title: "Drag to reorder", onpointerdown: (e) => onDragStart(e, item) }, icon("drag", { size: 22 }))
      : h("span", { class: "upnext-pos", "aria-hidden": "true" }, String(index + 1)),
    voice ? voiceArt("sm") : artwork(track, { size: "sm" }),
    h(
      "span",
      { class: "upnext-text" },
      h("span", { class: "upnext-title" }, words.title),
      h("span", { class: "upnext-sub" }, words.sub),
      h("span", { class: "upnext-when" }, upNextWhenText(entry, note, localTime), words.badge ? h("span", { class: "dj-badge" }, words.badge) : null),
      words.why ? h("span", { class: "upnext-why" }, words.why) : null,
    ),
  );
  if (owner) item.append(djButtons(entry, index, total, entryName(entry, voice), { onMove, onRemove }));
  return item;
}
