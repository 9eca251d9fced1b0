// Tuning in: the live connection and the player start at once, while the
// station and your access are looked up; then the screen is built for your
// role and follows the station live (a frame every FRAME_MS for the
// progress and Up Next, renders on the session's changes). Being removed,
// the host ending the session and access refusals end the screen.

import { api } from "../../api/api.js";
import { session as me } from "../../api/session.js";
import { StationSession, fetchAccess } from "../../live/station-session.js";
import { connectMediaSession } from "../../playback/media-session.js";
import { timelineNow } from "../../playback/timeline.js";
import { toast } from "../../ui/toast.js";
import { current, flip, togglePlay, upcoming } from "./actions.js";
import { renderHold } from "./controls.js";
import { renderConnection, renderListeners, renderStationHeader } from "./header.js";
import { renderHistory } from "./history.js";
import { renderNow, renderPlayer, renderProgress, showTuning } from "./now-playing.js";
import { renderLiveFrame } from "./live-show.js";
import { lyricsPartyChanged, lyricsSnapshot, renderLyrics } from "./lyrics.js";
import { showLoadError, showOver } from "./over.js";
import { announceOverride, renderParty } from "./party-actions.js";
import { refreshLiked, renderReactions } from "./reaction-actions.js";
import { renderRoom } from "./room-mode.js";
import { renderPlaybackMode } from "./playback-details.js";
import { renderAnyPlayer } from "./any-player.js";
import { renderHistoryMode } from "./history-mode.js";
import { renderStudioClock, renderStudioCount } from "./studio.js";
import { applyRole, setRole } from "./role.js";
import { renderChat, renderRoomReactions, roomEvent } from "./chat-actions.js";
import { focusSettings } from "./settings-overlay.js";
import { clipWaiting, followSentClip, loadInbox, renderClips } from "./clips.js";
import { isDJ, isHeldNow, normalRole, stationLine } from "./state.js";
import { ErrorCode } from "../../api/error-codes.js";
import { startedEarly } from "../../playback/early-player.js";
import { startRoomCalibration } from "./room-calibration.js";

const FRAME_MS = 250;
// How old a timeline fetched before the screen (early-station.js) may be and
// still start the player ahead of the live connection's snapshot.
const EARLY_TIMELINE_MS = 3000;

/** What changes by the moment: now playing, progress, Up Next and Find tracks' toggles. */
function frame(view) {
  const { state } = view;
  if (!state.session || state.destroyed) return;
  const entry = current(view);
  if (renderNow(view.np, state, view.el, entry) && view.findTracks) view.findTracks.nowBar.update(entry);
  const timelineMs = timelineNow(state.session && state.session.timeline, view.clock.now());
  renderProgress(view.np, entry, timelineMs);
  renderLiveFrame(view.np.live, entry, timelineMs, view.player);
  renderLyrics(view);
  view.queue.render(upcoming(view), entry);
  renderParty(view);
  renderReactions(view);
  renderRoomReactions(view);
  renderRoom(view);
  renderStudioClock(view);
  renderHistoryMode(view);
  if (view.findTracks) view.findTracks.library.refreshToggles();
}

function renderStation(view) {
  const { station } = view.state.session;
  renderStationHeader(view.header, view.el, station, view.state.mode);
  renderAnyPlayer(view.anyPlayer, station);
}

