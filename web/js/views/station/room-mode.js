// Opening and closing the party screen over the station (see room.js): the
// station's own grid and header step aside, the music keeps playing, and
// the room is rendered with the screen's frames.

import { stationHref } from "../../router.js";
import { current } from "./actions.js";
import { createRoom, roomInvite, roomModel } from "./room.js";

export function openRoom(view) {
  const { state } = view;
  if (!view.room) {
    view.room = createRoom({ backHref: stationHref(state.stationID) });
    view.el.append(view.room.el);
  }
  view.room.el.hidden = false;
  view.grid.hidden = true;
  view.header.bar.hidden = true;
  view.el.classList.add("mode-screen");
  document.title = "Party screen · Wavelength";
  renderRoom(view);
  roomInvite(state.stationID)
    .then((invite) => view.room && view.room.showInvite(invite))
    .catch((error) => view.room && view.room.showInviteError((error && error.message) || "Couldn't make a join code."));
}

export function closeRoom(view) {
  if (!view.room || view.room.el.hidden) return;
  view.room.el.hidden = true;
  view.grid.hidden = false;
  view.header.bar.hidden = false;
  view.el.classList.remove("mode-screen");
}

export function renderRoom(view) {
  if (!view.room || view.room.el.hidden || !view.state.session) return;
  const { session } = view.state;
  view.room.render(roomModel({ entry: current(view), party: session.party, frequency: session.station && session.station.frequency }));
}
