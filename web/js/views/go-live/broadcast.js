// "Go live" in the DJ booth: broadcast from this browser. The booth shows a
// Go live button (owners and co-DJs; the server says who may really go
// live: the owner, or a host of the show on the air now); it opens a
// studio panel:
//
// - the microphone (a picker when there is more than one), with its fader;
// - an optional music bed, a local audio file played into the mix with its
//   own fader, a talk-over switch that lowers it while the DJ speaks, and
//   "hear the music here" for headphones;
// - the outgoing mix's level meter (role="meter", the bar at animation rate,
//   aria-valuenow at most once a second);
// - the show's title (what listeners see), sent again while live;
// - Go on the air / Stop, "On the air" with the time, and the server's
//   refusals word for word (always as text).
//
// The panel outlives the booth's redraws: one per station, kept while the
// page stays on that station (#/station/ID…). Leaving the station ends a
// broadcast; so does closing the page (it asks first).
//
// The mixing desk is broadcast-audio.js, the line to the server
// broadcast-link.js, and the numbers and words broadcast-model.js.

import { parseHash } from "../../router.js";
import { h, fill, setText } from "../../ui/dom.js";
import { toast } from "../../ui/toast.js";
import { micProblem } from "../identify/model.js";
import { BroadcastDesk, canBroadcast } from "./broadcast-audio.js";
import { BroadcastLink } from "./broadcast-link.js";
import {
  TITLE_MAX, chooseBroadcastType, cleanTitle, closeText, elapsedText, errorText, meterFall, meterText, meterValue,
  microphoneChoices, peakHold, shouldAnnounce, toDb,
} from "./broadcast-model.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// The microphone and the music note: fixed path data, never from data.
const GLYPHS = {
  mic: "M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM6 11a6 6 0 0 0 12 0M12 17v4M9 21h6",
  note: "M9 18V6l10-2v12M9 18a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0zM19 16a2.5 2.5 0 1 1-5 0 2.5 2.5 0 0 1 5 0z",
};

