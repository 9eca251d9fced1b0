// Voice clips on the station screen. In the DJ booth (the owner and
// co-DJs): "Voice clip", a recorder whose clip plays next (right after the
// song playing, in sync for everyone), and the clip inbox: listeners'
// shout-outs waiting (loaded when the booth opens, then live from the
// socket's clipWaiting), approved with one press, deleted, and the
// station's clip space. For a listener, when the host takes shout-outs
// (the party's settings.guestClips, live): "Send a shout-out", the same
// recorder, which asks a listener without a name for one first.
//
// The recorder is clips/recorder.js, the inbox clips/inbox.js, their words
// clips/*-model.js; this module puts them on the screen and talks to the
// server (api/clips.js).

import { clipsAPI } from "../../api/clips.js";
import { session as me } from "../../api/session.js";
import { holdPlace } from "../../ui/hold-place.js";
import { toast } from "../../ui/toast.js";
import { addClip, applyClipList, approveClip, emptyInbox, inboxModel, readClip, removeClip } from "../clips/clips-model.js";
import { createClipInbox } from "../clips/inbox.js";
import { createClipPanel } from "../clips/recorder.js";
import { isDJ } from "./state.js";
import { playOrder } from "../../playback/timeline.js";

export function createClips(view) {
  const { stationID } = view.state;
  const booth = createClipPanel({
    mode: "dj",
    openText: "Voice clip",
    hint: "Say a few words between songs: your clip plays right after this one.",
    heading: "A voice clip between songs",
    sendText: "Play next",
    onSend: async (blob, note) => {
      const clip = await clipsAPI.send(stationID, blob, note);
      clipArrived(view, clip, { live: false });
      loadInbox(view);
      return { clip, text: "Plays next: it's in Up Next, right after this song." };
    },
  });
  const shoutOut = createClipPanel({
    mode: "listener",
    openText: "Send a shout-out",
    hint: "Record a few words for the room: the host plays it between songs.",
    heading: "Send a shout-out",
    sendText: "Send",
    onSend: async (blob, note) => {
      const clip = await clipsAPI.send(stationID, blob, note);
      return { clip, text: "Sent — waiting for the host." };
    },
    join: {
      needed: () => !(me && me.person),
      onJoin: async (name) => {
        await me.ensureGuest(name);
        // Known by name on the station's socket from now on.
        if (view.state.session) view.state.session.reconnect();
      },
    },
  });
  shoutOut.el.hidden = true;
  const inbox = createClipInbox({
    onApprove: (clipID) => approve(view, clipID),
    onDelete: (clipID) => remove(view, clipID),
  });
  return { booth, shoutOut, inbox, model: emptyInbox(), boothShown: false, loads: 0 };
}

/** Shows the parts for your role and the host's settings: the booth's, or a listener's shout-out. */
export function renderClips(view) {
  const clips = view.clips;
  const { state } = view;
  if (!clips || state.destroyed || !state.ready) return;
  const dj = isDJ(state);
  if (dj && !clips.boothShown) {
    clips.boothShown = true;
    // Beside the booth's other ways on the air: after Add tracks, before Go live.
    const golive = view.booth && view.booth.broadcast && view.booth.broadcast.el;
    view.nowCol.insertBefore(clips.booth.el, golive && golive.parentNode === view.nowCol ? golive : null);
    clips.inbox.show();
    renderInbox(view);
    loadInbox(view);
  } else if (!dj && clips.boothShown) {
    clips.boothShown = false;
    clips.booth.detach();
    clips.inbox.hide();
    clips.model = emptyInbox();
  }
  const party = state.session && state.session.party;
  const allowed = !dj && !state.over && Boolean(party && party.settings && party.settings.guestClips === true);
  if (!allowed && clips.shoutOut.opened) {
    clips.shoutOut.close();
    if (!dj) toast("The host isn't taking shout-outs right now.");
  }
  clips.shoutOut.el.hidden = !allowed;
  if (allowed) clips.shoutOut.refresh();
}

function renderInbox(view) {
  // A clip arriving above the chat leaves the chat where it is.
  holdPlace(view.clips.inbox.el, () => view.clips.inbox.render(inboxModel(view.clips.model)));
}

/** GET …/clips: every clip of the station, for the booth's inbox. */
export async function loadInbox(view) {
  const clips = view.clips;
  if (!clips || !isDJ(view.state)) return;
  const mine = ++clips.loads;
  try {
    const list = await clipsAPI.list(view.state.stationID);
    if (view.state.destroyed || !isDJ(view.state) || mine !== clips.loads) return;
    clips.model = applyClipList(clips.model, list);
    renderInbox(view);
  } catch (error) {
    if (view.state.destroyed || mine !== clips.loads) return;
    if (!clips.model.loaded) clips.inbox.say(`Couldn't load the clips: ${(error && error.message) || "try again later."}`);
  }
}

function clipArrived(view, clip, { live }) {
  const clips = view.clips;
  if (!clips || !isDJ(view.state)) return;
  clips.model = addClip(clips.model, clip, { live });
  renderInbox(view);
}

/** The station's socket: a listener's shout-out waits for you (the owner and co-DJs only get these). */
export function clipWaiting(view, value) {
  const clip = readClip(value);
  if (!clip || view.state.destroyed || !isDJ(view.state)) return;
  const known = view.clips.model.clips.some((c) => c.id === clip.id);
  clipArrived(view, clip, { live: true });
  if (!known) {
    view.clips.inbox.say(`A shout-out from ${clip.person.name} is waiting.`);
    toast(`${clip.person.name} sent a shout-out: it's in your clip inbox.`);
    // The clip space it takes.
    loadInbox(view);
  }
}

async function approve(view, clipID) {
  const clip = await clipsAPI.approve(view.state.stationID, clipID);
  view.clips.model = approveClip(view.clips.model, clip);
  renderInbox(view);
}

async function remove(view, clipID) {
  await clipsAPI.remove(view.state.stationID, clipID);
  view.clips.model = removeClip(view.clips.model, clipID);
  renderInbox(view);
  // The space it held is free again.
  loadInbox(view);
}

/**
 * A listener's shout-out, once the host approved it: it is on the
 * timeline (Up Next, or playing), and the panel that sent it says so.
 */
export function followSentClip(view) {
  const clips = view.clips;
  if (!clips || !clips.shoutOut.opened) return;
  const { status, sent } = clips.shoutOut.state;
  if (status !== "sent" || !sent || clips.approvedSeen === sent.id) return;
  const timeline = view.state.session && view.state.session.timeline;
  if (playOrder(timeline).some((e) => e.track && e.track.id === `clip:${sent.id}`)) {
    clips.approvedSeen = sent.id;
    clips.shoutOut.say("The host approved your shout-out: it plays between songs.");
  }
}

/** The station is over for us: a recording under way stops and the microphone goes. */
export function stopClips(view) {
  const clips = view.clips;
  if (!clips) return;
  clips.booth.close();
  clips.shoutOut.close();
  clips.inbox.hide();
}

export function destroyClips(view) {
  const clips = view.clips;
  if (!clips) return;
  clips.booth.destroy();
  clips.shoutOut.destroy();
  clips.inbox.destroy();
}
