// The station screen's DOM, put together from its parts: the header, the
// now-playing column (art, texts, progress, or a live show's LIVE sign when
// a source has taken the station over, controls, playback details),
// Up Next with Just played and the booth's settings card, the booth's Find
// tracks column, and the host for the settings shown over the station.
// Puts every part on `view`; the buttons call station/actions.js.

import { h } from "../../ui/dom.js";
import { createQueue } from "../queue.js";
import { command, flip, positionNow, current, seek, skip, toggleHold, togglePlay } from "./actions.js";
import { bindSeeking, createBoothParts } from "./booth.js";
import { createControls } from "./controls.js";
import { createHeader } from "./header.js";
import { createHistory } from "./history.js";
import { createNowPlaying } from "./now-playing.js";
import { createLobbyPanel } from "./lobby.js";
import { createPartyPanel } from "./party.js";
import { createVetoedPanel } from "./vetoed.js";
import { joinParty, partyCommand, voteSkip } from "./party-actions.js";
import { createPlaybackDetails } from "./playback-details.js";
import { createRoomCalibration } from "./room-calibration.js";
import { createReactions } from "./reactions.js";
import { createLevelPanel } from "./room-level.js";
import { createLyricsPanel } from "./lyrics.js";
import { likeTrack, thumb } from "./reaction-actions.js";
import { openSettingsHere } from "./settings-overlay.js";
import { isDJ } from "./state.js";
import { isLive } from "../../playback/timeline.js";
import { createStudio } from "./studio.js";
import { createAnyPlayer } from "./any-player.js";
import { createChatPanel } from "./chat.js";
import { chatRead, joinChat, moderateChat, reactNow, sendChat } from "./chat-actions.js";
import { createRoomReactions } from "./room-reactions.js";
import { createIdentify } from "../identify/panel.js";
import { createClips } from "./clips.js";
import { createReportQueue } from "../reports/queue.js";
import { openReportDialog } from "../reports/report-dialog.js";
import { reportsAPI } from "../../api/reports.js";

