// The Go live panel on the air: going on (a BroadcastLink to the server,
// with the desk's stream), the clock while live, the title sent again, and
// coming off (Stop, a refusal or a dropped line), each saying why as text.
// Each function takes the panel `p` (broadcast-panel.js); the line itself
// is broadcast-link.js, the words broadcast-model.js.

import { setText } from "../../ui/dom.js";
import { BroadcastLink } from "./broadcast-link.js";
import { ACTIVE, chooseBroadcastType, cleanTitle, closeText, elapsedText, errorText } from "./broadcast-model.js";
import { closeDesk, prepare } from "./broadcast-desk.js";
import { keepFocus } from "./broadcast-view.js";

function tick(p) {
  setText(p.view.clock, elapsedText(performance.now() - p.liveSince));
}

/** Stops the on-air clock. */
export function stopClock(p) {
  clearInterval(p.clockTimer);
  p.clockTimer = null;
  p.liveSince = 0;
}

/** Not on the air after all (a refusal before the air, or Cancel): ready again. */
function notOnAir(p, why) {
  p.setState("ready");
  p.say("Not on the air.");
  if (why != null) p.showProblem(why);
  keepFocus(p.view, p.view.startButton);
}

/** The line's events for `mine`, ignored once it is no longer the panel's line. */
function linkEvents(p, mine) {
  const ours = () => p.link === mine.current;
  return {
    onAir: () => {
      if (!ours()) return;
      p.liveSince = performance.now();
      p.setState("live");
      p.say("On the air.");
      tick(p);
      p.clockTimer = setInterval(() => tick(p), 1000);
    },
    onError: (error, wasLive) => {
      if (!ours()) return;
      p.link = null;
      if (wasLive) endBroadcast(p, errorText(error));
      else notOnAir(p, errorText(error));
    },
    onClosed: ({ code, live }) => {
      if (!ours()) return;
      p.link = null;
      if (live) endBroadcast(p, closeText(code, true));
      else notOnAir(p, closeText(code, false));
    },
    onUplink: (slow) => {
      p.view.uplink.hidden = !slow;
      setText(p.view.uplink, slow ? "Your connection can't keep up: listeners may hear gaps." : "");
    },
  };
}

/** "Go on the air": the microphone first if need be, then the line. */
export async function goOnAir(p) {
  p.showProblem("");
  if (ACTIVE.has(p.state)) return;
  const ready = await prepare(p);
  if (!ready || !p.desk || ACTIVE.has(p.state)) return;
  const mimeType = chooseBroadcastType((type) => MediaRecorder.isTypeSupported(type));
  if (!mimeType) {
    p.showProblem("This browser can't record Opus in WebM, which the server needs to go live. Try Chrome, Edge or Firefox.");
    return;
  }
  const hadFocus = document.activeElement === p.view.startButton;
  p.setState("connecting");
  p.say("Connecting to the server…");
  if (hadFocus) p.view.stopButton.focus();
  const mine = { current: null };
  mine.current = new BroadcastLink({
    stationID: p.stationID,
    stream: p.desk.stream,
    mimeType,
    title: p.view.titleInput.value,
    events: linkEvents(p, mine),
  });
  p.link = mine.current;
}

/** Stop (or Cancel while connecting). */
export async function stopBroadcast(p) {
  const mine = p.link;
  if (!mine) return;
  if (p.state === "connecting") {
    p.link = null;
    mine.cancel();
    notOnAir(p, null);
    return;
  }
  p.setState("stopping");
  p.say("Going off the air…");
  await mine.stop();
  if (p.link !== mine) return;
  p.link = null;
  endBroadcast(p, null);
}

/** Off the air: the recorder and the line are done; the microphone is released. */
export function endBroadcast(p, why) {
  const lasted = p.liveSince ? performance.now() - p.liveSince : 0;
  stopClock(p);
  p.view.uplink.hidden = true;
  closeDesk(p);
  p.setState("ended");
  p.say(`Off the air after ${elapsedText(lasted)}.`);
  p.showProblem(why || "");
  keepFocus(p.view, p.view.startButton);
}

/** "Update title" while live. */
export function sendTitle(p, event) {
  event.preventDefault();
  if (p.state !== "live" || !p.link) return;
  const title = cleanTitle(p.view.titleInput.value);
  if (!title) {
    p.showProblem("Type a title first.");
    return;
  }
  p.showProblem("");
  if (p.link.sendTitle(title)) p.say(`On the air. Title sent: ${title}`);
}
