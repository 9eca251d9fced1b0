// Lock screens, notification shades and media keys: the Media Session API
// shows what's on and maps play, pause, stop (and next/previous to flipping
// stations) onto the player. A live show shows its title and DJ, and no
// position (it has no length).

import { isLive } from "./timeline.js";

export function connectMediaSession(player, { onStop, onNextStation, onPreviousStation, stationName }) {
  const session = typeof navigator !== "undefined" ? navigator.mediaSession : undefined;
  if (!session) return () => {};

  const handlers = {
    play: () => player.resume(),
    pause: () => player.pause(),
    stop: () => onStop(),
    nexttrack: onNextStation ? () => onNextStation() : null,
    previoustrack: onPreviousStation ? () => onPreviousStation() : null,
  };
  for (const [action, handler] of Object.entries(handlers)) {
    try {
      session.setActionHandler(action, handler);
    } catch {
      // This browser doesn't know the action.
    }
  }

  const showEntry = (entry) => {
    if (!entry) {
      session.metadata = null;
      return;
    }
    const { track } = entry;
    const artwork = track.artworkURL
      ? [{ src: new URL(track.artworkURL, location.href).href, sizes: "512x512" }]
      : [{ src: new URL("/icons/icon-512.png", location.href).href, sizes: "512x512", type: "image/png" }];
    try {
      session.metadata = new MediaMetadata({
        title: track.title,
        artist: track.artist,
        // A live show's album already names the station ("Live on …").
        album: track.album ? (isLive(entry) ? track.album : `${track.album} · ${stationName()}`) : stationName(),
        artwork,
      });
    } catch {
      // MediaMetadata missing (old browser).
    }
    updatePosition(entry);
  };

  const updatePosition = (entry) => {
    if (!entry || !session.setPositionState) return;
    if (isLive(entry)) {
      // No length, no position: clear what a song before it left.
      try {
        session.setPositionState();
      } catch {}
      return;
    }
    const duration = Math.max(1, ((entry.offsetMs || 0) + entry.durationMs) / 1000);
    const position = Math.min(duration, Math.max(0, player.expectedSeconds(entry)));
    try {
      session.setPositionState({ duration, position, playbackRate: 1 });
    } catch {}
  };

  const onEntry = (event) => showEntry(event.detail.entry);
  const onState = (event) => {
    const state = event.detail.state;
    session.playbackState = state === "playing" || state === "loading" ? "playing" : state === "idle" ? "none" : "paused";
    if (state === "playing") updatePosition(player.entry);
  };
  player.addEventListener("entry", onEntry);
  player.addEventListener("state", onState);
  if (player.entry) showEntry(player.entry);
  onState({ detail: { state: player.state } });

  return () => {
    player.removeEventListener("entry", onEntry);
    player.removeEventListener("state", onState);
    for (const action of Object.keys(handlers)) {
      try {
        session.setActionHandler(action, null);
      } catch {}
    }
    session.metadata = null;
    session.playbackState = "none";
  };
}
