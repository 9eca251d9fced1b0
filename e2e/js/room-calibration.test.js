import { CHIRP, chirp, fft } from "/js/room/chirp.js";
import { firstArrival, matchedEnvelope, measureRoom } from "/js/room/arrivals.js";
import { applyResidual, delayFor, routeKey } from "/js/room/route-delays.js";
import { RoomCalibration } from "/js/room/calibration.js";
import { callText } from "/js/views/station/room-calibration.js";
import { assert, equal } from "./assert.js";
import { suite } from "./assert.js";

const test = suite("room calibration");
const RATE = 48000;
const REPS = [0, 0.25, 0.5, 0.75];

// A seeded generator, so a failure is the same every run.
function random(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 4294967296);
}
function gaussian(next) {
  return Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
}

/** The chirp started at `at` seconds (any fraction of a sample), added in. */
function addChirp(buffer, at, gain = 1) {
  const spec = CHIRP;
  const sweep = (spec.f1 - spec.f0) / spec.seconds;
  const first = Math.max(0, Math.floor(at * RATE));
  const last = Math.min(buffer.length, Math.ceil((at + spec.seconds) * RATE) + 1);
  for (let i = first; i < last; i++) {
    const t = i / RATE - at;
    if (t < 0 || t >= spec.seconds) continue;
    let envelope = 1;
    if (t < spec.fade) envelope = 0.5 - 0.5 * Math.cos((Math.PI * t) / spec.fade);
    else if (t > spec.seconds - spec.fade) envelope = 0.5 - 0.5 * Math.cos((Math.PI * (spec.seconds - t)) / spec.fade);
    buffer[i] += gain * spec.peak * envelope * Math.sin(2 * Math.PI * (spec.f0 * t + 0.5 * sweep * t * t));
  }
}

/**
 * A room: the meter's chirps from 0.5 s (heard `meterLatency` later), then
 * each device's slot 1.5 s apart, heard `delay` ms after its slot plus the
 * meter's own latency. Echoes: [{ms, gain}] after each direct sound.
 */
function room({ delays, meterLatency = 0.012, echoes = [], noise = 0, seed = 1, clip = null, silent = [] }) {
  const slot = 1.5;
  const length = Math.ceil((0.5 + slot * (delays.length + 1) + 1.5) * RATE);
  const buffer = new Float32Array(length);
  const sound = (at, gain) => {
    addChirp(buffer, at, gain);
    for (const echo of echoes) addChirp(buffer, at + echo.ms / 1000, gain * echo.gain);
  };
  const meter = REPS.map((r) => Math.round((0.5 + r) * RATE));
  for (const r of REPS) sound(0.5 + r + meterLatency, 1);
  const devices = delays.map((delay, i) => {
    const start = 0.5 + slot * (i + 1);
    if (!silent.includes(i)) {
      for (const r of REPS) sound(start + r + meterLatency + (typeof delay === "function" ? delay(r) : delay) / 1000, 0.7);
    }
    return { device: `d${i}`, expected: REPS.map((r) => Math.round((start + r) * RATE)) };
  });
  if (noise) {
    const next = random(seed);
    for (let i = 0; i < length; i++) buffer[i] += noise * gaussian(next);
  }
  if (clip != null) for (let i = 0; i < length; i++) buffer[i] = Math.max(-clip, Math.min(clip, buffer[i]));
  return { recording: buffer, rate: RATE, template: chirp(RATE), meter, devices };
}

