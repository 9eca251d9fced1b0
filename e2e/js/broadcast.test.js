// Going live from the browser's pure module (views/go-live/broadcast-model.js):
// the recording format, the socket's address and messages, the server's
// answers, the title, frames of at most 64 KiB, the level meter's numbers
// and the talk-over (ducking) decision; what the panel shows in each state.

import { assert, deepEqual, equal, suite } from "./assert.js";
import {
  ACTIVE, BITS_PER_SECOND, DUCK, MAX_FRAME_BYTES, MIME_TYPE, TIMESLICE_MS, TITLE_MAX,
  broadcastURL, chooseBroadcastType, cleanTitle, closeText, duckStep, duckTarget, elapsedText, errorText, faderGain,
  frameRanges, levelsOf, meterFall, meterText, meterValue, microphoneChoices, panelLook, peakHold, readServerMessage,
  shouldAnnounce, startMessage, titleMessage, toDb, uplinkSlow,
} from "/js/views/go-live/broadcast-model.js";

const test = suite("broadcast");

// ------------------------------------------------------------ the recorder

test("format: Opus in WebM at 128 kbps in 250 ms chunks, frames of 64 KiB", () => {
  equal(MIME_TYPE, "audio/webm;codecs=opus");
  equal(BITS_PER_SECOND, 128_000);
  equal(TIMESLICE_MS, 250);
  equal(MAX_FRAME_BYTES, 65_536);
  equal(TITLE_MAX, 200);
});

test("format: WebM Opus when the recorder takes it, else nothing (the server reads nothing else)", () => {
  equal(chooseBroadcastType((t) => t === "audio/webm;codecs=opus"), "audio/webm;codecs=opus");
  equal(chooseBroadcastType((t) => t === "audio/mp4"), null);
  equal(chooseBroadcastType(() => { throw new Error("no"); }), null);
  equal(chooseBroadcastType(undefined), null);
});

// ------------------------------------------------------------ the socket

test("socket: ws on http, wss on https, the station's id escaped", () => {
  equal(broadcastURL({ protocol: "http:", host: "127.0.0.1:8080" }, "s1"), "ws://127.0.0.1:8080/api/stations/s1/broadcast");
  equal(broadcastURL({ protocol: "https:", host: "radio.example.org" }, "s1"), "wss://radio.example.org/api/stations/s1/broadcast");
  equal(broadcastURL({ protocol: "http:", host: "h" }, "a/b?c"), "ws://h/api/stations/a%2Fb%3Fc/broadcast");
});

test("messages: start with the format and the title, or no title at all", () => {
  deepEqual(JSON.parse(startMessage({ title: "  Late   jazz \n" })), { type: "start", mimeType: "audio/webm;codecs=opus", title: "Late jazz" });
  deepEqual(JSON.parse(startMessage({ title: "   " })), { type: "start", mimeType: "audio/webm;codecs=opus" });
  deepEqual(JSON.parse(startMessage()), { type: "start", mimeType: "audio/webm;codecs=opus" });
  deepEqual(JSON.parse(titleMessage("<b>Now</b> & then")), { type: "title", title: "<b>Now</b> & then" });
});

test("title: trimmed, one line, at most 200, never half an emoji", () => {
  equal(cleanTitle("a\u0000b\tc\r\nd"), "a b c d");
  equal(cleanTitle(null), "");
  equal(cleanTitle("x".repeat(250)).length, 200);
  // 199 letters and an emoji (two UTF-16 units) straddling the end: the emoji goes whole.
  const straddling = cleanTitle(`${"x".repeat(199)}😀tail`);
  equal(straddling, "x".repeat(199));
  equal(cleanTitle(`${"x".repeat(198)}😀tail`), `${"x".repeat(198)}😀`);
});

test("server: onAir and error are read, anything else is other or nothing", () => {
  deepEqual(readServerMessage('{"type":"onAir","stationID":"s1"}'), { type: "onAir", stationID: "s1" });
  deepEqual(readServerMessage('{"type":"error","code":"live_source_busy","message":"Busy."}'), { type: "error", code: "live_source_busy", message: "Busy." });
  deepEqual(readServerMessage('{"type":"error"}'), { type: "error", code: "", message: "" });
  deepEqual(readServerMessage('{"type":"stats","bytes":1}'), { type: "other", name: "stats" });
  equal(readServerMessage("not json"), null);
  equal(readServerMessage("[1]"), null);
  equal(readServerMessage('{"no":"type"}'), null);
  equal(readServerMessage(new ArrayBuffer(2)), null);
});