export function createLayout(view) {
  const { state, clock, player } = view;
  const { stationID } = state;
  const header = createHeader(stationID, (e) => openSettingsHere(view, e));
  const np = createNowPlaying();
  const controls = createControls({
    onPlay: () => togglePlay(view),
    onSkip: () => skip(view),
    onHold: () => toggleHold(view),
    onFlip: (step) => flip(view, step),
  });
  const details = createPlaybackDetails(player);
  // "Calibrate the room" (room-calibration.js): each device's output delay.
  const calibrate = createRoomCalibration();
  // The radio stream's links, for public and unlisted stations.
  const anyPlayer = createAnyPlayer();
  // "What's this song?" for a song heard in the room, under the player.
  const identify = createIdentify({ place: "station" });
  const booth = createBoothParts(stationID);
  const reactions = createReactions({
    onThumb: (entryID, up) => thumb(view, entryID, up),
    onLike: (trackID, like) => likeTrack(view, trackID, like),
  });
  // The room's level, when the host lets the room vote it.
  const level = createLevelPanel({
    onVote: (up) => partyCommand(view, up === null ? { op: "volumeVote" } : { op: "volumeVote", up }),
    onReset: () => partyCommand(view, { op: "setVolume", levelDb: 0 }, "The level is back to the station's loudness."),
  });
  // Emoji reactions to the moment (room-reactions.js): the row under the
  // art, the bursts floating over it.
  const roomReactions = createRoomReactions({ onReact: (emoji) => reactNow(view, emoji) });
  np.artStage.insertBefore(roomReactions.layer, np.overlay);
  // A live show's parts are now playing's (station/live-show.js).
  const liveShow = np.live;
  // Voice clips (clips.js): the booth's recorder and inbox, a listener's shout-out.
  const clips = createClips(view);
  // Anyone may report the station to the server's administrators.
  const reportStation = h(
    "button",
    {
      type: "button",
      class: "btn-text report-station",
      onclick: () => openReportDialog({ subject: "station", id: stationID, name: header.stationName.textContent || "this station" }),
    },
    "Report this station",
  );
  const nowCol = h("div", { class: "now-col" }, np.artStage, roomReactions.el, np.meta, reactions.el, level.el, np.progress, np.times, controls.transport, controls.flipRow, clips.shoutOut.el, calibrate.el, details.el, identify.el, anyPlayer.el, reportStation);
  // The booth's report queue (the room's chat and clips), shown to the owner and co-DJs (role.js).
  const reports = createReportQueue({
    id: "booth-reports",
    title: "Reports",
    load: (status) => reportsAPI.station(stationID, status),
    empty: "No reports waiting: the room is behaving.",
  });
  reports.el.hidden = true;

  // Up Next and history.
  const queue = createQueue({
    owner: false,
    onRemove: (entry) => command(view, { op: "remove", entryID: entry.id }, `Deleted ${entry.track.title}.`),
    onMove: (entry, toIndex) => command(view, { op: "move", entryID: entry.id, toIndex }),
    localTime: (serverMs) => new Date(serverMs - clock.offset).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }),
  });
  const history = createHistory(stationID);
  // The booth's studio board (the count, the last hour, the countdown), first in the column.
  const studio = createStudio();
  // The party's requests (requests mode), above Up Next.
  const party = createPartyPanel({
    onRequest: (track) => partyCommand(view, { op: "request", trackID: track.id }, `Asked for ${track.title}.`),
    onVote: (id, vote) => partyCommand(view, { op: "vote", requestID: id, vote: vote || "none" }),
    onWithdraw: (id) => partyCommand(view, { op: "withdraw", requestID: id }, "Request taken back."),
    onTop: (id) => partyCommand(view, { op: "moveRequest", requestID: id, toIndex: 0 }),
    onMove: (id, toIndex) => partyCommand(view, { op: "moveRequest", requestID: id, toIndex }),
    onPlayNow: (id) => partyCommand(view, { op: "playRequestNow", requestID: id }),
    onVeto: (id) => partyCommand(view, { op: "vetoRequest", requestID: id }),
    onSkipVote: () => voteSkip(view),
    onJoin: (name) => joinParty(view, name),
  });
  // The lobby's ballot (lobby mode), in the same place.
  const lobby = createLobbyPanel(
    {
      onVote: (ballotID, trackID) => partyCommand(view, { op: "ballotVote", ballotID, trackID }),
      onElect: (ballotID, trackID) => partyCommand(view, { op: "elect", ballotID, trackID }),
      onSuggest: (track) => partyCommand(view, { op: "request", trackID: track.id }, `Suggested ${track.title} for the next vote.`),
      onJoin: (name) => joinParty(view, name),
    },
    { serverNow: () => clock.now() },
  );
  // The songs the host vetoed (vetoed.js), for the host and co-DJs in every
  // mode, under the party's panel: each may be lifted.
  const vetoed = createVetoedPanel({
    onLift: (track) => partyCommand(view, { op: "liftVeto", trackID: track.id }, `${track.title || "The song"} may be asked for again.`),
  });
  // The song's words, in time with the station (lyrics.js): first for a
  // listener, under the booth's studio board; beside now playing on wide
  // screens, under it on phones.
  const lyrics = createLyricsPanel();
  // The room's chat (chat.js), under the words: beside now playing on wide
  // screens, under it on phones.
  const chat = createChatPanel({
    stationID,
    onSend: (text) => sendChat(view, text),
    onModerate: (action) => moderateChat(view, action),
    onJoin: (name) => joinChat(view, name),
    onRead: () => chatRead(view),
  });
  const queueCol = h("div", { class: "queue-col" }, studio.el, clips.inbox.el, reports.el, lyrics.el, chat.el, party.el, lobby.el, vetoed.el, queue.el, history.panel, booth.ownerTools);

  const addCol = h("div", { class: "add-col" });
  const grid = h("div", { class: "station-grid" }, nowCol, queueCol, addCol);

  // Station settings, for the owner and co-DJs, shown over the station so
  // the music keeps playing (#/station/ID/settings).
  const settingsHost = h("div", { class: "settings-host", hidden: true });

  const el = h("section", { class: "screen station-screen", dataset: { stationId: stationID } }, header.bar, header.banner, grid, settingsHost);

  // Seeking by the progress bar: only while you may DJ.
  bindSeeking(np.progress, {
    seekableEntry: () => {
      const entry = current(view);
      // A live show has no position to seek to.
      return isDJ(state) && entry && !isLive(entry) ? entry : null;
    },
    positionNow: (entry) => positionNow(view, entry),
    seek: (ms) => seek(view, ms),
  });

  Object.assign(view, { el, header, np, calibrate, liveShow, controls, details, anyPlayer, identify, booth, nowCol, queue, history, studio, lyrics, party, lobby, vetoed, level, reactions, addCol, grid, settingsHost, chat, roomReactions, clips, reports });
  // The palette, the song's totals and your recent sends (for the page's own limit).
  // `ids`: the reactions sent whose refusal may still come back, by id.
  view.roomReactionsState = { palette: [], reactions: null, sent: [], ids: new Set() };
}
