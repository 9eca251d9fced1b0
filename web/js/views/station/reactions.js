// Reactions to the song playing, in every mode: thumbs up or down (one per
// person, changeable) and ♥ to save it to your liked songs. The owner and
// co-DJs also see the room's thumbs. Needs a name (signed in or a guest):
// a listener without one sees nothing here.

import { request } from "../../api/api.js";
import { h, icon } from "../../ui/dom.js";
import { toast } from "../../ui/toast.js";

/** What the reactions row shows (pure). */
export function reactionsModel({ entry, named, myThumbs, liked, counts, staff }) {
  // A voice clip between songs isn't a song to thumb or save.
  if (!entry || !named || entry.source === "voice") return { visible: false };
  const thumb = myThumbs.get(entry.id);
  return {
    visible: true,
    entryID: entry.id,
    trackID: entry.track.id,
    title: entry.track.title,
    up: thumb === true,
    down: thumb === false,
    liked: liked.has(entry.track.id),
    counts: staff && counts && counts.entryID === entry.id ? `▲ ${counts.up} · ▼ ${counts.down}` : null,
  };
}

/** @param {{ onThumb: (entryID, up: boolean|null) => Promise, onLike: (trackID, like: boolean) => Promise }} actions */
export function createReactions(actions) {
  let model = { visible: false };
  const button = (cls, label, text, onclick) =>
    h("button", { class: `btn-react ${cls}`, type: "button", "aria-pressed": "false", "aria-label": label, onclick }, text);
  // The app's own ▲ and ▼, like the vote buttons and the counts: an emoji
  // thumb is an empty box where the system has no emoji font.
  const up = button("btn-thumb-up", "Thumbs up", icon("up", { size: 28 }), () => thumb(true));
  const down = button("btn-thumb-down", "Thumbs down", icon("down", { size: 28 }), () => thumb(false));
  const like = button("btn-like", "Save to liked songs", "♥", () => likeIt());
  const counts = h("span", { class: "thumb-counts", "aria-live": "polite" });
  const el = h("div", { class: "reactions", role: "group", "aria-label": "Your reaction to this song", hidden: true }, up, down, like, counts);

  async function thumb(value) {
    if (!model.visible) return;
    const current = value ? model.up : model.down;
    try {
      await actions.onThumb(model.entryID, current ? null : value);
    } catch {
      // Reported by the command.
    }
  }

  async function likeIt() {
    if (!model.visible) return;
    try {
      await actions.onLike(model.trackID, !model.liked);
    } catch (error) {
      toast((error && error.message) || "Couldn't save the song.", { kind: "error" });
    }
  }

  function render(next) {
    model = next;
    el.hidden = !next.visible;
    if (!next.visible) return;
    up.setAttribute("aria-pressed", String(next.up));
    down.setAttribute("aria-pressed", String(next.down));
    like.setAttribute("aria-pressed", String(next.liked));
    like.setAttribute("aria-label", next.liked ? `Saved: ${next.title}. Press to take it out of your liked songs` : `Save ${next.title} to your liked songs`);
    counts.textContent = next.counts || "";
    counts.hidden = !next.counts;
  }

  return { el, render };
}

/** Your liked songs' track ids (empty when signed out or on failure). */
export async function loadLiked() {
  try {
    const tracks = await request("/api/me/likes?limit=5000");
    return new Set(tracks.map((t) => t.id));
  } catch {
    return new Set();
  }
}

/** Saves or unsaves a track; resolves when the server agreed. */
export function setLiked(trackID, like) {
  const path = `/api/me/likes/${encodeURIComponent(trackID)}`;
  return request(path, { method: like ? "PUT" : "DELETE" });
}