test("server: errors are shown word for word; our words only when it sent none", () => {
  const html = "<img src=x onerror=alert(1)> is <b>busy</b>";
  equal(errorText({ code: "live_source_busy", message: html }), html);
  equal(errorText({ code: "forbidden", message: "" }), "Only the station's owner, or a host of the show on the air now, may go live here.");
  equal(errorText({ code: "what", message: " " }), "The server ended the broadcast.");
  equal(errorText(null), "The server ended the broadcast.");
});

test("server: a close without a word says whether you were on the air", () => {
  assert(closeText(1006, true).includes("off the air"));
  assert(closeText(1006, false).includes("Couldn't reach"));
  assert(closeText(1011, false).includes("1011"));
});

test("frames: a chunk cut into pieces of at most 64 KiB, in order, none empty", () => {
  deepEqual(frameRanges(0), []);
  deepEqual(frameRanges(4000), [[0, 4000]]);
  deepEqual(frameRanges(65_536), [[0, 65_536]]);
  deepEqual(frameRanges(65_537), [[0, 65_536], [65_536, 65_537]]);
  deepEqual(frameRanges(10, 4), [[0, 4], [4, 8], [8, 10]]);
  assert(frameRanges(1_000_000).every(([a, b]) => b - a <= MAX_FRAME_BYTES && b > a));
});

test("uplink: slow once more than 256 KiB waits to go out", () => {
  equal(uplinkSlow(0), false);
  equal(uplinkSlow(256 * 1024), false);
  equal(uplinkSlow(256 * 1024 + 1), true);
});

// ------------------------------------------------------------ the meter

test("levels: rms and peak of samples; dBFS", () => {
  deepEqual(levelsOf(new Float32Array(0)), { rms: 0, peak: 0 });
  const square = levelsOf(new Float32Array([0.5, -0.5, 0.5, -0.5]));
  equal(square.rms, 0.5);
  equal(square.peak, 0.5);
  equal(toDb(1), 0);
  equal(Math.round(toDb(0.1)), -20);
  equal(toDb(0), -Infinity);
});

test("meter: −60 dBFS and below is 0, full scale 100, whole numbers between", () => {
  equal(meterValue(-Infinity), 0);
  equal(meterValue(-80), 0);
  equal(meterValue(-60), 0);
  equal(meterValue(-30), 50);
  equal(meterValue(-18), 70);
  equal(meterValue(0), 100);
  equal(meterValue(6), 100);
  equal(meterValue(NaN), 0);
  // A tone at a tenth of full scale reads above nothing.
  assert(meterValue(toDb(levelsOf(new Float32Array([0.1, -0.1])).rms)) > 0);
});

test("meter: words for a screen reader", () => {
  equal(meterText(0), "Silent");
  equal(meterText(70), "−18 dB");
  equal(meterText(100), "0 dB, too loud");
});

test("meter: the bar jumps up and falls back slowly; the peak is held, then follows", () => {
  equal(meterFall(10, 80, 16), 80);
  equal(meterFall(80, 0, 500), 50);
  equal(meterFall(80, 70, 500), 70);
  equal(meterFall(80, 0, 10_000), 0);
  const held = peakHold(null, 80, 0);
  deepEqual(held, { value: 80, at: 0 });
  equal(peakHold(held, 40, 1000), held);
  deepEqual(peakHold(held, 40, 1300), { value: 40, at: 1300 });
  deepEqual(peakHold(held, 90, 100), { value: 90, at: 100 });
});

test("meter: aria-valuenow changes at most once a second, but silence and sound are said at once", () => {
  equal(shouldAnnounce(null, 0, 0), true);
  const last = { value: 40, at: 1000 };
  equal(shouldAnnounce(last, 40, 5000), false);
  equal(shouldAnnounce(last, 45, 1500), false);
  equal(shouldAnnounce(last, 45, 2000), true);
  equal(shouldAnnounce(last, 0, 1010), true);
  equal(shouldAnnounce({ value: 0, at: 1000 }, 30, 1010), true);
});

// ------------------------------------------------------------ talk-over

test("talk-over: the voice over the threshold ducks the music at once", () => {
  let state = duckStep(null, -70, 0);
  equal(state.ducked, false);
  state = duckStep(state, DUCK.thresholdDb + 1, 100);
  equal(state.ducked, true);
  equal(state.loudAt, 100);
});