function onChange(view, reason) {
  const { state, player } = view;
  const { session } = state;
  if (state.destroyed || state.over) return;
  if (reason === "snapshot" || reason === "sound") player.setSound(session.station.sound);
  if (reason === "sound" && session.station.sound && session.station.sound.reason) toast(`${session.station.sound.reason}.`);
  if (reason === "snapshot" || reason === "timeline") {
    player.setTimeline(session.timeline);
    if (reason === "snapshot") player.recover();
  }
  if (reason === "connection" && session.connection === "live") player.recover();
  if (reason === "role") {
    setRole(view, session.role);
    // The moderators' tools come and go with the role.
    renderChat(view);
  }
  // The host's lyrics switch, known before the screen is ready.
  if (reason === "party") lyricsPartyChanged(view);
  if (reason === "snapshot") lyricsSnapshot(view);
  if (reason === "connection" && session.connection === "live" && view.lyrics.allowed !== null) lyricsSnapshot(view);
  if (!state.ready) return;
  if (reason === "snapshot" || reason === "timeline") {
    renderStation(view);
    renderHistory(view.history, session.timeline);
    if (isDJ(state)) renderHold(view.controls, isHeldNow(session));
    renderListeners(view.header, session.listeners);
    renderStudioCount(view);
    frame(view);
    view.el.dataset.revision = String(session.timeline.revision);
    // Your shout-out, approved by the host.
    followSentClip(view);
  }
  if (reason === "listeners") {
    renderListeners(view.header, session.listeners);
    renderStudioCount(view);
  }
  if (reason === "party" || reason === "role") renderParty(view);
  // Shout-outs come and go with the host's settings and your role.
  if (reason === "party" || reason === "role") renderClips(view);
  // Back after a drop: shout-outs sent meanwhile are in the list.
  if (reason === "snapshot" && isDJ(state)) loadInbox(view);
  if (reason === "thumbs" || reason === "role") renderReactions(view);
  if (reason === "connection" || reason === "snapshot" || reason === "timeline") renderConnection(view.header, view.el, session.connection, { held: isHeldNow(session) });
}

/** The station's live session (its WebSocket opens with start()). */
export function openSession(view) {
  const { state, clock } = view;
  const session = new StationSession({
    station: { id: state.stationID, listeners: 0 },
    clock,
    selfID: () => (me && me.person ? me.person.id : null),
  });
  session.addEventListener("change", (event) => onChange(view, event.detail.reason));
  session.addEventListener("servererror", (event) => toast(event.detail.message, { kind: "error" }));
  // The chat and the reactions (chat-actions.js); drawn again when who you are changes.
  session.addEventListener("room", (event) => roomEvent(view, event.detail));
  // A listener's voice clip waiting for the host (the booth's inbox).
  session.addEventListener("clip", (event) => {
    if (!state.destroyed && state.ready) clipWaiting(view, event.detail.clip);
  });
  view.chatUnsubscribe = me.onChange(() => {
    renderChat(view);
    renderClips(view);
  });
  session.addEventListener("handover", (event) => {
    if (state.destroyed || !state.ready) return;
    const { present, name } = event.detail;
    if (!present || !name) return;
    // The owner takes the booth each time they arrive: no news to them.
    const mine = session.live && session.live.role === "dj";
    if (mine && session.role === "owner") return;
    toast(mine ? "You're the DJ now: the booth is yours." : `${name} is the DJ now.`);
  });
  session.addEventListener("override", (event) => {
    if (!state.destroyed && state.ready) announceOverride(view, event.detail);
  });
  session.addEventListener("removed", (event) => {
    if (state.destroyed) return;
    const { person, reason, self } = event.detail;
    if (self) {
      showOver(view, reason === "banned" ? "banned" : reason === "left" ? "left" : reason === "another-lobby" ? "another_lobby" : "removed");
      return;
    }
    const name = (person && person.name) || "Someone";
    toast(reason === "left" ? `${name} left` : reason === "another-lobby" ? `${name} left for another lobby` : `${name} was removed`);
  });
  session.addEventListener("ended", () => showOver(view, "ended"));
  session.addEventListener("denied", (event) => showOver(view, "denied", event.detail));
  return session;
}

/**
 * Starts the player, once, on the timeline asked for over HTTP before the
 * screen was built: it fetches the song playing while the live connection
 * opens, and the snapshot then replaces the timeline. For a station link
 * whose station is known, the screen calls this before it builds its DOM:
 * with the clock and the song's first piece made ready as the page opened,
 * the first sound is scheduled right here.
 */
