// One Go live panel (see broadcast.js for the page-level rules): its state,
// opening and closing it, and the wiring of its buttons. The DOM is
// broadcast-view.js, the meter broadcast-meter.js, the microphone and music
// bed broadcast-desk.js, and going on and off the air broadcast-air.js;
// they share the panel object `p` made here ({stationID, view, state, desk,
// link, bedFile, liveSince, clockTimer, preparing, meter, setState, say,
// showProblem}).

import { setText } from "../../ui/dom.js";
import { ACTIVE, panelLook } from "./broadcast-model.js";
import { buildBroadcastView, showPanelState } from "./broadcast-view.js";
import { createMeter } from "./broadcast-meter.js";
import { closeDesk, listMicrophones, prepare, wireDeskControls } from "./broadcast-desk.js";
import { goOnAir, sendTitle, stopBroadcast, stopClock } from "./broadcast-air.js";

let panels = 0;

/**
 * A new panel for `stationID`: {stationID, el, state, gone, detach(),
 * close(), leave(), devicesChanged()}. `onActive(active)` hears a broadcast
 * start or end; `onGone()` that the panel has left for good.
 */
export function createPanel(stationID, { onActive, onGone }) {
  panels += 1;
  const number = panels;
  const view = buildBroadcastView((name) => `broadcast-${name}-${number}`);
  const p = {
    stationID, view, state: "closed",
    desk: null, link: null, bedFile: null, liveSince: 0, clockTimer: null, preparing: null,
    meter: createMeter(view.meter, () => p.desk),
    setState,
    say: (text) => setText(view.status, text),
    showProblem: (text) => setText(view.problem, text),
  };
  const self = {
    stationID, el: view.el, gone: false,
    get state() {
      return p.state;
    },
    detach, close, leave,
    devicesChanged: () => listMicrophones(p),
  };

  function setState(next) {
    const wasActive = ACTIVE.has(p.state);
    p.state = next;
    const look = panelLook(next, { hasDesk: Boolean(p.desk), hasBed: Boolean(p.bedFile) });
    showPanelState(view, next, look);
    if (look.active !== wasActive) onActive(look.active);
  }

  function open() {
    if (p.state !== "closed") return;
    p.showProblem("");
    setState("opening");
    view.heading.focus();
    prepare(p);
  }

  /** Ends everything and folds the panel back to its button. */
  function close() {
    if (p.link) {
      const mine = p.link;
      p.link = null;
      mine.cancel();
    }
    stopClock(p);
    closeDesk(p);
    const hadFocus = view.el.contains(document.activeElement);
    setState("closed");
    p.say("");
    p.showProblem("");
    view.uplink.hidden = true;
    if (hadFocus && view.el.isConnected) view.openButton.focus();
  }

  /** The booth closed (your role changed): a broadcast under way stays, with its Stop; otherwise the panel goes. */
  function detach() {
    if (ACTIVE.has(p.state)) return;
    close();
    view.el.remove();
  }

  /** The page left the station: everything ends, and the next booth makes a panel of its own. */
  function leave() {
    close();
    self.gone = true;
    onGone(self);
  }

  view.openButton.addEventListener("click", open);
  view.closeButton.addEventListener("click", close);
  view.startButton.addEventListener("click", () => goOnAir(p));
  view.stopButton.addEventListener("click", () => stopBroadcast(p));
  view.titleForm.addEventListener("submit", (event) => sendTitle(p, event));
  wireDeskControls(p);
  return self;
}
