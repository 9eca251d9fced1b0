// Up Next. Listeners see the order; the DJ (the owner or a co-DJ) can also
// delete any upcoming entry and move entries by dragging the handle or with
// the up/down buttons. The role can change while the list is shown
// (setOwner), when the owner grants or takes back co-DJ. Songs queued behind
// a live show say "after the live show" (while its source is connected the
// show ends a day from now, and so would their start times).
//
// This file holds the controller (drawing when the list changes, keeping
// focus, dragging, the DJ's role); a row is queue-rows.js and the
// decisions queue-model.js.

import { h, fill } from "../ui/dom.js";
import { upNextNotes } from "./station/live-model.js";
import { dropTarget, queueSignature, rowShift } from "./queue-model.js";
import { queueRow } from "./queue-rows.js";

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
    const next = queueSignature(upcoming, notes, owner);
    if (next === signature) return;
    signature = next;
    entries = upcoming;
    // Keep keyboard focus on the same control across re-renders.
    const active = document.activeElement;
    const focusKey = active && list.contains(active) ? active.dataset.focusKey : null;
    const onDragStart = (index) => (event, item) => startDrag(event, item, index);
    fill(
      list,
      upcoming.map((entry, index) => queueRow(entry, index, upcoming.length, notes[index], { owner, localTime, onMove, onRemove, onDragStart: onDragStart(index) })),
    );
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
    const target = dropTarget(drag.rects, drag.index, dy);
    drag.target = target;
    const height = drag.rects[drag.index].height;
    drag.rows.forEach((r, i) => {
      if (i === drag.index) return;
      const shift = rowShift(i, drag.index, target, height);
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
