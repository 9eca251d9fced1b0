// The listener screen, and for the station's owner and co-DJs the DJ booth:
// album art, what's on, progress, Up Next, the listener count, live from
// the station's WebSocket; plus search with add/remove toggles, skip,
// delete, reorder, hold and seek. Your role comes from the server (GET
// …/access at load, then the WebSocket's `access` messages), so the booth
// opens and closes live when the owner grants or takes back co-DJ.
// Being removed, the host ending the session and access refusals end the
// screen with a notice and never reconnect.

import { api } from "../api/api.js";
import { h, fill, setText, icon, artwork, formatDuration, listenersText } from "../ui/dom.js";
import { connectMediaSession } from "../playback/media-session.js";
import { MODE_LABELS } from "../playback/player.js";
import { navigate, stationHref, stationPath } from "../router.js";
import { session as me } from "../api/session.js";
import { StationSession, canDJ, fetchAccess } from "../live/station-session.js";
import { neighbour } from "../api/stations.js";
import { entryAt, upcomingAt, positionIn, spanOf, timelineNow } from "../playback/timeline.js";
import { toast } from "../ui/toast.js";
import { createLibraryBrowser } from "./library.js";
import { createQueue } from "./queue.js";
import { createStatic } from "./static.js";
import { createSettingsView, gearIcon, visibilityLabel } from "./settings.js";

const FRAME_MS = 250;