function glyph(name, size = 22) {
  const svg = document.createElementNS(SVG_NS, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: size, height: size, class: `icon icon-${name}`, "aria-hidden": "true", focusable: "false" })) {
    svg.setAttribute(k, String(v));
  }
  const path = document.createElementNS(SVG_NS, "path");
  for (const [k, v] of Object.entries({ d: GLYPHS[name], fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" })) {
    path.setAttribute(k, v);
  }
  svg.append(path);
  return svg;
}

/** States in which a broadcast is under way (the panel can't close, leaving ends it). */
const ACTIVE = new Set(["connecting", "live", "stopping"]);

let current = null;
let panels = 0;

/**
 * The Go live panel for `stationID`: {el, detach()}. The same one while the
 * page stays on the station, so a broadcast survives the booth's redraws.
 */
export function broadcastPanel(stationID) {
  if (current && current.stationID === stationID && !current.gone) return current;
  if (current) leaveBooth(current);
  current = createPanel(stationID);
  return current;
}

/**
 * The station this page broadcasts to now, or null: a player shouldn't play
 * the DJ's own relay back into their microphone. A change is also said as a
 * "wavelength:broadcast" event on window ({detail: {stationID, active}}).
 */
export function broadcastingTo() {
  return current && !current.gone && ACTIVE.has(current.state) ? current.stationID : null;
}

function announceActive(stationID, active) {
  dispatchEvent(new CustomEvent("wavelength:broadcast", { detail: { stationID, active } }));
}

addEventListener("hashchange", () => {
  if (!current || current.gone) return;
  const { path } = parseHash();
  if (path[0] === "station" && path[1] === current.stationID) return;
  leaveBooth(current);
});

/** The page left the panel's station: a broadcast under way ends, and says so. */
function leaveBooth(panel) {
  const wasActive = ACTIVE.has(panel.state);
  panel.leave();
  if (wasActive) toast("You left the booth, so the broadcast ended.");
}

addEventListener("beforeunload", (event) => {
  if (current && !current.gone && ACTIVE.has(current.state)) {
    event.preventDefault();
    event.returnValue = "";
  }
});

addEventListener("pagehide", () => {
  if (current && !current.gone) current.leave();
});

if (typeof navigator !== "undefined" && navigator.mediaDevices && navigator.mediaDevices.addEventListener) {
  navigator.mediaDevices.addEventListener("devicechange", () => {
    if (current && !current.gone) current.devicesChanged();
  });
}

function createPanel(stationID) {
  panels += 1;
  const id = (name) => `broadcast-${name}-${panels}`;

  // ---------------------------------------------------------------- DOM
  const openButton = h(
    "button",
    { class: "btn btn-secondary btn-broadcast", type: "button", "aria-expanded": "false", "aria-controls": id("panel"), "aria-describedby": id("hint") },
    glyph("mic"),
    "Go live",
  );
  const hint = h("p", { class: "broadcast-hint", id: id("hint") }, "Talk to your listeners from this browser, with music under you if you like.");

  const heading = h("h2", { class: "broadcast-heading", id: id("heading"), tabindex: "-1" }, "Go live from this browser");
  const lamp = h("span", { class: "broadcast-lamp offair-lamp" }, "Off the air");
  const clock = h("span", { class: "broadcast-clock", "aria-hidden": "true" }, "0:00");
  const status = h("p", { class: "broadcast-status", role: "status" });
  const problem = h("p", { class: "form-error broadcast-error", role: "alert" });
  const uplink = h("p", { class: "broadcast-uplink", role: "status", hidden: true });

  const meterLit = h("span", { class: "broadcast-meter-lit" });
  const meterPeak = h("span", { class: "broadcast-meter-peak" });
  const meter = h(
    "div",
    {
      class: "broadcast-meter", role: "meter", id: id("meter"), "aria-label": "Outgoing level",
      "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0", "aria-valuetext": "Silent",
    },
    meterLit,
    meterPeak,
  );
  const scale = h(
    "div",
    { class: "broadcast-scale", "aria-hidden": "true" },
    ...[[-60, 0], [-40, 33.3], [-20, 66.7], [-10, 83.3], [0, 100]].map(([db, at]) => h("span", { style: { left: `${at}%` } }, db === 0 ? "0 dB" : String(db))),
  );

  // The microphone's strip.
  const micSelect = h("select", { class: "input broadcast-mic-select", id: id("mic") });
  const micPick = h("div", { class: "broadcast-field", hidden: true }, h("label", { class: "label", for: id("mic") }, "Microphone"), micSelect);
  const micFader = h("input", { class: "broadcast-fader", id: id("mic-level"), type: "range", min: "0", max: "100", step: "1", value: "100" });
  const micStrip = h(
    "fieldset",
    { class: "broadcast-strip broadcast-strip-mic" },
    h("legend", { class: "broadcast-legend" }, glyph("mic", 18), "Voice"),
    micPick,
    h("label", { class: "label", for: id("mic-level") }, "Microphone level"),
    micFader,
  );

  // The music bed's strip.
  const bedInput = h("input", { class: "broadcast-file", id: id("bed"), type: "file", accept: "audio/*" });
  const bedPlay = h("button", { class: "btn btn-small btn-secondary broadcast-bed-play", type: "button", "aria-pressed": "false", disabled: true }, "Play the music");
  const bedFader = h("input", { class: "broadcast-fader", id: id("bed-level"), type: "range", min: "0", max: "100", step: "1", value: "70" });
  const duckSwitch = h("input", { class: "broadcast-switch-input", id: id("duck"), type: "checkbox", role: "switch", checked: true, "aria-describedby": id("duck-hint") });
  const duckLamp = h("span", { class: "broadcast-duck-lamp", "aria-hidden": "true" }, "Music down");
  const monitor = h("input", { class: "broadcast-check-input", id: id("monitor"), type: "checkbox" });
  const bedStrip = h(
    "fieldset",
    { class: "broadcast-strip broadcast-strip-bed" },
    h("legend", { class: "broadcast-legend" }, glyph("note", 18), "Music bed (optional)"),
    h("label", { class: "label", for: id("bed") }, "A music file from this device"),
    bedInput,
    h("div", { class: "broadcast-bed-row" }, bedPlay),
    h("label", { class: "label", for: id("bed-level") }, "Music level"),
    bedFader,
    h(
      "div",
      { class: "broadcast-switch-row" },
      h("label", { class: "broadcast-switch", for: id("duck") }, duckSwitch, h("span", { class: "broadcast-switch-track", "aria-hidden": "true" }), "Talk over the music"),
      duckLamp,
    ),
    h("p", { class: "broadcast-small", id: id("duck-hint") }, "While you speak the music drops to a fifth, and comes back when you stop."),
    h("label", { class: "broadcast-check", for: id("monitor") }, monitor, "Hear the music on this device (use headphones)"),
  );

  // The title, and the buttons.
  const titleInput = h("input", {
    class: "input broadcast-title-input", id: id("title"), type: "text", maxlength: String(TITLE_MAX), placeholder: "Live",
    autocomplete: "off", "aria-describedby": id("title-hint"),
  });
  const titleSend = h("button", { class: "btn btn-small btn-secondary broadcast-title-send", type: "submit", hidden: true }, "Update title");
  const titleForm = h(
    "form",
    { class: "broadcast-title-form", novalidate: true },
    h("label", { class: "label", for: id("title") }, "Show title (optional)"),
    h("div", { class: "input-row broadcast-title-row" }, titleInput, titleSend),
    h("p", { class: "broadcast-small", id: id("title-hint") }, "What listeners see as the show's title; \"Live\" when empty."),
  );
  const startButton = h("button", { class: "btn btn-primary broadcast-start", type: "button" }, glyph("mic"), "Go on the air");
  const stopButton = h("button", { class: "btn broadcast-stop", type: "button", hidden: true }, "Stop");
  const closeButton = h("button", { class: "btn btn-ghost broadcast-close", type: "button" }, "Close");

  const panel = h(
    "div",
    { class: "broadcast-panel", id: id("panel"), hidden: true },
    h("div", { class: "broadcast-head" }, heading, h("div", { class: "broadcast-onair" }, lamp, clock)),
    h("div", { class: "broadcast-meter-box" }, meter, scale),
    status,
    problem,
    uplink,
    titleForm,
    h("div", { class: "broadcast-actions" }, startButton, stopButton, closeButton),
    micStrip,
    bedStrip,
  );
  const el = h("section", { class: "broadcast", "aria-labelledby": id("heading"), dataset: { state: "closed" } }, openButton, hint, panel);

  // -------------------------------------------------------------- state
  const self = {
    stationID, el, state: "closed", gone: false,
    detach, close, leave,
    devicesChanged: () => listMicrophones(),
  };
  let desk = null;
  let link = null;
  let bedFile = null;
  let liveSince = 0;
  let clockTimer = null;
  let frame = 0;
  let shown = 0;
  let lastFrameAt = 0;
  let held = null;
  let announced = null;
  let preparing = null;

  function setState(next) {
    const wasActive = ACTIVE.has(self.state);
    self.state = next;
    el.dataset.state = next;
    const open = next !== "closed";
    const active = ACTIVE.has(next);
    openButton.hidden = open;
    hint.hidden = open;
    openButton.setAttribute("aria-expanded", String(open));
    panel.hidden = !open;
    startButton.hidden = active;
    startButton.disabled = next === "opening";
    stopButton.hidden = !active;
    stopButton.disabled = next === "stopping";
    setText(stopButton, next === "connecting" ? "Cancel" : "Stop");
    closeButton.hidden = active;
    titleSend.hidden = next !== "live";
    const onAir = next === "live" || next === "stopping";
    lamp.className = `broadcast-lamp ${onAir ? "onair-lamp" : "offair-lamp"}`;
    setText(lamp, onAir ? "On the air" : next === "connecting" ? "Standing by" : "Off the air");
    clock.hidden = !onAir;
    micSelect.disabled = !desk;
    bedPlay.disabled = !desk || !bedFile;
    if (active !== wasActive) announceActive(stationID, active);
  }

  function say(text) {
    setText(status, text);
  }

  function showProblem(text) {
    setText(problem, text);
  }

  /** Puts focus on `target` when it was on something now hidden (or nowhere). */
  function keepFocus(target) {
    const active = document.activeElement;
    if (!active || active === document.body || (el.contains(active) && (active.hidden || active.closest("[hidden]") || active.disabled))) {
      if (el.isConnected && !target.hidden) target.focus({ preventScroll: false });
    }
  }

  // ------------------------------------------------------------ the meter
  function drawMeter(now) {
    let value = 0;
    if (desk) value = meterValue(toDb(desk.levels().peak));
    const dt = lastFrameAt ? now - lastFrameAt : 0;
    lastFrameAt = now;
    shown = meterFall(shown, value, dt);
    held = peakHold(held, value, now);
    meter.style.setProperty("--level", shown.toFixed(1));
    meter.style.setProperty("--peak", String(Math.max(held.value, shown)));
    meter.dataset.hot = String(value >= 95);
    const rounded = Math.round(shown);
    if (shouldAnnounce(announced, rounded, now)) {
      announced = { value: rounded, at: now };
      meter.setAttribute("aria-valuenow", String(rounded));
      meter.setAttribute("aria-valuetext", meterText(rounded));
    }
  }

  function meterLoop(now) {
    frame = 0;
    if (!desk) return;
    drawMeter(now);
    frame = requestAnimationFrame(meterLoop);
  }

  function startMeter() {
    if (!frame) frame = requestAnimationFrame(meterLoop);
  }

  function resetMeter() {
    cancelAnimationFrame(frame);
    frame = 0;
    shown = 0;
    held = null;
    lastFrameAt = 0;
    announced = null;
    drawMeter(performance.now());
  }

  // ------------------------------------------------------------ the desk
  async function listMicrophones() {
    if (!desk || !navigator.mediaDevices.enumerateDevices) return;
    let devices = [];
    try {
      devices = await navigator.mediaDevices.enumerateDevices();
    } catch {
      return;
    }
    if (!desk) return;
    const choices = microphoneChoices(devices);
    micPick.hidden = choices.length < 2;
    fill(micSelect, ...choices.map((c) => h("option", { value: c.id, selected: c.id === desk.micDeviceID }, c.label)));
  }

  function wireBed(audio) {
    if (!audio) return;
    audio.addEventListener("playing", () => {
      bedPlay.setAttribute("aria-pressed", "true");
      setText(bedPlay, "Pause the music");
    });
    audio.addEventListener("pause", () => {
      bedPlay.setAttribute("aria-pressed", "false");
      setText(bedPlay, "Play the music");
    });
    audio.addEventListener("error", () => {
      if (audio.getAttribute("src")) showProblem("That music file won't play in this browser: choose another.");
    });
  }

  /** Opens the desk and the microphone (the first moment of the panel, or again after a broadcast). */
  function prepare() {
    if (desk) return Promise.resolve(true);
    if (preparing) return preparing;
    if (!canBroadcast()) {
      setState("failed");
      showProblem("This browser can't go live: it needs a microphone, Web Audio and MediaRecorder, on a secure https:// address.");
      return Promise.resolve(false);
    }
    // Made here, in the click that asked for it: the AudioContext may only start on a gesture.
    const fresh = new BroadcastDesk();
    desk = fresh;
    fresh.setMicLevel(Number(micFader.value));
    fresh.setBedLevel(Number(bedFader.value));
    fresh.setDucking(duckSwitch.checked);
    fresh.setMonitor(monitor.checked);
    fresh.onDuck = (down) => {
      duckLamp.dataset.on = String(down);
    };
    if (bedFile) wireBed(fresh.setBed(bedFile));
    setState("opening");
    say("Asking for the microphone…");
    startMeter();
    preparing = (async () => {
      const chosen = micSelect.value || null;
      try {
        try {
          await fresh.openMic(chosen);
        } catch (error) {
          // The chosen microphone has gone: the browser's default instead.
          if (!chosen || (error && error.name !== "OverconstrainedError" && error.name !== "NotFoundError")) throw error;
          await fresh.openMic(null);
        }
      } catch (error) {
        if (desk === fresh) {
          fresh.close();
          desk = null;
          resetMeter();
          const words = micProblem(error);
          setState("failed");
          say("");
          showProblem(`${words.title}. ${words.text}`);
          keepFocus(startButton);
        }
        return false;
      } finally {
        preparing = null;
      }
      if (desk !== fresh) return false;
      await listMicrophones();
      if (desk !== fresh) return false;
      setState("ready");
      say("Microphone on: check the level, then go on the air.");
      return true;
    })();
    return preparing;
  }

  function closeDesk() {
    if (desk) desk.close();
    desk = null;
    resetMeter();
    duckLamp.dataset.on = "false";
    bedPlay.setAttribute("aria-pressed", "false");
    setText(bedPlay, "Play the music");
  }

  // ------------------------------------------------------------ the air
  async function goOnAir() {
    showProblem("");
    if (ACTIVE.has(self.state)) return;
    const ready = await prepare();
    if (!ready || !desk || ACTIVE.has(self.state)) return;
    const mimeType = chooseBroadcastType((type) => MediaRecorder.isTypeSupported(type));
    if (!mimeType) {
      showProblem("This browser can't record Opus in WebM, which the server needs to go live. Try Chrome, Edge or Firefox.");
      return;
    }
    const hadFocus = document.activeElement === startButton;
    setState("connecting");
    say("Connecting to the server…");
    if (hadFocus) stopButton.focus();
    const mine = new BroadcastLink({
      stationID,
      stream: desk.stream,
      mimeType,
      title: titleInput.value,
      events: {
        onAir: () => {
          if (link !== mine) return;
          liveSince = performance.now();
          setState("live");
          say("On the air.");
          tick();
          clockTimer = setInterval(tick, 1000);
        },
        onError: (error, wasLive) => {
          if (link !== mine) return;
          link = null;
          if (wasLive) {
            endBroadcast(errorText(error));
          } else {
            setState("ready");
            say("Not on the air.");
            showProblem(errorText(error));
            keepFocus(startButton);
          }
        },
        onClosed: ({ code, live }) => {
          if (link !== mine) return;
          link = null;
          if (live) {
            endBroadcast(closeText(code, true));
          } else {
            setState("ready");
            say("Not on the air.");
            showProblem(closeText(code, false));
            keepFocus(startButton);
          }
        },
        onUplink: (slow) => {
          uplink.hidden = !slow;
          setText(uplink, slow ? "Your connection can't keep up: listeners may hear gaps." : "");
        },
      },
    });
    link = mine;
  }

  function tick() {
    setText(clock, elapsedText(performance.now() - liveSince));
  }

  async function stopBroadcast() {
    const mine = link;
    if (!mine) return;
    if (self.state === "connecting") {
      link = null;
      mine.cancel();
      setState("ready");
      say("Not on the air.");
      keepFocus(startButton);
      return;
    }
    setState("stopping");
    say("Going off the air…");
    await mine.stop();
    if (link !== mine) return;
    link = null;
    endBroadcast(null);
  }

  /** Off the air: the recorder and the line are done; the microphone is released. */
  function endBroadcast(why) {
    const lasted = liveSince ? performance.now() - liveSince : 0;
    clearInterval(clockTimer);
    clockTimer = null;
    liveSince = 0;
    uplink.hidden = true;
    closeDesk();
    setState("ended");
    say(`Off the air after ${elapsedText(lasted)}.`);
    showProblem(why || "");
    keepFocus(startButton);
  }

  function sendTitle(event) {
    event.preventDefault();
    if (self.state !== "live" || !link) return;
    const title = cleanTitle(titleInput.value);
    if (!title) {
      showProblem("Type a title first.");
      return;
    }
    showProblem("");
    if (link.sendTitle(title)) say(`On the air. Title sent: ${title}`);
  }

  // ------------------------------------------------------------ open, close
  function open() {
    if (self.state !== "closed") return;
    showProblem("");
    setState("opening");
    heading.focus();
    prepare();
  }

  /** Ends everything and folds the panel back to its button. */
  function close() {
    if (link) {
      const mine = link;
      link = null;
      mine.cancel();
    }
    clearInterval(clockTimer);
    clockTimer = null;
    liveSince = 0;
    closeDesk();
    const hadFocus = el.contains(document.activeElement);
    setState("closed");
    say("");
    showProblem("");
    uplink.hidden = true;
    if (hadFocus && el.isConnected) openButton.focus();
  }

  /** The booth closed (your role changed): a broadcast under way stays, with its Stop; otherwise the panel goes. */
  function detach() {
    if (ACTIVE.has(self.state)) return;
    close();
    el.remove();
  }

  /** The page left the station: everything ends, and the next booth makes a panel of its own. */
  function leave() {
    close();
    self.gone = true;
    if (current === self) current = null;
  }

  // ------------------------------------------------------------ wiring
  openButton.addEventListener("click", open);
  closeButton.addEventListener("click", close);
  startButton.addEventListener("click", goOnAir);
  stopButton.addEventListener("click", stopBroadcast);
  titleForm.addEventListener("submit", sendTitle);
  micFader.addEventListener("input", () => desk && desk.setMicLevel(Number(micFader.value)));
  bedFader.addEventListener("input", () => desk && desk.setBedLevel(Number(bedFader.value)));
  duckSwitch.addEventListener("change", () => desk && desk.setDucking(duckSwitch.checked));
  monitor.addEventListener("change", () => desk && desk.setMonitor(monitor.checked));
  micSelect.addEventListener("change", async () => {
    if (!desk) return;
    try {
      await desk.openMic(micSelect.value || null);
      showProblem("");
    } catch (error) {
      const words = micProblem(error);
      showProblem(`${words.title}. ${words.text}`);
    }
    listMicrophones();
  });
  bedInput.addEventListener("change", () => {
    bedFile = (bedInput.files && bedInput.files[0]) || null;
    showProblem("");
    if (desk) wireBed(desk.setBed(bedFile));
    bedPlay.setAttribute("aria-pressed", "false");
    setText(bedPlay, "Play the music");
    bedPlay.disabled = !desk || !bedFile;
  });
  bedPlay.addEventListener("click", async () => {
    if (!desk || !bedFile) return;
    const play = bedPlay.getAttribute("aria-pressed") !== "true";
    try {
      await desk.playBed(play);
    } catch (error) {
      if (error && error.name === "AbortError") return;
      showProblem("That music file won't play in this browser: choose another.");
    }
  });

  return self;
}
