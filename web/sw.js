// Wavelength's service worker: keeps the app shell (HTML, CSS, JS, icons)
// so the app opens offline and installs as a PWA. It never caches audio or
// anything under /api/: radio is live, and stale timelines would be wrong.

const VERSION = "wavelength-shell-v43";
const SHELL = [
  "/",
  "/index.html",
  "/styles.css",
  "/styles-stations.css",
  "/styles-party.css",
  "/styles-history.css",
  "/styles-identify.css",
  "/styles-schedule.css",
  "/styles-live.css",
  "/styles-broadcast.css",
  "/styles-lyrics.css",
  "/styles-chat.css",
  "/styles-clips.css",
  "/styles-admin.css",
  "/styles-registration.css",
  "/manifest.webmanifest",
  "/js/app.js",
  "/js/router.js",
  "/js/api/api.js",
  "/js/api/session.js",
  "/js/api/stations.js",
  "/js/api/schedule.js",
  "/js/api/live.js",
  "/js/api/clips.js",
  "/js/api/error-codes.js",
  "/js/live/device-key.js",
  "/js/live/early-live.js",
  "/js/live/early-station.js",
  "/js/live/known-tracks.js",
  "/js/live/live-sequence.js",
  "/js/live/live-connection.js",
  "/js/live/station-session.js",
  "/js/playback/audio-clock.js",
  "/js/playback/basic-player.js",
  "/js/playback/clock.js",
  "/js/playback/early-audio.js",
  "/js/playback/early-player.js",
  "/js/playback/level.js",
  "/js/playback/live-relay.js",
  "/js/playback/media-session.js",
  "/js/playback/player-base.js",
  "/js/playback/player.js",
  "/js/playback/quick-decode.js",
  "/js/playback/range-fetch.js",
  "/js/playback/range-start.js",
  "/js/playback/slice-flac.js",
  "/js/playback/slice-mp3.js",
  "/js/playback/slice-opus.js",
  "/js/playback/slice-vorbis.js",
  "/js/playback/slice-m4a.js",
  "/js/playback/timeline.js",
  "/js/playback/web-audio-player.js",
  "/js/reminders/plan.js",
  "/js/reminders/reminders.js",
  "/js/ui/dom.js",
  "/js/ui/frequency.js",
  "/js/ui/frequency-input.js",
  "/js/ui/hold-place.js",
  "/js/ui/share.js",
  "/js/ui/toast.js",
  "/js/ui/wait-text.js",
  "/js/ui/station-problem.js",
  "/js/views/account.js",
  "/js/views/account-cards.js",
  "/js/views/account-forms.js",
  "/js/views/dial.js",
  "/js/views/dial/forms.js",
  "/js/views/dial/lists.js",
  "/js/views/dial/radio.js",
  "/js/views/dial/state.js",
  "/js/views/dial/warm.js",
  "/js/views/dial/nearby.js",
  "/js/views/dial/nearby-model.js",
  "/js/views/clips/clips-model.js",
  "/js/views/clips/inbox.js",
  "/js/views/clips/mic.js",
  "/js/views/clips/recorder.js",
  "/js/views/clips/recorder-model.js",
  "/js/views/clips/recorder-preview.js",
  "/js/views/clips/recorder-take.js",
  "/js/views/clips/recorder-view.js",
  "/js/views/clips/recorder-wave.js",
  "/js/views/clips/voice-art.js",
  "/js/views/go-live/broadcast.js",
  "/js/views/go-live/broadcast-air.js",
  "/js/views/go-live/broadcast-desk.js",
  "/js/views/go-live/broadcast-meter.js",
  "/js/views/admin.js",
  "/js/views/admin-signups.js",
  "/js/views/admin-glance.js",
  "/js/views/reports/queue.js",
  "/js/views/reports/report-dialog.js",
  "/js/api/reports.js",
  "/js/views/account-privacy.js",
  "/styles-reports.css",
  "/styles-uploads.css",
  "/js/views/uploads.js",
  "/js/views/admin-uploads.js",
  "/js/api/uploads.js",
  "/js/views/password-reset.js",
  "/js/views/server-invites.js",
  "/js/views/signup-mode.js",
  "/js/views/go-live/broadcast-panel.js",
  "/js/views/go-live/broadcast-view.js",
  "/js/views/go-live/broadcast-audio.js",
  "/js/views/go-live/broadcast-link.js",
  "/js/views/go-live/broadcast-model.js",
  "/js/views/go-live/key-card.js",
  "/js/views/go-live/key-card-view.js",
  "/js/views/go-live/model.js",
  "/js/views/history/downloads.js",
  "/js/views/history/finder.js",
  "/js/views/history/model.js",
  "/js/views/history/now.js",
  "/js/views/history/plays.js",
  "/js/views/history/rows.js",
  "/js/views/history/screen.js",
  "/js/views/identify/model.js",
  "/js/views/identify/panel.js",
  "/js/views/identify/recorder.js",
  "/js/views/identify/view.js",
  "/js/views/join.js",
  "/js/views/library-screen.js",
  "/js/views/analysis-status.js",
  "/js/views/library.js",
  "/js/views/library-model.js",
  "/js/views/library-pages.js",
  "/js/views/library-queue.js",
  "/js/views/library-rows.js",
  "/js/views/liked-songs.js",
  "/js/views/people.js",
  "/js/views/queue.js",
  "/js/views/queue-model.js",
  "/js/views/queue-rows.js",
  "/js/views/schedule/banner.js",
  "/js/views/schedule/calendar-links.js",
  "/js/views/schedule/editor.js",
  "/js/views/schedule/episodes.js",
  "/js/views/schedule/form.js",
  "/js/views/schedule/form-fields.js",
  "/js/views/schedule/model.js",
  "/js/views/schedule/phrase.js",
  "/js/views/schedule/screen.js",
  "/js/views/schedule/screen-view.js",
  "/js/views/schedule/show-page.js",
  "/js/views/schedule/show-page-view.js",
  "/js/views/schedule/week.js",
  "/js/views/settings.js",
  "/js/views/settings/dial-panel.js",
  "/js/views/settings/end-panel.js",
  "/js/views/settings/invites-panel.js",
  "/js/views/settings/labels.js",
  "/js/views/settings/party-form.js",
  "/js/views/settings/people-panel.js",
  "/js/views/settings/playlist-panel.js",
  "/js/views/settings/screen.js",
  "/js/views/settings/state.js",
  "/js/views/settings/station-form.js",
  "/js/views/settings/widgets.js",
  "/js/views/static.js",
  "/js/views/station.js",
  "/js/views/station/actions.js",
  "/js/views/station/any-player.js",
  "/js/views/station/booth.js",
  "/js/views/station/chat.js",
  "/js/views/station/chat-actions.js",
  "/js/views/station/chat-autocomplete.js",
  "/js/views/station/chat-model.js",
  "/js/views/station/chat-moderation.js",
  "/js/views/station/clips.js",
  "/js/views/station/controls.js",
  "/js/views/station/find-tracks.js",
  "/js/views/station/header.js",
  "/js/views/station/history.js",
  "/js/views/station/history-mode.js",
  "/js/views/station/layout.js",
  "/js/views/station/live-model.js",
  "/js/views/station/live-show.js",
  "/js/views/station/lyrics.js",
  "/js/views/station/lyrics-model.js",
  "/js/views/station/now-playing.js",
  "/js/views/station/over.js",
  "/js/views/station/party-actions.js",
  "/js/views/station/party.js",
  "/js/views/station/vetoed.js",
  "/js/views/station/library-browse.js",
  "/js/views/station/lobby.js",
  "/js/views/station/song-search.js",
  "/js/views/station/guest-join.js",
  "/js/views/station/playback-details.js",
  "/js/views/station/reaction-actions.js",
  "/js/views/station/reactions.js",
  "/js/views/station/role.js",
  "/js/views/station/room-reactions.js",
  "/js/views/station/room-calibration.js",
  "/js/room/calibration.js",
  "/js/room/chirp.js",
  "/js/room/arrivals.js",
  "/js/room/meter.js",
  "/js/room/route-delays.js",
  "/js/room/recorder-worklet.js",
  "/js/views/station/room-reactions-model.js",
  "/js/views/station/room-mode.js",
  "/js/views/station/room-level.js",
  "/js/views/station/room.js",
  "/js/views/station/settings-overlay.js",
  "/js/views/station/state.js",
  "/js/views/station/studio.js",
  "/js/views/station/studio-model.js",
  "/js/views/station/tune-in.js",
  "/js/views/track-details.js",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/icon-maskable-512.png",
  "/icons/apple-touch-icon.png",
];
const SHELL_PATHS = new Set(SHELL);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(VERSION)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("wavelength-shell-") && k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function isShell(url, request) {
  if (url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith("/api/") || url.pathname === "/health" || url.pathname === "/openapi.json") return false;
  // The radio stream and its playlists: opening one is a navigation, but
  // it is never the app (a never-ending MP3 can't be cached, and an .m3u
  // kept as /index.html would open offline instead of the app).
  if (url.pathname.startsWith("/stream/")) return false;
  // A live show's relay (/live/{station}.mp3) is the same kind of stream.
  if (url.pathname.startsWith("/live/")) return false;
  if (request.destination === "audio" || request.headers.has("range")) return false;
  return request.mode === "navigate" || SHELL_PATHS.has(url.pathname);
}

// Network first, so a server upgrade shows at once; the cache answers only
// when the network can't.
self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!isShell(url, request)) return;
  const key = request.mode === "navigate" ? "/index.html" : url.pathname;
  event.respondWith(
    fetch(request)
      .then((response) => {
        // A navigation is kept as the app only when it is the app's HTML.
        const html = (response.headers.get("Content-Type") || "").startsWith("text/html");
        if (response.ok && response.type === "basic" && (request.mode !== "navigate" || html)) {
          const copy = response.clone();
          caches.open(VERSION).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((hit) => hit || caches.match("/index.html"))),
  );
});