test("talk-over: the music comes back after 600 ms of quiet, not before", () => {
  let state = duckStep(null, -20, 1000);
  state = duckStep(state, -70, 1300);
  equal(state.ducked, true, "300 ms of quiet");
  state = duckStep(state, -Infinity, 1599);
  equal(state.ducked, true, "599 ms of quiet");
  state = duckStep(state, -70, 1600);
  equal(state.ducked, false, "600 ms of quiet");
  // A word in the middle of the quiet starts the wait again.
  state = duckStep(duckStep(duckStep(null, -20, 0), -70, 500), -20, 550);
  equal(duckStep(state, -70, 1100).ducked, true);
  equal(duckStep(state, -70, 1150).ducked, false);
});

test("talk-over: off never ducks, and lets a ducked bed back up", () => {
  equal(duckStep(null, 0, 0, { enabled: false }).ducked, false);
  equal(duckStep({ ducked: true, loudAt: 0 }, -70, 10, { enabled: false }).ducked, false);
  equal(duckStep(null, -30, 0, { thresholdDb: -20 }).ducked, false);
});

test("talk-over: down to 20 % quickly, back to full gently", () => {
  deepEqual(duckTarget(true), { gain: 0.2, timeConstant: DUCK.attack });
  deepEqual(duckTarget(false), { gain: 1, timeConstant: DUCK.release });
  assert(DUCK.attack < DUCK.release);
  equal(DUCK.holdMs, 600);
});

test("faders: 0 is silent, 100 is unity, half way is about −12 dB", () => {
  equal(faderGain(0), 0);
  equal(faderGain(100), 1);
  equal(faderGain(150), 1);
  equal(Math.round(toDb(faderGain(50))), -12);
});

// ------------------------------------------------------------ the panel

test("panel: the time on the air", () => {
  equal(elapsedText(0), "0:00");
  equal(elapsedText(999), "0:00");
  equal(elapsedText(83_400), "1:23");
  equal(elapsedText(3_723_000), "1:02:03");
  equal(elapsedText(-5), "0:00");
});

test("panel: microphones, inputs only, each once, named when the browser hides names", () => {
  deepEqual(
    microphoneChoices([
      { kind: "audioinput", deviceId: "default", label: "Default" },
      { kind: "videoinput", deviceId: "cam", label: "Camera" },
      { kind: "audioinput", deviceId: "usb", label: " USB mic " },
      { kind: "audioinput", deviceId: "usb", label: "USB mic" },
      { kind: "audiooutput", deviceId: "spk", label: "Speakers" },
      { kind: "audioinput", deviceId: "x", label: "" },
    ]),
    [{ id: "default", label: "Default" }, { id: "usb", label: "USB mic" }, { id: "x", label: "Microphone 3" }],
  );
  deepEqual(microphoneChoices(null), []);
});

// ------------------------------------------------------------ the panel

test("panel: closed shows only the button; opening disables Go on the air until the microphone is on", () => {
  const closed = panelLook("closed");
  equal(closed.open, false);
  equal(closed.active, false);
  const opening = panelLook("opening", { hasDesk: true });
  equal(opening.open, true);
  equal(opening.startDisabled, true);
  equal(opening.micDisabled, false);
  equal(panelLook("ready", { hasDesk: true }).startDisabled, false);
});

test("panel: connecting, live and stopping are under way; Stop says Cancel while connecting and is off while stopping", () => {
  deepEqual([...ACTIVE].sort(), ["connecting", "live", "stopping"]);
  for (const state of ["closed", "opening", "ready", "failed", "ended"]) equal(panelLook(state).active, false, state);
  const connecting = panelLook("connecting", { hasDesk: true });
  equal(connecting.active, true);
  equal(connecting.stopLabel, "Cancel");
  equal(connecting.lampText, "Standing by");
  equal(connecting.onAir, false);
  const live = panelLook("live", { hasDesk: true });
  deepEqual([live.stopLabel, live.lampText, live.onAir, live.titleSend, live.stopDisabled], ["Stop", "On the air", true, true, false]);
  const stopping = panelLook("stopping", { hasDesk: true });
  deepEqual([stopping.lampText, stopping.onAir, stopping.titleSend, stopping.stopDisabled], ["On the air", true, false, true]);
  equal(panelLook("ended").lampText, "Off the air");
});

test("panel: the music's play button needs the desk and a file; the microphone picker the desk", () => {
  equal(panelLook("ready", { hasDesk: true, hasBed: true }).bedPlayDisabled, false);
  equal(panelLook("ready", { hasDesk: true, hasBed: false }).bedPlayDisabled, true);
  equal(panelLook("ended", { hasDesk: false, hasBed: true }).bedPlayDisabled, true);
  equal(panelLook("ended", { hasDesk: false }).micDisabled, true);
});
