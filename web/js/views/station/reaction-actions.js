// What the reactions do (see reactions.js): a thumb is a command with an id,
// like the DJ's, so a resend is applied once; ♥ saves the track to your
// liked songs over HTTP. Your own thumbs are kept here, per play, from the
// acks.

import { session as me } from "../../api/session.js";
import { toast } from "../../ui/toast.js";
import { command, current } from "./actions.js";
import { loadLiked, reactionsModel, setLiked } from "./reactions.js";
import { isDJ } from "./state.js";

export async function thumb(view, entryID, up) {
  await command(view, { op: "thumb", entryID, ...(up === null ? {} : { up }) });
  view.myThumbs.set(entryID, up);
  renderReactions(view);
}

export async function likeTrack(view, trackID, like) {
  await setLiked(trackID, like);
  if (like) view.liked.add(trackID);
  else view.liked.delete(trackID);
  renderReactions(view);
  toast(like ? "Saved to your liked songs." : "Taken out of your liked songs.");
}

/** Loads your liked songs once you have a name. */
export async function refreshLiked(view) {
  if (!(me && me.person)) return;
  view.liked = await loadLiked();
  renderReactions(view);
}

export function renderReactions(view) {
  const { state } = view;
  if (!state.session || !view.reactions) return;
  view.reactions.render(
    reactionsModel({
      entry: current(view),
      named: Boolean(me && me.person),
      myThumbs: view.myThumbs,
      liked: view.liked,
      counts: state.session.thumbs,
      staff: isDJ(state),
    }),
  );
}
