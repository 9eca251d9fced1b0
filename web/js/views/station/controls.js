// The buttons under the art: listen/stop and the station flips for
// everyone, and in the booth SKIP and HOLD (the "together" controls: hold
// and resume the station for everyone; every device follows the timeline).
// A DJ command pressed while the connection is down waits on its button.

import { h, fill, icon } from "../../ui/dom.js";

/** @param {{onPlay: () => void, onSkip: () => void, onHold: () => void, onFlip: (step: number) => void}} actions */
export function createControls({ onPlay, onSkip, onHold, onFlip }) {
  const playButton = h("button", { class: "btn btn-round btn-play", type: "button", onclick: () => onPlay() });
  const skipButton = h(
    "button",
    { class: "btn btn-round btn-skip", type: "button", "aria-label": "Skip the current track", onclick: () => onSkip() },
    icon("skip", { size: 28 }),
    h("span", { class: "btn-caption" }, "Skip"),
  );
  const holdButton = h("button", {
    class: "btn btn-round btn-hold",
    type: "button",
    "aria-pressed": "false",
    onclick: () => onHold(),
  });
  const prevStation = h(
    "button",
    { class: "btn btn-round btn-flip", type: "button", "aria-label": "Previous station", onclick: () => onFlip(-1) },
    icon("prev", { size: 26 }),
    h("span", { class: "flip-caption" }, "Station"),
  );
  const nextStation = h(
    "button",
    { class: "btn btn-round btn-flip", type: "button", "aria-label": "Next station", onclick: () => onFlip(1) },
    h("span", { class: "flip-caption" }, "Station"),
    icon("next", { size: 26 }),
  );
  const transport = h("div", { class: "transport" }, prevStation, playButton, nextStation);
  // In the booth the station flips leave the transport: beside SKIP and
  // HOLD, ▶ read as "next track" and tuned the DJ away from their station.
  const flipRow = h("div", { class: "station-flip", role: "group", "aria-label": "Other stations" });
  return { playButton, skipButton, holdButton, prevStation, nextStation, transport, flipRow };
}

/** The booth's transport (HOLD ▶ SKIP, flips in their own row) or a listener's (◀ ▶ ▶). */
export function arrangeControls(controls, dj) {
  const { transport, flipRow, holdButton, playButton, skipButton, prevStation, nextStation } = controls;
  if (dj) {
    fill(transport, holdButton, playButton, skipButton);
    fill(flipRow, prevStation, nextStation);
  } else {
    fill(transport, prevStation, playButton, nextStation);
    fill(flipRow);
  }
}

/** Takes the booth's buttons away for good (the station is over for us). */
export function removeBoothControls(controls) {
  controls.skipButton.remove();
  controls.holdButton.remove();
  fill(controls.flipRow);
}

/** Listen or Stop, as the player wants to play. */
export function renderPlayButton(controls, playing) {
  fill(controls.playButton, icon(playing ? "stop" : "play", { size: 34 }));
  controls.playButton.setAttribute("aria-label", playing ? "Stop listening" : "Listen");
}

/** HOLD or GO, as the station is held; left alone while a press waits for the signal. */
export function renderHold(controls, held) {
  const { holdButton } = controls;
  if (holdButton.dataset.pending) return;
  fill(holdButton, icon(held ? "play" : "pause", { size: 26 }), h("span", { class: "btn-caption" }, held ? "Go" : "Hold"));
  holdButton.setAttribute("aria-label", held ? "Resume the station for everyone" : "Pause the station for everyone");
  holdButton.setAttribute("aria-pressed", held ? "true" : "false");
}

// A command pressed while the connection is down is kept and sent on
// reconnect (its id makes that safe); its button says so meanwhile.
export function markWaiting(button, waiting) {
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
