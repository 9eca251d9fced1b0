// The library browser in the DJ booth: each track's Up Next toggle (busy
// while the booth adds or takes it off, "Queued" once it is in, its row
// marked while it is on the air) and the details dialog's add button. The
// queue itself is the booth's ({isQueued, isOnAir, toggle}); the toggle's
// look is library-rows.js's showToggle.

import { showToggle, toggleButton } from "./library-rows.js";

/**
 * The booth's side of a library browser whose element is `root()`:
 * {detailsAdd(track), toggleFor(track), refreshAll()}. `queue` may be null
 * (no toggles); `addFromDetails(track)` then gives the details' add button.
 */
export function libraryQueue({ queue, addFromDetails, root }) {
  const pending = new Set();

  function updateToggle(button) {
    const id = button.dataset.trackId;
    showToggle(button, { queued: queue.isQueued(id), busy: pending.has(id), onAir: queue.isOnAir(id) });
  }

  function refreshAll() {
    if (!queue) return;
    for (const button of root().querySelectorAll(".btn-toggle")) updateToggle(button);
  }

  /** The details dialog's add button: the booth's queue's, or the one given. */
  function detailsAdd(track) {
    if (queue) {
      return {
        label: "Add to Up Next",
        isDone: () => queue.isQueued(track.id),
        run: async () => {
          if (!queue.isQueued(track.id)) await queue.toggle(track);
          refreshAll();
        },
      };
    }
    return addFromDetails ? addFromDetails(track) : null;
  }

  /** A track's Up Next toggle (null without a queue). */
  function toggleFor(track) {
    if (!queue) return null;
    const button = toggleButton(track);
    button.addEventListener("click", async () => {
      if (pending.has(track.id)) return;
      pending.add(track.id);
      updateToggle(button);
      try {
        await queue.toggle(track);
      } catch {
        // The booth reports errors.
      } finally {
        pending.delete(track.id);
        updateToggle(button);
      }
    });
    updateToggle(button);
    return button;
  }

  return { detailsAdd, toggleFor, refreshAll };
}