const near = (actual, expected, tolerance, what) =>
  assert(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

test("the FFT turns back into what it was given", () => {
  const next = random(3);
  const re = Float64Array.from({ length: 64 }, () => next() - 0.5);
  const im = new Float64Array(64);
  const original = Float64Array.from(re);
  fft(re, im);
  fft(re, im, true);
  for (let i = 0; i < 64; i++) near(re[i], original[i], 1e-9, `sample ${i}`);
});

test("the chirp is 120 ms at −20 dBFS, and its filter peaks where it starts", () => {
  const c = chirp(RATE);
  equal(c.length, 5760);
  near(Math.max(...c.map(Math.abs)), 0.1, 0.001, "peak");
  const recording = new Float32Array(20000);
  recording.set(c, 7000);
  const found = firstArrival(matchedEnvelope(recording, c));
  near(found.at, 7000, 0.1, "arrival");
});

test("delays from 0 to 300 ms are measured to a tenth of a millisecond, fractions of a sample too", () => {
  const delays = [0, 37.31, 150, 212.77, 299.9];
  const { results, meter } = measureRoom(room({ delays }));
  assert(meter.heard, "the meter heard itself");
  results.forEach((r, i) => near(r.delayMs, delays[i], 0.1, `device ${i}`));
});

test("a device ahead of the meter is measured too (negative)", () => {
  const { results } = measureRoom(room({ delays: [-3.5] }));
  near(results[0].delayMs, -3.5, 0.1, "ahead");
});

test("the first arrival wins over a stronger reflection, and a late echo is ignored", () => {
  // A reflection 4 ms after the direct sound, 3 dB stronger (within the 6 dB
  // window, so the direct sound is taken), and a long echo 30 ms later.
  const echoes = [{ ms: 4, gain: 1.41 }, { ms: 30, gain: 0.8 }];
  const { results } = measureRoom(room({ delays: [150, 80], echoes }));
  near(results[0].delayMs, 150, 0.1, "device 0");
  near(results[1].delayMs, 80, 0.1, "device 1");
});

test("room noise at −20 dB: right within 2 ms, or refused, never wrong", () => {
  for (let seed = 1; seed <= 4; seed++) {
    // The chirp's peak is 0.1 at the meter; noise at −20 dB of it.
    const { results } = measureRoom(room({ delays: [150, 260.4], noise: 0.01, seed }));
    for (const [i, r] of results.entries()) {
      if (r.problem) continue;
      near(r.delayMs, [150, 260.4][i], 2, `seed ${seed}, device ${i}`);
    }
  }
});

test("a clipped recording still gives the delay", () => {
  const { results } = measureRoom(room({ delays: [150], clip: 0.03 }));
  near(results[0].delayMs, 150, 0.2, "clipped");
});

test("a device that never plays is reported as not heard", () => {
  const { results } = measureRoom(room({ delays: [150, 40], silent: [0] }));
  assert(results[0].problem && results[0].problem.startsWith("Not heard"), JSON.stringify(results[0]));
  near(results[1].delayMs, 40, 0.1, "the other device");
});

test("silence everywhere: the meter says it could not hear itself", () => {
  const r = room({ delays: [150] });
  r.recording.fill(0);
  const { meter, results } = measureRoom(r);
  equal(meter.heard, false);
  assert(results[0].problem.includes("could not hear its own chirp"), results[0].problem);
});

test("repetitions that disagree by more than 1 ms are refused", () => {
  const jitter = (rep) => 150 + (rep === 0.5 ? 3 : 0);
  const { results } = measureRoom(room({ delays: [jitter] }));
  assert(results[0].problem && results[0].problem.includes("disagreed by 3.0 ms"), JSON.stringify(results[0]));
});

test("the distance to the devices is taken off", () => {
  const { results } = measureRoom({ ...room({ delays: [150] }), distanceM: 3.43 });
  near(results[0].delayMs, 140, 0.1, "3.43 m is 10 ms");
});

test("each route keeps its own correction, a residual adds to it, an absurd total changes nothing", () => {
  const speaker = routeKey({ sinkId: "", outputs: [{ label: "Speaker" }], outputLatencyS: 0.0213 });
  const buds = routeKey({ outputs: [{ label: "Buds" }], outputLatencyS: 0.15 });
  equal(speaker, "Speaker@20ms");
  let { book } = applyResidual({}, buds, 148.2, 1);
  ({ book } = applyResidual(book, buds, 1.3, 2));
  near(delayFor(book, buds), 149.5, 1e-9, "buds");
  equal(delayFor(book, speaker), 0);
  const refused = applyResidual(book, buds, 2000, 3);
  assert(refused.error && !refused.book, JSON.stringify(refused));
  assert(applyResidual(book, speaker, -80, 3).error, "a device far ahead is refused");
  assert(applyResidual(book, speaker, NaN, 3).error, "no number is refused");
});

test("a figure counts only from the connection that called: another listener can't forge one", () => {
  const saved = localStorage.getItem("wavelength.outputDelays");
  localStorage.removeItem("wavelength.outputDelays");
  const delays = [];
  const player = {
    ctx: { sampleRate: RATE, outputLatency: 0 },
    playChirps: () => false,
    ensureContext() {},
    unduck() {},
    setOutputDelay: (ms) => delays.push(ms),
  };
  const cal = new RoomCalibration({ player, send() {}, serverNow: () => 0, onChange() {} });
  try {
    cal.receive({ kind: "call", session: "s1", sender: "c1", from: "Ana" });
    // Another caller can't take the session over.
    cal.receive({ kind: "call", session: "s1", sender: "c9", from: "Mallory" });
    equal(cal.state.call.sender, "c1");
    cal.join("Den speaker");
    const forged = { kind: "result", session: "s1", sender: "c9", results: [{ device: cal.device, delayMs: 1999 }] };
    cal.receive(forged);
    cal.receive({ ...forged, kind: "cancel" });
    equal(cal.state.phase, "waiting");
    equal(cal.state.results.length, 0);
    equal(localStorage.getItem("wavelength.outputDelays"), null);
    cal.receive({ kind: "result", session: "s1", sender: "c1", results: [{ device: cal.device, delayMs: 130.5 }] });
    equal(cal.state.phase, "done");
    equal(delays[delays.length - 1], 130.5);
  } finally {
    cal.destroy();
    if (saved == null) localStorage.removeItem("wavelength.outputDelays");
    else localStorage.setItem("wavelength.outputDelays", saved);
  }
});

test("a device nearby takes part with the meter's code, and a wrong code says why", () => {
  const saved = localStorage.getItem("wavelength.outputDelays");
  const sent = [];
  const player = { ctx: { sampleRate: RATE, outputLatency: 0 }, playChirps: () => false, ensureContext() {}, unduck() {}, setOutputDelay() {} };
  const cal = new RoomCalibration({ player, send: (s) => sent.push(s), serverNow: () => 0, onChange() {} });
  try {
    cal.joinWithCode("12 34", "TV");
    equal(sent.length, 0, "not six digits: nothing is sent");
    assert(/six digits/.test(cal.state.message), cal.state.message);
    cal.joinWithCode("482 913", "TV");
    equal(sent[0].kind, "join");
    equal(sent[0].code, "482913");
    equal(cal.state.phase, "joining");
    // The station refuses: the device says why and is free again.
    cal.refused({ code: "calibration_refused", message: "No calibration here has that code." });
    equal(cal.state.phase, "idle");
    equal(cal.state.message, "No calibration here has that code.");
    // The right code: the station says whose call it joined; only that
    // connection's figures count.
    cal.joinWithCode("482913", "TV");
    cal.receive({ kind: "call", session: "s7", sender: "c4", from: "Ana", code: "555555" });
    equal(cal.state.phase, "joining", "another code's answer is not this one's");
    cal.receive({ kind: "call", session: "s7", sender: "c4", from: "Ana", code: "482913" });
    equal(cal.state.phase, "waiting");
    cal.receive({ kind: "result", session: "s7", sender: "c9", results: [{ device: cal.device, delayMs: 1999 }] });
    equal(cal.state.phase, "waiting");
    cal.receive({ kind: "result", session: "s7", sender: "c4", results: [{ device: cal.device, delayMs: 12.5 }] });
    equal(cal.state.phase, "done");
  } finally {
    cal.destroy();
    if (saved == null) localStorage.removeItem("wavelength.outputDelays");
    else localStorage.setItem("wavelength.outputDelays", saved);
  }
});

test("the meter shows the code its call came back with, and measures only once a device joined", () => {
  const sent = [];
  const player = { ctx: { sampleRate: RATE, outputLatency: 0 }, playChirps: () => false, ensureContext() {}, unduck() {}, setOutputDelay() {} };
  const cal = new RoomCalibration({ player, send: (s) => sent.push(s), serverNow: () => 0, onChange() {} });
  try {
    // As startMeter leaves it, with a microphone that records nothing.
    cal.meter = { begin() {}, close() {}, stop: async () => ({ samples: new Float32Array(0), startFrame: 0, rate: RATE, gaps: 0 }) };
    cal.session = "s1";
    cal.joined = new Map();
    cal.set({ phase: "calling" });
    cal.receive({ kind: "call", session: "s1", sender: "c1", from: "Ana", code: "048213" });
    equal(cal.state.code, "048213");
    cal.plan();
    equal(cal.state.phase, "calling", "no device yet: nothing to measure");
    cal.receive({ kind: "join", session: "s1", device: "tv", name: "TV" });
    equal(cal.state.joinedCount, 1);
  } finally {
    cal.timers.forEach(clearTimeout);
    cal.timers.clear();
  }
});

test("the call reads as a sentence, with the phone's name only when it was given", () => {
  equal(callText({ from: "Ana", name: "" }), "Ana is calibrating the room. Let this device play its chirp?");
  equal(callText({ from: "Ana", name: "Kitchen phone" }), "Ana is calibrating the room from “Kitchen phone”. Let this device play its chirp?");
  equal(callText({}), "Someone is calibrating the room. Let this device play its chirp?");
});
