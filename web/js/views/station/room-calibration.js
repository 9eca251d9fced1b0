// "Calibrate the room" on the station screen (room/calibration.js): this
// phone measures the room with its microphone and shows a code, or this
// device takes part in another phone's calibration (asked, when it is the
// same person's, or with that code) and plays its chirp. Every device that
// took part sees the figures the measuring phone sent.

import { h, setText } from "../../ui/dom.js";
import { RoomCalibration, storedName } from "../../room/calibration.js";

export function createRoomCalibration() {
  const distance = h("input", { type: "number", min: "0", max: "50", step: "0.5", value: "0", class: "calibrate-distance", "aria-describedby": "calibrate-distance-hint" });
  const start = h("button", { type: "button", class: "btn calibrate-start" }, "Calibrate the room with this phone");
  const deviceName = h("input", { type: "text", maxlength: "40", class: "calibrate-name", autocomplete: "off", value: storedName() });
  const join = h("button", { type: "button", class: "btn calibrate-join" }, "Take part");
  const notNow = h("button", { type: "button", class: "btn-text calibrate-skip" }, "Not now");
  const callLine = h("p", { class: "calibrate-call-text" });
  const call = h("div", { class: "calibrate-call", role: "group", "aria-label": "A room calibration", hidden: true }, callLine, h("div", { class: "calibrate-actions" }, join, notNow));
  const code = h("p", { class: "calibrate-code", hidden: true });
  const measure = h("button", { type: "button", class: "btn calibrate-measure", hidden: true, disabled: true }, "Start measuring");
  const codeInput = h("input", { type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: "7", pattern: "[0-9 ]*", class: "calibrate-code-input", placeholder: "123 456" });
  const codeJoin = h("button", { type: "submit", class: "btn btn-secondary calibrate-code-join" }, "Take part");
  const codeForm = h(
    "form",
    { class: "calibrate-code-form", "aria-label": "Take part with a code" },
    h("label", { class: "calibrate-field" }, "Another phone is measuring? Its code ", codeInput),
    codeJoin,
  );
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
    h("label", { class: "calibrate-field" }, "This device's name ", deviceName),
    start,
    code,
    measure,
    call,
    codeForm,
    progress,
    status,
    results,
    own,
  );
  return { el, start, join, notNow, deviceName, distance, call, callText: callLine, status, progress, results, own, code, measure, codeForm, codeInput };
}

function render(panel, state) {
  setText(panel.status, state.message || "");
  const busy = ["opening", "calling", "measuring", "analysing", "waiting", "playing"].includes(state.phase);
  panel.start.disabled = busy;
  panel.progress.hidden = state.progress == null || !busy;
  if (state.progress != null) panel.progress.value = state.progress;
  panel.call.hidden = !state.call;
  if (state.call) {
    setText(panel.callText, callText(state.call));
    panel.el.open = true;
  }
  const calling = state.phase === "calling";
  panel.code.hidden = !(calling && state.code);
  if (calling && state.code) {
    setText(panel.code, `Code: ${state.code.slice(0, 3)} ${state.code.slice(3)}`);
    panel.code.dataset.code = state.code;
    panel.code.setAttribute("aria-label", `Code: ${state.code.split("").join(" ")}`);
  }
  panel.measure.hidden = !calling;
  panel.measure.disabled = !calling || !state.joinedCount;
  panel.codeForm.hidden = busy || state.phase === "joining";
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

/** What a device of the caller's is asked: who calibrates, and from which phone, if it was named. */
export function callText(call) {
  const from = call.from || "Someone";
  return `${from} is calibrating the room${call.name ? ` from “${call.name}”` : ""}. Let this device play its chirp?`;
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
  panel.measure.addEventListener("click", () => calibration.plan());
  panel.codeForm.addEventListener("submit", (event) => {
    event.preventDefault();
    calibration.joinWithCode(panel.codeInput.value, panel.deviceName.value);
  });
  const onSignal = (event) => (event.detail.error ? calibration.refused(event.detail.error) : calibration.receive(event.detail.signal));
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
