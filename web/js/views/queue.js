// Up Next. Listeners see the order; the DJ (the owner or a co-DJ) can also
// delete any upcoming entry and move entries by dragging the handle or with
// the up/down buttons. The role can change while the list is shown
// (setOwner), when the owner grants or takes back co-DJ. Songs queued behind
// a live show say "after the live show" (while its source is connected the
// show ends a day from now, and so would their start times).

import { h, fill, icon, artwork } from "../ui/dom.js";
import { upNextNotes, upNextWhenText, liveWords } from "./station/live-model.js";
import { isVoice, voiceRowText } from "./clips/clips-model.js";
import { voiceArt } from "./clips/voice-art.js";

/**
 * @param {{ owner: boolean, onRemove: (entry) => void, onMove: (entry, toIndex: number) => void,
 *           localTime: (serverMs: number) => string }} options
 */
export function createQueue({ owner: canEdit, onRemove, onMove, localTime }) {
  let owner = Boolean(canEdit);
  const list = h("ol", { class: "upnext", "aria-labelledby": "upnext-heading" });
  const empty = h("p", { class: "empty upnext-empty" }, "Nothing lined up yet.");
  const count = h("span", { class: "count-pill" });
  const el = h(
    "section",
    { class: "panel queue-panel", "aria-labelledby": "upnext-heading" },
    h("h2", { id: "upnext-heading", class: "section-title" }, "Up Next ", count),
    list,
    empty,
  );
  let entries = [];
  let signature = "";
  let drag = null;
  // An update that arrives mid-drag waits for the drop: redrawing the rows
  // would pull the dragged row (and its pointer capture) out from under the
  // finger, and the drop would be lost.
  let deferred = null;

  // The entry on the air, for the notes: is a live show ahead of the list?
  let current = null;

  /** Shows `upcoming` (in play order) behind `onAir`, the entry on the air now. */
  function render(upcoming, onAir = current) {
    current = onAir || null;
    if (drag) {
      deferred = upcoming;
      return;
    }
    const notes = upNextNotes(current, upcoming);
    const next = `${upcoming.map((e, i) => `${e.id}@${e.start}${notes[i].afterLive ? "~" : ""}`).join(",")}|${owner}`;
    if (next === signature) return;
    signature = next;
    entries = upcoming;
    // Keep keyboard focus on the same control across re-renders.
    const active = document.activeElement;
    const focusKey = active && list.contains(active) ? active.dataset.focusKey : null;
    fill(list, upcoming.map((entry, index) => row(entry, index, upcoming.length, notes[index])));
    empty.hidden = upcoming.length > 0;
    count.textContent = upcoming.length ? String(upcoming.length) : "";
    if (focusKey) {
      const again = list.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: false });
      else {
        const fallback = list.querySelector("button:not([disabled])");
        if (fallback) fallback.focus();
      }
    }
  }

  function row(entry, index, total, note) {
    const { track } = entry;
    const live = note.live ? liveWords(entry) : null;
    // A voice clip between songs: "Voice clip · Name" and the note.
    const voice = isVoice(entry) ? voiceRowText(entry) : null;
    const item = h(
      "li",
      {
        class: `upnext-row${entry.source === "dj" ? " is-dj" : ""}${live ? " is-live" : ""}${voice ? " is-voice" : ""}${note.afterLive ? " is-after-live" : ""}`,
        dataset: { entryId: entry.id, trackId: track.id },
      },
      owner
        ? h(
            "span",
            { class: "drag-handle", "aria-hidden": "true", title: "Drag to reorder", onpointerdown: (e) => startDrag(e, item, index) },
            icon("drag", { size: 22 }),
          )
        : h("span", { class: "upnext-pos", "aria-hidden": "true" }, String(index + 1)),
      voice ? voiceArt("sm") : artwork(track, { size: "sm" }),
      h(
        "span",
        { class: "upnext-text" },
        h("span", { class: "upnext-title" }, live ? live.title : voice ? voice.title : track.title),
        h("span", { class: "upnext-sub" }, live ? live.dj : voice ? voice.sub : track.artist),
        h(
          "span",
          { class: "upnext-when" },
          upNextWhenText(entry, note, localTime),
          entry.source === "dj" ? h("span", { class: "dj-badge" }, "DJ pick") : null,
          entry.source === "elected" ? h("span", { class: "dj-badge" }, "Voted in") : null,
        ),
        // The robot says why it picked a song once it has learned the room.
        // (A live show's "why" is its title, shown already.)
        entry.why && !live && !voice ? h("span", { class: "upnext-why" }, entry.why) : null,
      ),
    );
    if (owner) {
      const name = voice ? `the voice clip from ${track.artist}` : `${track.title} by ${track.artist}`;
      item.append(
        h(
          "span",
          { class: "upnext-actions" },
          h(
            "button",
            {
              class: "btn-icon",
              type: "button",
              "aria-label": `Move ${name} earlier`,
              dataset: { focusKey: `up:${entry.id}` },
              disabled: index === 0,
              onclick: () => onMove(entry, index - 1),
            },
            icon("up", { size: 22 }),
          ),
          h(
            "button",
            {
              class: "btn-icon",
              type: "button",
              "aria-label": `Move ${name} later`,
              dataset: { focusKey: `down:${entry.id}` },
              disabled: index === total - 1,
              onclick: () => onMove(entry, index + 1),
            },
            icon("down", { size: 22 }),
          ),
          h(
            "button",
            {
              class: "btn-icon btn-danger",
              type: "button",
              "aria-label": `Delete ${name} from Up Next`,
              dataset: { focusKey: `remove:${entry.id}` },
              onclick: () => onRemove(entry),
            },
            icon("close", { size: 22 }),
          ),
        ),
      );
    }
    return item;
  }

  // Pointer dragging (mouse, touch and pen alike).
  function startDrag(event, item, index) {
    if (event.button !== undefined && event.button !== 0) return;
    event.preventDefault();
    const rows = [...list.children];
    const rects = rows.map((r) => r.getBoundingClientRect());
    drag = { item, index, entry: entries[index], target: index, startY: event.clientY, rows, rects, pointerId: event.pointerId };
    item.classList.add("is-dragging");
    list.classList.add("is-sorting");
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.addEventListener("pointermove", moveDrag);
    event.currentTarget.addEventListener("pointerup", endDrag, { once: true });
    event.currentTarget.addEventListener("pointercancel", endDrag, { once: true });
  }

  function moveDrag(event) {
    if (!drag) return;
    const dy = event.clientY - drag.startY;
    drag.item.style.transform = `translateY(${dy}px)`;
    const mid = drag.rects[drag.index].top + drag.rects[drag.index].height / 2 + dy;
    let target = 0;
    drag.rects.forEach((rect, i) => {
      if (i !== drag.index && mid > rect.top + rect.height / 2) target += 1;
    });
    drag.target = target;
    const height = drag.rects[drag.index].height;
    drag.rows.forEach((r, i) => {
      if (i === drag.index) return;
      let shift = 0;
      if (drag.index < target && i > drag.index && i <= target) shift = -height;
      if (drag.index > target && i < drag.index && i >= target) shift = height;
      r.style.transform = shift ? `translateY(${shift}px)` : "";
    });
  }

  function endDrag(event) {
    event.currentTarget.removeEventListener("pointermove", moveDrag);
    if (!drag) return;
    const { index, entry, target, rows, item } = drag;
    drag = null;
    list.classList.remove("is-sorting");
    item.classList.remove("is-dragging");
    for (const r of rows) r.style.transform = "";
    const waiting = deferred;
    deferred = null;
    if (target !== index) {
      // Show the new order at once; the server's update confirms it.
      const moved = rows[index];
      const ref = rows.filter((r) => r !== moved)[target];
      list.insertBefore(moved, ref || null);
      const snapshot = waiting || entries;
      Promise.resolve(onMove(entry, target)).catch(() => {
        signature = "";
        render(snapshot);
      });
    }
    // The server's next update (or its refusal) redraws in the right order;
    // an update that came during the drag is drawn now, unless it is older
    // than the move just sent, which the server's answer replaces anyway.
    if (waiting && target === index) render(waiting);
  }

  /** Shows or hides the DJ's controls; the next render redraws the rows. */
  function setOwner(value) {
    const next = Boolean(value);
    if (next === owner) return;
    owner = next;
    if (!owner && drag) {
      drag.item.classList.remove("is-dragging");
      list.classList.remove("is-sorting");
      drag = null;
      if (deferred) entries = deferred;
      deferred = null;
    }
    signature = "";
    render(entries);
  }

  return { el, render, setOwner };
}
