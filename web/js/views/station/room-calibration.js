// "Calibrate the room" on the station screen (room/calibration.js): this
// phone measures the room with its microphone, or this device answers
// another phone's call and plays its chirp. Every device, the DJ's booth
// too, sees the figures the measuring phone sent.

import { h, setText } from "../../ui/dom.js";
import { RoomCalibration, storedName } from "../../room/calibration.js";

export function createRoomCalibration() {
  const distance = h("input", { type: "number", min: "0", max: "50", step: "0.5", value: "0", class: "calibrate-distance", "aria-describedby": "calibrate-distance-hint" });
  const start = h("button", { type: "button", class: "btn calibrate-start" }, "Calibrate the room with this phone");
  const deviceName = h("input", { type: "text", maxlength: "40", class: "calibrate-name", autocomplete: "off", value: storedName() });
  const join = h("button", { type: "button", class: "btn calibrate-join" }, "Take part");
  const notNow = h("button", { type: "button", class: "btn-text calibrate-skip" }, "Not now");
  const callText = h("p", { class: "calibrate-call-text" });
  const call = h("div", { class: "calibrate-call", role: "group", "aria-label": "A room calibration", hidden: true }, callText, h("label", { class: "calibrate-field" }, "This device's name ", deviceName), h("div", { class: "calibrate-actions" }, join, notNow));
  const status = h("p", { class: "calibrate-status", role: "status", "aria-live": "polite" });
  const progress = h("progress", { class: "calibrate-progress", max: "1", value: "0", hidden: true, "aria-label": "Calibration progress" });
  const results = h("ul", { class: "calibrate-results", "aria-label": "Each device's measured delay" });
  const own = h("p", { class: "calibrate-own" });
  const summary = h("summary", { class: "calibrate-summary" }, "Calibrate the room");
  const el = h(
    "details",
    { class: "calibrate" },
    summary,
    h("p", { class: "calibrate-about" }, "A Bluetooth speaker or a TV adds a delay the browser can't see, so the room hears an echo. One phone's microphone measures every device here: each plays a short, quiet chirp in turn, and each then starts its sound that much earlier."),
    h("p", { class: "calibrate-privacy" }, "The recording never leaves the measuring phone: only each device's delay is sent."),
    h("label", { class: "calibrate-field" }, "Distance from this phone to the speakers (m) ", distance),
    h("p", { id: "calibrate-distance-hint", class: "calibrate-hint" }, "Stand where people listen; sound takes about 3 ms a metre."),
    start,
    call,
    progress,
    status,
    results,
    own,
  );
  return { el, start, join, notNow, deviceName, distance, call, callText, status, progress, results, own };
}

function render(panel, state) {
  setText(panel.status, state.message || "");
  const busy = ["opening", "calling", "measuring", "analysing", "waiting", "playing"].includes(state.phase);
  panel.start.disabled = busy;
  panel.progress.hidden = state.progress == null || !busy;
  if (state.progress != null) panel.progress.value = state.progress;
  panel.call.hidden = !state.call;
  if (state.call) {
    setText(panel.callText, `${state.call.from} is calibrating the room${state.call.name ? ` with ${state.call.name}` : ""}. Let this device play its chirp?`);
    panel.el.open = true;
  }
  panel.el.dataset.phase = state.phase;
  panel.results.replaceChildren(
    ...(state.results || []).map((r) =>
      h("li", { class: r.delayMs != null ? "calibrate-result" : "calibrate-result is-problem", dataset: { device: r.device } }, h("span", { class: "calibrate-device" }, r.name || "A device"), " ", h("span", { class: "calibrate-figure" }, r.delayMs != null ? `${r.delayMs.toFixed(1)} ms` : r.problem)),
    ),
  );
  const mine = state.own;
  setText(panel.own, mine && mine.measured ? `This device, on this output: starts ${mine.delayMs.toFixed(1)} ms early.` : "This device, on this output: not measured yet.");
  panel.own.dataset.delayMs = mine ? String(mine.delayMs) : "0";
}

/** Wires the panel to the station's session and player. */
export function startRoomCalibration(view) {
  const panel = view.calibrate;
  const { state, player, clock } = view;
  const calibration = new RoomCalibration({
    player,
    send: (signal) => state.session && state.session.sendCalibration(signal),
    serverNow: () => clock.now(),
    onChange: (s) => render(panel, s),
  });
  view.calibration = calibration;
  panel.start.addEventListener("click", () => calibration.startMeter({ name: panel.deviceName.value, distanceM: Number(panel.distance.value) }));
  panel.join.addEventListener("click", () => calibration.join(panel.deviceName.value));
  panel.notNow.addEventListener("click", () => calibration.dismissCall());
  const onSignal = (event) => calibration.receive(event.detail.signal);
  state.session.addEventListener("calibration", onSignal);
  const onDevices = () => calibration.checkRoute();
  if (navigator.mediaDevices && navigator.mediaDevices.addEventListener) navigator.mediaDevices.addEventListener("devicechange", onDevices);
  // outputLatency can move with no devicechange (a Bluetooth codec switch).
  const routeTimer = setInterval(onDevices, 5000);
  view.stopCalibration = () => {
    clearInterval(routeTimer);
    if (navigator.mediaDevices && navigator.mediaDevices.removeEventListener) navigator.mediaDevices.removeEventListener("devicechange", onDevices);
    state.session.removeEventListener("calibration", onSignal);
    calibration.destroy();
  };
  render(panel, calibration.state);
}