export function startPlayer(view) {
  const { state, player } = view;
  if (view.playerStarted) return;
  view.playerStarted = true;
  const early = view.early || { station: api.station(state.stationID), timeline: Promise.resolve(null) };
  view.early = early;
  const take = (timeline) => {
    // A timeline the dial warmed seconds ago may be out of date: only a fresh one.
    const fresh = !early.at || performance.now() - early.at < EARLY_TIMELINE_MS;
    if (timeline && fresh && !state.destroyed && !state.over && state.session && !state.session.timeline && player.timeline !== timeline) player.setTimeline(timeline);
  };
  // The link's player plays this station since the page opened
  // (early-player.js): it carries on.
  if (startedEarly(state.stationID, player)) return;
  // Already here: the player has it before it starts, so its first
  // reconcile can schedule.
  take(early.timelineNow);
  player.start({ tunedAt: view.tunedAt });
  early.timeline.then(take, () => {});
}

export async function startStation(view) {
  const { state, player } = view;
  showTuning(view.np);
  // Who we are: to tell a `removed` about us from one about someone else.
  if (me && typeof me.load === "function" && !me.person) Promise.resolve(me.load()).catch(() => {});
  // The player starts while the station is looked up; the live connection
  // opens once the station is known to be there (a wrong link — a typo, a
  // station that ended — gets its 404 and no WebSocket).
  // Opened already when the station was known before the screen was built.
  if (!state.session) state.session = openSession(view);
  view.onPlayerState = () => renderPlayer(view, () => togglePlay(view));
  view.onPlayerMode = () => renderPlaybackMode(view.details, player);
  player.addEventListener("state", view.onPlayerState);
  player.addEventListener("mode", view.onPlayerMode);
  startPlayer(view);
  const accessAnswer = fetchAccess(state.stationID).catch(() => null);
  const { early } = view;
  let station;
  try {
    station = await early.station;
    if (state.destroyed || state.over) return;
    if (!state.session.live) state.session.start();
  } catch (error) {
    if (state.destroyed || state.over) return;
    if ([ErrorCode.signInRequired, ErrorCode.notAMember, ErrorCode.banned, ErrorCode.stationFull].includes(error.code)) {
      showOver(view, "denied", { code: error.code, message: error.message });
      return;
    }
    showLoadError(view, error);
    return;
  }
  const access = await accessAnswer;
  if (state.destroyed || state.over) return;
  const { session } = state;
  // A snapshot that came first has the fresher station.
  if (!session.timeline) {
    session.station = station;
    session.listeners = station.listeners || 0;
  } else {
    session.station = { ...station, ...session.station };
  }
  if (access && access.canListen === false) {
    showOver(view, "denied", { code: access.reason || ErrorCode.notAMember });
    return;
  }
  // The WebSocket's `access` may have come first; it is the fresher.
  state.role = normalRole(session.role || (access && access.role) || station.role || null);
  state.ready = true;
  applyRole(view);
  renderChat(view);
  renderClips(view);
  renderStation(view);
  renderListeners(view.header, session.listeners);
  renderConnection(view.header, view.el, session.connection, { held: isHeldNow(session) });
  if (session.timeline) {
    renderHistory(view.history, session.timeline);
    view.el.dataset.revision = String(session.timeline.revision);
  }
  view.disconnectMedia = connectMediaSession(player, {
    stationName: () => (state.session ? stationLine(state.session.station) : "Wavelength"),
    onStop: () => {
      player.pause();
      view.onPlayerState();
    },
    onNextStation: () => flip(view, 1),
    onPreviousStation: () => flip(view, -1),
  });
  view.onPlayerState();
  view.onPlayerMode();
  frame(view);
  view.frameTimer = setInterval(() => frame(view), FRAME_MS);
  refreshLiked(view);
  startRoomCalibration(view);
  view.el.dataset.state = "ready";
  if (state.mode === "settings" && view.settingsView) focusSettings(view);
}
