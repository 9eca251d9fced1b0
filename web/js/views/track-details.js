// A track's details in a dialog, opened from a library row: big artwork,
// title, artist, album, year, length, genre, tempo and format, and its lyrics
// when it has some (GET /api/tracks/{id}, …/artwork, …/lyrics). A DJ gets a
// button that puts it in Up Next from here.

import { api } from "../api/api.js";
import { h, fill, setText, icon, artwork, formatDuration } from "../ui/dom.js";

// LRC time tags ("[01:23.45]") and header tags ("[ar:…]") are for karaoke
// players; read as text, the words are what matters.
function plainLyrics(text) {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/^(\[[^\]]*\])+/, "").trimEnd())
    .filter((line, i, lines) => line || (i > 0 && lines[i - 1]))
    .join("\n")
    .trim();
}

/**
 * Opens the details of `track` (a TrackSummary) in a modal dialog.
 * `add`: {label, isDone: () => bool, run: () => Promise} for a DJ, or null.
 * Resolves when the dialog closes.
 */
export function openTrackDetails(track, { add = null } = {}) {
  return new Promise((resolve) => {
    const opener = document.activeElement;
    const controller = new AbortController();
    const titleID = `track-title-${Math.random().toString(36).slice(2, 8)}`;
    const facts = h("dl", { class: "track-facts" });
    const lyrics = h("div", { class: "track-lyrics" }, h("p", { class: "loading-line" }, "Looking for lyrics…"));
    const status = h("p", { class: "track-status", role: "status", "aria-live": "polite" });
    const close = h("button", { class: "btn-icon btn-close", type: "button", "aria-label": "Close" }, icon("close", { size: 22 }));
    const actions = h("div", { class: "track-actions" });
    let addButton = null;
    if (add) {
      addButton = h("button", { class: "btn btn-primary btn-add-track", type: "button" });
      const renderAdd = (busy = false) => {
        const done = add.isDone();
        fill(addButton, icon(done ? "check" : "plus", { size: 22 }), busy ? "Adding…" : done ? "In Up Next" : add.label);
        addButton.disabled = busy || done;
        addButton.setAttribute("aria-pressed", String(done));
      };
      addButton.addEventListener("click", async () => {
        renderAdd(true);
        try {
          await add.run();
          setText(status, `Added ${track.title} to Up Next.`);
        } catch (error) {
          setText(status, (error && error.message) || "Couldn't add it.");
        } finally {
          renderAdd(false);
        }
      });
      renderAdd();
      actions.append(addButton);
    }
    actions.append(h("button", { class: "btn btn-secondary btn-close-text", type: "button", onclick: () => finish() }, "Close"));

    const dialog = h(
      "dialog",
      { class: "track-dialog", "aria-labelledby": titleID, dataset: { trackId: track.id } },
      h(
        "div",
        { class: "track-head" },
        artwork(track, { size: "detail", alt: `Cover of ${track.album || track.title}` }),
        h(
          "div",
          { class: "track-head-text" },
          h("h2", { id: titleID, class: "track-detail-title" }, track.title),
          h("p", { class: "track-detail-artist" }, track.artist),
          h("p", { class: "track-detail-album" }, [track.album, track.year].filter(Boolean).join(" · ")),
        ),
        close,
      ),
      facts,
      actions,
      status,
      h("h3", { class: "track-lyrics-title" }, "Lyrics"),
      lyrics,
    );

    function fact(name, value) {
      if (value === null || value === undefined || value === "") return [];
      return [h("dt", {}, name), h("dd", {}, String(value))];
    }
    function renderFacts(details) {
      const t = (details && details.track) || track;
      fill(
        facts,
        ...fact("Length", formatDuration(t.durationMs)),
        ...fact("Track", t.trackNumber ? (t.discNumber ? `${t.discNumber}-${t.trackNumber}` : t.trackNumber) : null),
        ...fact("Genre", t.genre),
        ...fact("Tempo", Number.isFinite(t.tempo) ? `${Math.round(t.tempo)} BPM` : null),
        ...fact("Album artist", t.albumArtist && t.albumArtist !== t.artist ? t.albumArtist : null),
        ...fact("Format", details && details.codec && details.codec !== t.format ? `${t.format} · ${details.codec}` : t.format),
      );
    }
    renderFacts(null);

    let closed = false;
    function finish() {
      if (closed) return;
      closed = true;
      controller.abort();
      if (dialog.open) dialog.close();
      dialog.remove();
      if (opener && opener.isConnected) opener.focus({ preventScroll: true });
      resolve();
    }
    close.addEventListener("click", () => finish());
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish();
    });
    dialog.addEventListener("click", (event) => {
      // A tap on the backdrop (outside the box) closes.
      if (event.target !== dialog) return;
      const r = dialog.getBoundingClientRect();
      if (event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom) finish();
    });

    document.body.append(dialog);
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    (addButton && !addButton.disabled ? addButton : close).focus();

    (async () => {
      try {
        const details = await api.track(track.id, { signal: controller.signal });
        if (closed) return;
        renderFacts(details);
        if (!details.hasLyrics) {
          fill(lyrics, h("p", { class: "empty" }, "No lyrics for this track."));
          return;
        }
        const text = await api.lyrics(track.id, { signal: controller.signal });
        if (closed) return;
        const words = text ? plainLyrics(text) : "";
        fill(lyrics, words ? h("p", { class: "lyrics-text" }, words) : h("p", { class: "empty" }, "No lyrics for this track."));
      } catch (error) {
        if (closed || error.name === "AbortError") return;
        fill(lyrics, h("p", { class: "empty" }, "Couldn't load the details: ", error.message));
      }
    })();
  });
}
