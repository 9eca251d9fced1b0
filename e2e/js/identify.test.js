import {
  CLIP_MS, MIME_TYPES, answerProblem, chooseMimeType, clockText, listenedShare, micProblem, offsetText, readAnswer, secondsLeft, foundWords, isBusyState,
} from "/js/views/identify/model.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("identify");

test("listens for 10 s, inside the server's 5 to 30 s", () => {
  equal(CLIP_MS, 10_000);
});

test("mime type: the first the recorder supports, else the browser's choice", () => {
  equal(chooseMimeType((t) => t === "audio/mp4" || t === "audio/webm"), "audio/webm");
  // Safari: no WebM.
  equal(chooseMimeType((t) => t === "audio/mp4"), "audio/mp4");
  // Chromium and Firefox: Opus in WebM first.
  equal(chooseMimeType(() => true), "audio/webm;codecs=opus");
  equal(chooseMimeType(() => false), "");
  equal(chooseMimeType(undefined), "");
  // A browser that throws on a type it doesn't know goes on to the next.
  equal(chooseMimeType((t) => { if (t.includes("webm")) throw new Error("no"); return true; }), "audio/mp4");
  equal(MIME_TYPES[0], "audio/webm;codecs=opus");
});

test("the countdown counts whole seconds up: 10 at the start, 1 in the last second, 0 at the end, never below", () => {
  equal(secondsLeft(0), 10);
  equal(secondsLeft(1), 10);
  equal(secondsLeft(999), 10);
  equal(secondsLeft(1000), 9);
  equal(secondsLeft(9_001), 1);
  equal(secondsLeft(10_000), 0);
  equal(secondsLeft(12_000), 0);
  equal(secondsLeft(500, 3_000), 3);
});

test("the dial's arc goes from 0 to 1 and no further", () => {
  equal(listenedShare(0), 0);
  equal(listenedShare(2_500), 0.25);
  equal(listenedShare(20_000), 1);
  equal(listenedShare(-5), 0);
  equal(listenedShare(5, 0), 1);
});

test("where in the song: 'about M:SS in', rounded to the nearest second", () => {
  equal(offsetText(83_400), "about 1:23 in");
  equal(offsetText(83_600), "about 1:24 in");
  equal(offsetText(26_006), "about 0:26 in");
  equal(offsetText(59_500), "about 1:00 in");
  equal(offsetText(3_723_000), "about 1:02:03 in");
  equal(offsetText(400), "from the very start");
  equal(offsetText(0), "from the very start");
  equal(offsetText(null), "");
  equal(offsetText(undefined), "");
  equal(offsetText(Number.NaN), "");
  equal(clockText(600_000), "10:00");
});

test("the answer: a match, or 'not in this library' for null, a missing match or nonsense", () => {
  const track = { id: "t1", title: "Café Nocturne", artist: "Aurora Vale" };
  deepEqual(readAnswer({ match: { track, offsetMs: 26006, similarity: 0.999 } }), { state: "found", track, offsetMs: 26006, similarity: 0.999 });
  deepEqual(readAnswer({ match: { track } }), { state: "found", track, offsetMs: null, similarity: null });
  deepEqual(readAnswer({ match: null }), { state: "none" });
  // The server leaves a null match out: {}.
  deepEqual(readAnswer({}), { state: "none" });
  deepEqual(readAnswer(null), { state: "none" });
  deepEqual(readAnswer({ match: { offsetMs: 5 } }), { state: "none" });
});

test("the microphone's refusals by name: denied, no microphone, busy, unsupported, anything else", () => {
  equal(micProblem({ name: "NotAllowedError" }).code, "denied");
  equal(micProblem({ name: "SecurityError" }).code, "denied");
  equal(micProblem({ name: "NotFoundError" }).code, "no_mic");
  equal(micProblem({ name: "OverconstrainedError" }).code, "no_mic");
  equal(micProblem({ name: "NotReadableError" }).code, "mic_busy");
  equal(micProblem({ name: "NotSupportedError" }).code, "unsupported");
  equal(micProblem(new TypeError("x")).code, "mic_error");
  equal(micProblem(null).code, "mic_error");
  equal(micProblem({ name: "NotAllowedError" }).title, "No permission to listen");
});

test("the server's refusals: sign in, busy with its Retry-After, too large, bad audio, network, anything else", () => {
  equal(answerProblem({ status: 401, code: "sign_in_required" }).code, "sign_in");
  const busy = answerProblem({ status: 429, code: "busy", retryAfter: 3 });
  equal(busy.code, "busy");
  equal(busy.text, "The song finder is busy. Try again in 3 s.");
  equal(answerProblem({ status: 429, code: "busy", retryAfter: null }).text, "The song finder is busy. Try again in a moment.");
  equal(answerProblem({ status: 413, code: "too_large" }).code, "too_large");
  equal(answerProblem({ status: 400, code: "bad_audio" }).code, "bad_audio");
  equal(answerProblem({ status: 0, code: "network" }).code, "network");
  const other = answerProblem({ status: 500, code: "internal", message: "Disk full" });
  equal(other.code, "error");
  equal(other.text, "Disk full");
});

test("identify: busy while asking, listening and matching, and never after", () => {
  for (const state of ["asking", "listening", "matching"]) equal(isBusyState(state), true, state);
  for (const state of ["idle", "found", "none", "problem"]) equal(isBusyState(state), false, state);
});

test("identify: a found song's card in words", () => {
  deepEqual(foundWords({ track: { title: "<b>Bold</b>", artist: "Nina", album: "Blue" }, offsetMs: 83_000 }), {
    title: "<b>Bold</b>", by: "Nina · Blue", where: offsetText(83_000), alt: "Cover of Blue",
  });
  deepEqual(foundWords({ track: { artist: "Nina" }, offsetMs: null }), { title: "Untitled", by: "Nina", where: offsetText(null), alt: "" });
});