export function createStationView({ clock, player }, route) {
  // The tune-in action (a click, a link, a typed frequency) is now: tune-in
  // to first sound is measured from here.
  const tunedAt = performance.now();
  const stationID = route.path[1];
  let mode = modeOf(route);
  let role = null; // "owner" | "codj" | "listener" | null (not known yet)
  let boothBuilt = false;
  let settingsView = null;
  let over = null; // the final notice, once the station is over for us
  let session = null;
  let destroyed = false;
  let frameTimer = null;
  let shownEntryID = undefined;
  let disconnectMedia = () => {};
  let library = null;
  let flipping = false;
  let ready = false;

  // Header.
  const freqChip = h("p", { class: "freq-chip" }, h("span", { class: "freq-chip-num" }, "··.·"), h("span", { class: "freq-chip-unit" }, "FM"));
  const stationName = h("h1", { class: "station-name", tabindex: "-1" }, "Tuning in…");
  const connPill = h("span", { class: "conn", dataset: { state: "connecting" }, role: "status" }, "Tuning…");
  const listenersPill = h("span", { class: "listeners", "aria-live": "polite" }, icon("ear", { size: 18 }), h("span", { class: "listeners-text" }, "—"));
  const settingsLink = h(
    "a",
    { class: "btn-icon btn-settings", href: stationHref(stationID, "settings"), "aria-label": "Station settings", title: "Station settings", hidden: true, onclick: (e) => openSettingsHere(e) },
    gearIcon(24),
  );
  const bar = h(
    "header",
    { class: "station-bar" },
    h("a", { class: "btn-icon btn-back-dial", href: "#/", "aria-label": "Back to the dial" }, icon("back", { size: 26 })),
    h("div", { class: "station-title" }, freqChip, stationName),
    h("div", { class: "station-status" }, connPill, listenersPill),
    settingsLink,
  );
  const banner = h("div", { class: "signal-banner" });

  // Now playing.
  const artSlot = h("div", { class: "art-slot" });
  const staticFx = createStatic();
  const overlay = h("div", { class: "art-overlay" });
  const artStage = h("div", { class: "art-stage" }, artSlot, staticFx.el, overlay);
  const npLabel = h("p", { class: "np-label" }, "Now playing");
  const npTitle = h("h2", { class: "np-title" }, "…");
  const npArtist = h("p", { class: "np-artist" });
  const npAlbum = h("p", { class: "np-album" });
  const announcer = h("p", { class: "visually-hidden", "aria-live": "polite" });
  const progressFill = h("div", { class: "progress-fill" });
  const progress = h(
    "div",
    { class: "progress", role: "progressbar", "aria-label": "Track progress", "aria-valuemin": "0", "aria-valuemax": "0", "aria-valuenow": "0" },
    h("div", { class: "progress-track" }, progressFill),
  );
  const elapsed = h("span", { class: "time-elapsed" }, "0:00");
  const remaining = h("span", { class: "time-remaining" }, "");
  const times = h("div", { class: "times", "aria-hidden": "true" }, elapsed, remaining);

  const playButton = h("button", { class: "btn btn-round btn-play", type: "button", onclick: () => togglePlay() });
  const skipButton = h(
    "button",
    { class: "btn btn-round btn-skip", type: "button", "aria-label": "Skip the current track", onclick: () => skip() },
    icon("skip", { size: 28 }),
    h("span", { class: "btn-caption" }, "Skip"),
  );
  // Together controls (the DJ): hold and resume the station for everyone,
  // and seek by the progress bar. Every device follows the timeline.
  const holdButton = h("button", {
    class: "btn btn-round btn-hold",
    type: "button",
    "aria-pressed": "false",
    onclick: () => toggleHold(),
  });
  const prevStation = h(
    "button",
    { class: "btn btn-round btn-flip", type: "button", "aria-label": "Previous station", onclick: () => flip(-1) },
    icon("prev", { size: 26 }),
    h("span", { class: "flip-caption" }, "Station"),
  );
  const nextStation = h(
    "button",
    { class: "btn btn-round btn-flip", type: "button", "aria-label": "Next station", onclick: () => flip(1) },
    h("span", { class: "flip-caption" }, "Station"),
    icon("next", { size: 26 }),
  );
  const transport = h("div", { class: "transport" }, prevStation, playButton, nextStation);
  // In the booth the station flips leave the transport: beside SKIP and
  // HOLD, ▶ read as "next track" and tuned the DJ away from their station.
  const flipRow = h("div", { class: "station-flip", role: "group", "aria-label": "Other stations" });
  // Which playback engine runs ("Sync: Web Audio" or "Sync: basic"): a
  // detail for the curious, not something every listener must read.
  const syncMode = h("p", { class: "sync-mode", dataset: { mode: player.mode } }, MODE_LABELS[player.mode] || player.mode);
  const syncDetails = h("details", { class: "sync-details" }, h("summary", { class: "sync-summary" }, "Playback details"), syncMode);
  const addLink = h("a", { class: "btn btn-secondary btn-add", href: stationHref(stationID, "add") }, icon("search", { size: 22 }), "Add tracks");

  const nowCol = h(
    "div",
    { class: "now-col" },
    artStage,
    h("div", { class: "now-meta" }, npLabel, npTitle, npArtist, npAlbum, announcer),
    progress,
    times,
    transport,
    flipRow,
    syncDetails,
  );

  // Up Next and history.
  const queue = createQueue({
    owner: false,
    onRemove: (entry) => command({ op: "remove", entryID: entry.id }, `Deleted ${entry.track.title}.`),
    onMove: (entry, toIndex) => command({ op: "move", entryID: entry.id, toIndex }),
    localTime: (serverMs) => new Date(serverMs - clock.offset).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }),
  });
  const historyList = h("ol", { class: "history" });
  const historyPanel = h(
    "section",
    { class: "panel history-panel", "aria-labelledby": "history-heading" },
    h("h2", { id: "history-heading", class: "section-title" }, "Just played"),
    historyList,
  );
  const ownerTools = h("div", { class: "owner-tools" });
  const queueCol = h("div", { class: "queue-col" }, queue.el, historyPanel, ownerTools);

  const addCol = h("div", { class: "add-col" });
  const grid = h("div", { class: "station-grid" }, nowCol, queueCol, addCol);

  // Station settings, for the owner and co-DJs, shown over the station so
  // the music keeps playing (#/station/ID/settings).
  const settingsHost = h("div", { class: "settings-host", hidden: true });

  const el = h("section", { class: "screen station-screen", dataset: { stationId: stationID } }, bar, banner, grid, settingsHost);

  // Seeking by the progress bar: only while you may DJ.
  progress.addEventListener("click", (event) => {
    const entry = current();
    if (!isDJ() || !entry) return;
    const rect = progress.getBoundingClientRect();
    const fraction = Math.min(1, Math.max(0, (event.clientX - rect.left) / Math.max(1, rect.width)));
    seek(fraction * spanOf(entry));
  });
  progress.addEventListener("keydown", (event) => {
    const entry = current();
    if (!isDJ() || !entry || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    event.preventDefault();
    const now = positionIn(entry, timelineNow(session.timeline, clock.now()));
    seek(now + (event.key === "ArrowRight" ? 10_000 : -10_000));
  });

  function isDJ() {
    return canDJ(role) && !over;
  }

  // The booth opens and closes with your role, live.
  function applyRole() {
    const dj = isDJ();
    el.dataset.role = role || "none";
    el.classList.toggle("is-owner", dj);
    settingsLink.hidden = !dj;
    queue.setOwner(dj);
    if (dj) {
      if (!boothBuilt) buildBooth();
      fill(transport, holdButton, playButton, skipButton);
      fill(flipRow, prevStation, nextStation);
      el.classList.add("has-flip-row");
      renderHold();
      progress.tabIndex = 0;
      progress.setAttribute("role", "slider");
      progress.setAttribute("aria-label", "Track position: click or use the arrow keys to seek for everyone");
      progress.classList.add("is-seekable");
      nowCol.append(addLink);
      fill(
        ownerTools,
        h(
          "a",
          { class: "card booth-settings-card", href: stationHref(stationID, "settings"), onclick: (e) => openSettingsHere(e) },
          gearIcon(26),
          h(
            "span",
            { class: "booth-settings-text" },
            h("span", { class: "booth-settings-title" }, "Station settings"),
            h("span", { class: "booth-settings-sub" }, role === "owner" ? "Who can listen, the access code, invites, co-DJs" : "The access code, invites and who's listening"),
          ),
        ),
      );
    } else {
      fill(transport, prevStation, playButton, nextStation);
      fill(flipRow);
      el.classList.remove("has-flip-row");
      addLink.remove();
      progress.removeAttribute("tabindex");
      progress.setAttribute("role", "progressbar");
      progress.setAttribute("aria-label", "Track progress");
      progress.classList.remove("is-seekable");
      fill(ownerTools);
      if (boothBuilt) {
        if (library) library.destroy();
        library = null;
        addCol.nowBar = null;
        fill(addCol);
        boothBuilt = false;
      }
      if (mode === "add" || mode === "settings") {
        navigate(stationPath(stationID), { replace: true });
      }
    }
    setMode(mode);
  }

  function buildBooth() {
    boothBuilt = true;
    const nowBarArt = h("div", { class: "nowbar-art" });
    const nowBarText = h("span", { class: "nowbar-text" });
    const nowBar = h(
      "div",
      { class: "nowbar" },
      nowBarArt,
      nowBarText,
      h("a", { class: "btn btn-secondary btn-done", href: stationHref(stationID) }, "Done"),
    );
    nowBar.update = (entry) => {
      fill(nowBarArt, artwork(entry && entry.track, { size: "sm" }));
      setText(nowBarText, entry ? `${entry.track.title} — ${entry.track.artist}` : "Nothing on the air");
    };
    addCol.nowBar = nowBar;
    library = createLibraryBrowser({
      queue: {
        isQueued: (trackID) => upcoming().some((e) => e.track.id === trackID),
        isOnAir: (trackID) => {
          const entry = current();
          return Boolean(entry && entry.track.id === trackID);
        },
        toggle: (track) => toggleTrack(track),
      },
    });
    fill(
      addCol,
      h(
        "section",
        { class: "panel add-panel", "aria-labelledby": "add-heading" },
        h("h2", { id: "add-heading", class: "section-title" }, "Find tracks"),
        nowBar,
        library.el,
      ),
    );
    if (session && session.timeline) nowBar.update(current());
  }

  function setRole(next) {
    const value = next === "none" ? "listener" : next || null;
    if (value === role) return;
    const was = role;
    role = value;
    if (!ready) return;
    applyRole();
    if (was && canDJ(value) && !canDJ(was)) toast(value === "codj" ? "You're a co-DJ now: the booth is open." : "The booth is open.");
    else if (was && canDJ(was) && !canDJ(value)) toast("You're a listener again: the booth is closed.");
  }

  // State helpers.
  function current() {
    return session && session.timeline ? entryAt(session.timeline, timelineNow(session.timeline, clock.now())) : null;
  }

  function upcoming() {
    return session && session.timeline ? upcomingAt(session.timeline, timelineNow(session.timeline, clock.now())) : [];
  }

  // A command pressed while the connection is down is kept and sent on
  // reconnect (its id makes that safe); its button says so meanwhile.
  function markWaiting(button, waiting) {
    if (!button) return;
    if (waiting) {
      button.dataset.pending = "true";
      button.setAttribute("aria-busy", "true");
      button.dataset.label = button.dataset.label || button.getAttribute("aria-label") || "";
      button.setAttribute("aria-label", `${button.dataset.label}: waiting for the signal, sent when it's back`);
    } else if (button.dataset.pending) {
      delete button.dataset.pending;
      button.removeAttribute("aria-busy");
      if (button.dataset.label) button.setAttribute("aria-label", button.dataset.label);
      delete button.dataset.label;
    }
  }

  async function command(cmd, success, button = null) {
    if (!session) return;
    try {
      await session.command(cmd, {
        onWaiting: () => {
          markWaiting(button, true);
          toast("No signal: sent as soon as the station is back.");
        },
      });
      markWaiting(button, false);
      if (success) toast(success);
    } catch (error) {
      markWaiting(button, false);
      if (error.code === "forbidden") {
        // The server's word: e.g. listeners cannot skip, delete or reorder.
        toast(error.message || "Only the station's DJs can do that.", { kind: "error" });
        refreshRole();
      } else if (error.code !== "not_current" && error.code !== "closed") {
        toast(error.message, { kind: "error" });
      }
      throw error;
    }
  }

  async function toggleTrack(track) {
    const queued = upcoming().filter((e) => e.track.id === track.id);
    if (queued.length) {
      const entry = queued.filter((e) => e.source === "dj").pop() || queued[queued.length - 1];
      await command({ op: "remove", entryID: entry.id });
    } else {
      await command({ op: "queueNext", trackID: track.id });
    }
    if (library) library.refreshToggles();
  }

  async function skip() {
    const entry = current();
    if (!entry || skipButton.disabled) return;
    skipButton.disabled = true;
    try {
      await command({ op: "skip", entryID: entry.id }, null, skipButton);
    } catch {
      // Reported.
    } finally {
      skipButton.disabled = false;
    }
  }

  function held() {
    return Boolean(session && session.timeline && session.timeline.pausedAt != null);
  }

  function renderHold() {
    if (holdButton.dataset.pending) return;
    const on = held();
    fill(holdButton, icon(on ? "play" : "pause", { size: 26 }), h("span", { class: "btn-caption" }, on ? "Go" : "Hold"));
    holdButton.setAttribute("aria-label", on ? "Resume the station for everyone" : "Pause the station for everyone");
    holdButton.setAttribute("aria-pressed", on ? "true" : "false");
  }

  async function toggleHold() {
    if (holdButton.disabled) return;
    holdButton.disabled = true;
    try {
      await command({ op: held() ? "resume" : "pause" }, held() ? "Resumed for everyone." : "Paused for everyone.", holdButton);
    } catch {
      // Reported.
    } finally {
      holdButton.disabled = false;
      renderHold();
    }
  }

  async function seek(positionMs) {
    const entry = current();
    if (!entry) return;
    const target = Math.round(Math.min(spanOf(entry) - 1000, Math.max(0, positionMs)));
    try {
      await command({ op: "seek", positionMs: target });
    } catch {
      // Reported.
    }
  }

  function togglePlay() {
    if (player.wantPlay && player.state !== "blocked") player.pause();
    else player.resume();
    renderPlayer();
  }

  async function flip(step) {
    if (flipping) return;
    flipping = true;
    const next = await neighbour(stationID, step);
    flipping = false;
    if (next && next.id !== stationID && !destroyed) navigate(stationPath(next.id));
    else if (!destroyed) toast("No other station on the band yet.");
  }

  // Rendering.
  function renderStation() {
    const station = session.station;
    // A private station may have no frequency (no code right now, or it is
    // hidden from you): the chip says how it is reached instead.
    const frequency = station.frequency || null;
    setText(freqChip.firstChild, frequency || visibilityLabel(station.visibility, { short: true }) || "··.·");
    freqChip.lastChild.hidden = !frequency;
    freqChip.classList.toggle("is-private", !frequency);
    setText(stationName, station.name);
    if (mode !== "settings") document.title = `${frequency ? `${frequency} ` : ""}${station.name} · Wavelength`;
    if (frequency) el.dataset.frequency = frequency;
    else delete el.dataset.frequency;
    el.dataset.visibility = station.visibility || "public";
  }

  function renderConnection() {
    const state = session.connection;
    connPill.dataset.state = state;
    el.dataset.connection = state;
    setText(
      connPill,
      { connecting: "Tuning…", live: "Live", reconnecting: "Reconnecting…", outdated: "Update", closed: "Off", removed: "Off", ended: "Off air", denied: "Off" }[state] || state,
    );
    if (state === "outdated") {
      fill(
        banner,
        h(
          "div",
          { class: "notice notice-error", role: "alert" },
          h("strong", {}, "This app is older than the server. "),
          h("button", { class: "btn btn-small", type: "button", onclick: () => location.reload() }, "Reload"),
        ),
      );
    } else if (state === "reconnecting") {
      fill(
        banner,
        h(
          "div",
          { class: "notice notice-warn", role: "status" },
          h("strong", {}, "Lost the signal. "),
          "Reconnecting… the music keeps playing from what we have.",
        ),
      );
    } else {
      fill(banner);
    }
  }

  function renderListeners() {
    setText(listenersPill.lastChild, listenersText(session.listeners));
  }

  function renderNow(entry) {
    const id = entry ? `${entry.id}:${entry.track.id}` : null;
    if (id === shownEntryID) return;
    shownEntryID = id;
    el.dataset.entryId = entry ? entry.id : "";
    if (!entry) {
      fill(artSlot, artwork(null, { size: "lg" }));
      const nothing = session && session.timeline && !session.timeline.current && !(session.timeline.upNext || []).length;
      setText(npLabel, nothing ? "Nothing on the air" : "Between songs");
      setText(npTitle, nothing ? "Silence on this frequency" : "…");
      setText(npArtist, nothing ? "The library may be empty, or the robot DJ has nothing to play." : "");
      setText(npAlbum, "");
      if (addCol.nowBar) addCol.nowBar.update(null);
      return;
    }
    const { track } = entry;
    fill(artSlot, artwork(track, { size: "lg", alt: `Cover of ${track.album || track.title}` }));
    artStage.classList.remove("bloom");
    void artStage.offsetWidth;
    artStage.classList.add("bloom");
    setText(npLabel, entry.source === "dj" ? "Now playing · DJ pick" : "Now playing");
    setText(npTitle, track.title);
    setText(npArtist, track.artist);
    setText(npAlbum, [track.album, track.year].filter(Boolean).join(" · "));
    setText(announcer, `Now playing ${track.title} by ${track.artist}`);
    if (addCol.nowBar) addCol.nowBar.update(entry);
  }

  function renderProgress(entry) {
    if (!entry) {
      progressFill.style.transform = "scaleX(0)";
      setText(elapsed, "0:00");
      setText(remaining, "");
      return;
    }
    const span = spanOf(entry);
    const pos = Math.min(span, Math.max(0, positionIn(entry, timelineNow(session && session.timeline, clock.now()))));
    progressFill.style.transform = `scaleX(${span ? pos / span : 0})`;
    setText(elapsed, formatDuration(pos));
    setText(remaining, `-${formatDuration(span - pos)}`);
    const secs = String(Math.floor(pos / 1000));
    if (progress.getAttribute("aria-valuenow") !== secs) {
      progress.setAttribute("aria-valuemax", String(Math.floor(span / 1000)));
      progress.setAttribute("aria-valuenow", secs);
      progress.setAttribute("aria-valuetext", `${formatDuration(pos)} of ${formatDuration(span)}`);
    }
  }

  function renderHistory() {
    const items = ((session.timeline && session.timeline.history) || []).slice(0, 5);
    historyPanel.hidden = items.length === 0;
    const sig = items.map((e) => e.id).join(",");
    if (historyList.dataset.sig === sig) return;
    historyList.dataset.sig = sig;
    fill(
      historyList,
      items.map((e) =>
        h(
          "li",
          { class: "history-row" },
          artwork(e.track, { size: "xs" }),
          h("span", { class: "history-text" }, h("span", { class: "history-title" }, e.track.title), h("span", { class: "history-sub" }, e.track.artist)),
        ),
      ),
    );
  }

  function renderPlayer() {
    const state = player.state;
    el.dataset.player = state;
    const playing = player.wantPlay && state !== "blocked";
    fill(playButton, icon(playing ? "stop" : "play", { size: 34 }));
    playButton.setAttribute("aria-label", playing ? "Stop listening" : "Listen");
    if (state === "playing") staticFx.off();
    else if (state === "loading" || (state === "idle" && player.wantPlay)) staticFx.on();
    fill(overlay);
    overlay.className = "art-overlay";
    if (state === "blocked") {
      overlay.classList.add("is-shown");
      overlay.append(
        h(
          "button",
          { class: "btn btn-primary btn-listen", type: "button", onclick: () => togglePlay() },
          icon("play", { size: 28 }),
          "Tap to listen",
        ),
      );
      staticFx.off();
    } else if (state === "paused") {
      overlay.classList.add("is-shown", "is-dim");
      overlay.append(h("p", { class: "overlay-text" }, "Stopped · still following the station"));
      staticFx.off();
    } else if (state === "held") {
      overlay.classList.add("is-shown", "is-dim");
      overlay.append(h("p", { class: "overlay-text" }, "The DJ paused the station · it resumes for everyone together"));
      staticFx.off();
    } else if (state === "error") {
      overlay.classList.add("is-shown", "is-dim");
      overlay.append(h("p", { class: "overlay-text" }, "This track won't play here. The next one will try again."));
      staticFx.off();
    } else if (state === "loading" || (state === "idle" && player.wantPlay)) {
      overlay.classList.add("is-shown", "is-tuning");
      overlay.append(h("p", { class: "overlay-text tuning-text" }, "Tuning in…"));
    }
  }

  function renderMode() {
    syncMode.dataset.mode = player.mode;
    setText(syncMode, MODE_LABELS[player.mode] || player.mode);
  }

  function frame() {
    if (!session || destroyed) return;
    const entry = current();
    renderNow(entry);
    renderProgress(entry);
    queue.render(upcoming());
    if (library) library.refreshToggles();
  }

  function setMode(next) {
    mode = next;
    const dj = isDJ();
    el.classList.toggle("mode-add", mode === "add" && dj);
    if (mode === "settings" && dj && ready) openSettings();
    else closeSettings();
    if (mode === "add" && library) requestAnimationFrame(() => library.focusSearch());
  }

  // The settings open over this screen so the music keeps playing here: the
  // address changes without a route change (the app would otherwise swap
  // this screen for the settings screen); Back and the settings' own back
  // link come here again as an ordinary route update.
  function openSettingsHere(event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (!ready || !isDJ()) return;
    event.preventDefault();
    history.pushState(history.state, "", stationHref(stationID, "settings"));
    setMode("settings");
    const target = settingsView && settingsView.focusTarget && settingsView.focusTarget();
    if (target) target.focus({ preventScroll: true });
  }

  function openSettings() {
    if (settingsView) return;
    settingsView = createSettingsView(
      { path: stationPath(stationID, "settings"), query: new URLSearchParams() },
      { session, role: () => role },
    );
    fill(settingsHost, settingsView.el);
    settingsHost.hidden = false;
    grid.hidden = true;
    bar.hidden = true;
    el.classList.add("mode-settings");
    document.title = settingsView.title || "Station settings · Wavelength";
    window.scrollTo(0, 0);
  }

  function closeSettings() {
    if (!settingsView) return;
    const hadFocus = settingsHost.contains(document.activeElement);
    settingsView.destroy();
    settingsView = null;
    fill(settingsHost);
    settingsHost.hidden = true;
    grid.hidden = false;
    bar.hidden = false;
    el.classList.remove("mode-settings");
    if (session && session.station && session.station.name) renderStation();
    if (hadFocus) stationName.focus({ preventScroll: true });
  }

  async function refreshRole() {
    try {
      const access = await fetchAccess(stationID);
      if (!destroyed && access) setRole(access.role);
    } catch {
      // The WebSocket will tell us.
    }
  }

  // The end of the station for this page: removed, banned, the session
  // ended, or not allowed in. Playback stops and nothing reconnects.
  // `name` is the station's name, or null when it never loaded.
  const mid = (name) => name || "this station";
  const lead = (name) => name || "This station";
  const OVER_TEXT = {
    removed: (name) => [`You were removed from ${mid(name)}`, "The host took you off this station, so the music has stopped here."],
    banned: (name) => [`You were banned from ${mid(name)}`, "The host banned you from this station. You can't tune back in."],
    left: (name) => [`You left ${mid(name)}`, "You left this station from another window or device."],
    ended: (name) => ["The host ended this session", `${lead(name)} is off the air. Thanks for listening.`],
    ended_by_you: () => ["You ended this session", "Everyone was disconnected and the access code was released. Your listeners join again with a new code or an invite."],
    sign_in_required: (name) => [`${lead(name)} is private`, "Ask the host for its frequency and access code, or for an invite link."],
    not_a_member: (name) => [`${lead(name)} is private`, "Ask the host for its frequency and access code, or for an invite link."],
    banned_access: (name) => ["You can't listen here", `You were banned from ${mid(name)}.`],
    station_full: (name) => [`${lead(name)} is full`, "It has as many listeners as the host allows. Try again in a little while."],
  };

  function showOver(kind, { code = null, message = "" } = {}) {
    if (over || destroyed) return;
    const named = session && session.station && session.station.name;
    // Not a member of a private station whose frequency we know: the join
    // screen asks for the access code.
    if (kind === "denied" && (code === "sign_in_required" || code === "not_a_member")) {
      const frequency = (session && session.station && session.station.frequency) || route.query.get("f");
      if (frequency) {
        over = "join";
        if (session) session.close();
        player.stop();
        navigate(["join", frequency], { replace: true });
        return;
      }
    }
    over = kind === "denied" ? code || "not_a_member" : kind;
    closeSettings();
    applyRoleSafely();
    if (session) session.close();
    player.stop();
    staticFx.off();
    el.dataset.state = over;
    // The connection is over for good: never "reconnecting".
    el.dataset.connection = kind === "ended" ? "ended" : kind === "denied" ? "denied" : "removed";
    el.classList.add("is-over");
    const hostEnded = over === "ended" && role === "owner";
    const key = hostEnded ? "ended_by_you" : over === "banned" && kind === "denied" ? "banned_access" : over;
    const [title, line] = (OVER_TEXT[key] || (() => ["Can't tune in", message || "This station isn't available to you."]))(named || null);
    const heading = h("h1", { class: "over-title", tabindex: "-1" }, title);
    const actions = h("div", { class: "over-actions" });
    if (over === "sign_in_required" || over === "not_a_member") {
      actions.append(h("a", { class: "btn btn-primary", href: "#/join" }, "Enter a code"));
    }
    if (hostEnded) {
      actions.append(h("button", { class: "btn btn-primary", type: "button", onclick: () => navigate(stationPath(stationID)) }, "Back on the air"));
    }
    if (over === "station_full") {
      actions.append(h("button", { class: "btn btn-primary", type: "button", onclick: () => navigate(stationPath(stationID)) }, "Try again"));
    }
    actions.append(h("a", { class: `btn ${actions.childElementCount ? "btn-secondary" : "btn-primary"}`, href: "#/" }, "Back to the dial"));
    const notice = h(
      "div",
      { class: "station-over", role: "alert", dataset: { reason: over } },
      h(
        "div",
        { class: "over-card" },
        h("p", { class: "over-lamp" }, h("span", { class: "offair-lamp" }, over === "ended" ? "Off air" : "Signal lost")),
        heading,
        h("p", { class: "over-line" }, line),
        actions,
      ),
    );
    fill(grid);
    grid.hidden = true;
    fill(banner);
    el.append(notice);
    setText(connPill, "Off");
    connPill.dataset.state = "closed";
    listenersPill.hidden = true;
    if (kind !== "denied") document.title = `${title} · Wavelength`;
    heading.focus({ preventScroll: true });
  }

  function applyRoleSafely() {
    if (!ready) return;
    skipButton.remove();
    holdButton.remove();
    fill(flipRow);
    settingsLink.hidden = true;
  }

  // Lifecycle.
  async function start() {
    fill(artSlot, artwork(null, { size: "lg" }));
    staticFx.on();
    overlay.className = "art-overlay is-shown is-tuning";
    fill(overlay, h("p", { class: "overlay-text tuning-text" }, "Tuning in…"));
    // Who we are: to tell a `removed` about us from one about someone else.
    if (me && typeof me.load === "function" && !me.person) Promise.resolve(me.load()).catch(() => {});
    // The live connection and the player start while the station is looked
    // up: the snapshot, the clock probes and the audio fetch don't wait on it.
    session = new StationSession({
      station: { id: stationID, listeners: 0 },
      clock,
      selfID: () => (me && me.person ? me.person.id : null),
    });
    session.addEventListener("change", (event) => {
      if (destroyed || over) return;
      const reason = event.detail.reason;
      if (reason === "snapshot" || reason === "timeline") {
        player.setTimeline(session.timeline);
        if (reason === "snapshot") player.recover();
      }
      if (reason === "connection" && session.connection === "live") player.recover();
      if (reason === "role") setRole(session.role);
      if (!ready) return;
      if (reason === "snapshot" || reason === "timeline") {
        renderStation();
        renderHistory();
        if (isDJ()) renderHold();
        renderListeners();
        frame();
        el.dataset.revision = String(session.timeline.revision);
      }
      if (reason === "listeners") renderListeners();
      if (reason === "connection" || reason === "snapshot") renderConnection();
    });
    session.addEventListener("servererror", (event) => toast(event.detail.message, { kind: "error" }));
    session.addEventListener("removed", (event) => {
      if (destroyed) return;
      const { person, reason, self } = event.detail;
      if (self) {
        showOver(reason === "banned" ? "banned" : reason === "left" ? "left" : "removed");
        return;
      }
      const name = (person && person.name) || "Someone";
      toast(reason === "left" ? `${name} left` : `${name} was removed`);
    });
    session.addEventListener("ended", () => showOver("ended"));
    session.addEventListener("denied", (event) => showOver("denied", event.detail));
    player.addEventListener("state", renderPlayer);
    player.addEventListener("mode", renderMode);
    player.start({ tunedAt });
    session.start();
    const accessAnswer = fetchAccess(stationID).catch(() => null);
    let station;
    try {
      station = await api.station(stationID);
    } catch (error) {
      if (destroyed || over) return;
      if (["sign_in_required", "not_a_member", "banned", "station_full"].includes(error.code)) {
        showOver("denied", { code: error.code, message: error.message });
        return;
      }
      session.close();
      session = null;
      player.stop();
      staticFx.off();
      el.dataset.state = "error";
      fill(
        grid,
        h(
          "div",
          { class: "notice notice-error big-notice", role: "alert" },
          h("h2", {}, error.status === 404 ? "No station here" : "Can't tune in"),
          h("p", {}, error.status === 404 ? "Nothing is broadcasting with that id. It may have been a typo in the link." : error.message),
          h(
            "p",
            {},
            h("a", { class: "btn btn-primary", href: "#/" }, "Back to the dial"),
            " ",
            error.status === 404 ? null : h("button", { class: "btn btn-secondary", type: "button", onclick: () => location.reload() }, "Try again"),
          ),
        ),
      );
      setText(stationName, error.status === 404 ? "Static" : "No signal");
      setText(freqChip.firstChild, "--.-");
      connPill.dataset.state = "closed";
      setText(connPill, "No signal");
      listenersPill.hidden = true;
      return;
    }
    const access = await accessAnswer;
    if (destroyed || over) return;
    // A snapshot that came first has the fresher station.
    if (!session.timeline) {
      session.station = station;
      session.listeners = station.listeners || 0;
    } else {
      session.station = { ...station, ...session.station };
    }
    if (access && access.canListen === false) {
      showOver("denied", { code: access.reason || "not_a_member" });
      return;
    }
    // The WebSocket's `access` may have come first; it is the fresher.
    const initialRole = session.role || (access && access.role) || station.role || null;
    role = initialRole === "none" ? "listener" : initialRole;
    ready = true;
    applyRole();
    renderStation();
    renderListeners();
    renderConnection();
    if (session.timeline) {
      renderHistory();
      el.dataset.revision = String(session.timeline.revision);
    }
    disconnectMedia = connectMediaSession(player, {
      stationName: () => (session ? [session.station.frequency, session.station.name].filter(Boolean).join(" ") : "Wavelength"),
      onStop: () => {
        player.pause();
        renderPlayer();
      },
      onNextStation: () => flip(1),
      onPreviousStation: () => flip(-1),
    });
    renderPlayer();
    renderMode();
    frame();
    frameTimer = setInterval(frame, FRAME_MS);
    el.dataset.state = "ready";
    if (mode === "settings" && settingsView) settingsView.focusTarget()?.focus({ preventScroll: true });
  }

  // After the caller has taken down the previous screen (whose destroy()
  // stops the shared player), never before.
  queueMicrotask(() => {
    if (!destroyed) start();
  });

  return {
    el,
    update(nextRoute) {
      if (nextRoute.path[0] !== "station" || nextRoute.path[1] !== stationID) return false;
      const next = modeOf(nextRoute);
      // Settings open over the playing station when the booth is yours;
      // otherwise the app shows the settings screen on its own.
      if (next === "settings" && !(ready && isDJ())) return false;
      // Over (removed, ended, refused): coming back is a fresh start.
      if (over) return false;
      setMode(next);
      if (next === "settings" && settingsView) {
        const target = settingsView.focusTarget && settingsView.focusTarget();
        if (target) target.focus({ preventScroll: true });
      } else if (!settingsView) {
        document.title = session && session.station && session.station.name ? `${[session.station.frequency, session.station.name].filter(Boolean).join(" ")} · Wavelength` : document.title;
      }
      return true;
    },
    get title() {
      return settingsView ? settingsView.title : undefined;
    },
    focusTarget: () => (settingsView && settingsView.focusTarget ? settingsView.focusTarget() : stationName),
    destroy() {
      destroyed = true;
      clearInterval(frameTimer);
      staticFx.destroy();
      player.removeEventListener("state", renderPlayer);
      player.removeEventListener("mode", renderMode);
      disconnectMedia();
      if (settingsView) settingsView.destroy();
      if (library) library.destroy();
      if (session) session.close();
      player.stop();
    },
  };
}

function modeOf(route) {
  const part = route.path[2];
  return part === "add" ? "add" : part === "settings" ? "settings" : "main";
}
