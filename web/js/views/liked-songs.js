// Your liked songs on the account screen: the songs you saved with ♥,
// newest first, each with a way to take it out; and, for your own station,
// "Play them on my station", which makes them the robot DJ's pool (seed
// 000's song pool; a pool holds at most 500, the newest).

import { request } from "../api/api.js";
import { h, fill, artwork } from "../ui/dom.js";
import { toast } from "../ui/toast.js";

const POOL_LIMIT = 500;

export function likedSongsCard(person) {
  const list = h("ul", { class: "liked-list", "aria-labelledby": "liked-heading" });
  const status = h("p", { class: "hint liked-status", role: "status" }, "Loading your liked songs…");
  const poolButton = h("button", { class: "btn btn-secondary btn-liked-pool", type: "button", hidden: true, onclick: () => usePool() }, "Play them on my station");
  let tracks = [];

  async function load() {
    try {
      tracks = await request("/api/me/likes?limit=5000");
    } catch (error) {
      status.textContent = (error && error.message) || "Couldn't load your liked songs.";
      return;
    }
    render();
  }

  function render() {
    status.textContent = tracks.length ? `${tracks.length} saved` : "Nothing saved yet. Press ♥ on a song that plays to keep it here.";
    poolButton.hidden = !tracks.length || !person.stationID;
    fill(
      list,
      tracks.map((track) =>
        h(
          "li",
          { class: "liked-row", dataset: { trackId: track.id } },
          artwork(track, { size: "sm" }),
          h("span", { class: "track-text" }, h("span", { class: "track-title" }, track.title), h("span", { class: "track-artist" }, track.artist)),
          h("button", { class: "btn-text btn-unlike", type: "button", "aria-label": `Take ${track.title} out of your liked songs`, onclick: () => unlike(track) }, "Remove"),
        ),
      ),
    );
  }

  async function unlike(track) {
    try {
      await request(`/api/me/likes/${encodeURIComponent(track.id)}`, { method: "DELETE" });
      tracks = tracks.filter((t) => t.id !== track.id);
      render();
    } catch (error) {
      toast((error && error.message) || "Couldn't remove it.", { kind: "error" });
    }
  }

  async function usePool() {
    poolButton.disabled = true;
    try {
      const trackIDs = tracks.slice(0, POOL_LIMIT).map((t) => t.id);
      await request(`/api/stations/${encodeURIComponent(person.stationID)}/pool`, { method: "PUT", body: { trackIDs } });
      toast(`Your station's robot DJ now plays your ${trackIDs.length} liked song${trackIDs.length === 1 ? "" : "s"}.`);
    } catch (error) {
      toast((error && error.message) || "Couldn't change the pool.", { kind: "error" });
    } finally {
      poolButton.disabled = false;
    }
  }

  load();
  return h(
    "section",
    { class: "account-section liked-songs", "aria-labelledby": "liked-heading" },
    h("h2", { class: "section-title", id: "liked-heading" }, "Liked songs"),
    status,
    poolButton,
    list,
  );
}
