import {
  ANNOUNCE_AT,
  CLIP_MAX_MS,
  NOTE_MAX,
  barHeight,
  canSend,
  cleanNote,
  clockLabel,
  clockText,
  countdownAnnouncement,
  downsample,
  initialRecorder,
  isTaking,
  lengthText,
  levelText,
  peakOf,
  pushLevel,
  recorderControls,
  recorderStep,
  secondsLeft,
  sendErrorText,
  shouldSayLevel,
} from "/js/views/clips/recorder-model.js";
import {
  addClip,
  applyClipList,
  approveClip,
  emptyInbox,
  inboxModel,
  isVoice,
  megabytes,
  quotaText,
  readClip,
  removeClip,
  voiceNowText,
  voiceRowText,
  voiceWords,
} from "/js/views/clips/clips-model.js";
import { nowPlayingText } from "/js/views/station/state.js";
import { reactionsModel } from "/js/views/station/reactions.js";
import { roomModel } from "/js/views/station/room.js";
import { assert, deepEqual, equal, suite } from "./assert.js";

const test = suite("clips");

// A stand-in for MediaRecorder's Blob: only its size is read.
const blob = (size = 4000) => ({ size, type: "audio/webm;codecs=opus" });

/** Runs events through the machine from the start. */
function run(events, state = initialRecorder()) {
  return events.reduce((s, e) => recorderStep(s, e), state);
}

/** A recording of `ms` made at t=1000. */
function recorded(ms = 2500) {
  return run([{ type: "record" }, { type: "micOpen", at: 1000 }, { type: "stop", at: 1000 + ms }, { type: "stopped", blob: blob() }]);
}

test("recorder: record, the microphone opens, stop, the recording is kept with its length", () => {
  let s = recorderStep(initialRecorder(), { type: "record" });
  equal(s.status, "asking");
  s = recorderStep(s, { type: "micOpen", at: 1000 });
  equal(s.status, "recording");
  equal(s.startedAt, 1000);
  assert(s.announce.startsWith("Recording."), s.announce);
  s = recorderStep(s, { type: "tick", at: 2200 });
  equal(s.elapsedMs, 1200);
  s = recorderStep(s, { type: "stop", at: 3500 });
  equal(s.status, "stopping");
  s = recorderStep(s, { type: "stopped", blob: blob() });
  equal(s.status, "recorded");
  equal(s.recording.durationMs, 2500);
  equal(s.error, "");
  assert(canSend(s), "a 2.5 s recording can be sent");
});

test("recorder: stops by itself at 30 s, and never counts past it", () => {
  let s = run([{ type: "record" }, { type: "micOpen", at: 0 }]);
  s = recorderStep(s, { type: "tick", at: 29_950 });
  equal(s.status, "recording", "still recording just before the cap");
  s = recorderStep(s, { type: "tick", at: 31_400 });
  equal(s.status, "stopping", "the tick past 30 s stops the recording");
  equal(s.elapsedMs, CLIP_MAX_MS);
  assert(s.capped, "marked as stopped by the cap");
  assert(s.announce.includes("30 seconds"), s.announce);
  // Ticks after that change nothing; the recording is exactly 30 s.
  equal(recorderStep(s, { type: "tick", at: 40_000 }), s);
  s = recorderStep(s, { type: "stopped", blob: blob() });
  equal(s.status, "recorded");
  equal(s.recording.durationMs, CLIP_MAX_MS);
  // A stop pressed late (the tab was asleep) is capped too.
  const late = run([{ type: "record" }, { type: "micOpen", at: 0 }, { type: "stop", at: 45_000 }]);
  equal(late.elapsedMs, CLIP_MAX_MS);
});

test("recorder: the countdown is said at 20, 10 and 5 s left, once each, not every tick", () => {
  deepEqual(ANNOUNCE_AT, [20, 10, 5]);
  let s = run([{ type: "record" }, { type: "micOpen", at: 0 }]);
  const said = [];
  for (let t = 100; t <= 29_900; t += 100) {
    s = recorderStep(s, { type: "tick", at: t });
    if (s.announce) said.push(s.announce);
  }
  deepEqual(said, ["20 seconds left", "10 seconds left", "5 seconds left"]);
  equal(countdownAnnouncement(9_000, 10_000), "20 seconds left", "exactly 20 s left is said");
  equal(countdownAnnouncement(10_000, 10_500), "", "past it, not again");
  equal(countdownAnnouncement(9_000, 26_000), "5 seconds left", "a slow tick over two: the nearest to the end");
  equal(secondsLeft(0), 30);
  equal(secondsLeft(2_100), 28, "whole seconds, counted up");
  equal(secondsLeft(29_999), 1);
  equal(secondsLeft(31_000), 0, "never below 0");
  equal(clockText(27_000), "0:27");
  equal(recorderControls(run([{ type: "record" }, { type: "micOpen", at: 0 }, { type: "tick", at: 2_100 }])).clock.text, "0:28");
});

test("recorder: too short is refused here, and a failed re-record keeps the take before", () => {
  let s = run([{ type: "record" }, { type: "micOpen", at: 0 }, { type: "stop", at: 300 }, { type: "stopped", blob: blob() }]);
  equal(s.status, "idle");
  equal(s.recording, null);
  assert(s.error.includes("too short"), s.error);
  assert(!canSend(s));
  // Re-record from a good take: the microphone is refused, the good take stays.
  s = recorderStep(recorded(2500), { type: "record" });
  equal(s.status, "asking");
  s = recorderStep(s, { type: "micFailed", message: "No permission to use the microphone." });
  equal(s.status, "recorded");
  equal(s.recording.durationMs, 2500);
  equal(s.error, "No permission to use the microphone.");
  // An empty recording (no data) isn't a recording.
  const empty = run([{ type: "record" }, { type: "micOpen", at: 0 }, { type: "stop", at: 2000 }, { type: "stopped", blob: blob(0) }]);
  equal(empty.status, "idle");
});

test("recorder: sending keeps the recording on a refusal and lets it go once sent", () => {
  let s = recorderStep(recorded(), { type: "send" });
  equal(s.status, "sending");
  equal(recorderStep(s, { type: "record" }), s, "no new take while sending");
  equal(recorderStep(s, { type: "discard" }), s, "nor closing");
  const refused = recorderStep(s, { type: "failed", message: "The host isn't taking voice clips from listeners." });
  equal(refused.status, "recorded");
  equal(refused.error, "The host isn't taking voice clips from listeners.");
  assert(refused.recording && refused.recording.durationMs === 2500, "the recording is kept");
  assert(canSend(refused), "and can go again");
  s = recorderStep(s, { type: "sent", clip: { id: "v1" }, text: "Sent — waiting for the host." });
  equal(s.status, "sent");
  equal(s.recording, null);
  equal(s.sent.id, "v1");
  equal(s.announce, "Sent — waiting for the host.");
  // Record another after sending.
  equal(recorderStep(s, { type: "record" }).status, "asking");
});

test("recorder: which controls show in each state", () => {
  const idle = recorderControls(initialRecorder());
  assert(idle.record.shown && !idle.record.pressed && !idle.stop.shown && !idle.send.shown && !idle.preview.shown);
  const rec = recorderControls(run([{ type: "record" }, { type: "micOpen", at: 0 }]));
  assert(rec.record.shown && rec.record.pressed && rec.stop.shown && !rec.preview.shown && !rec.rerecord.shown, "recording: pressed, with Stop");
  const done = recorderControls(recorded());
  assert(!done.record.shown && done.preview.shown && done.rerecord.shown && done.send.shown && !done.send.disabled, "recorded: preview, re-record, send");
  const sending = recorderControls(recorderStep(recorded(), { type: "send" }));
  assert(sending.send.busy && sending.send.disabled && sending.rerecord.disabled && sending.preview.disabled);
});

test("recorder: the note is one line of at most 120 characters", () => {
  equal(NOTE_MAX, 120);
  equal(cleanNote("  hello\nthere\t you  "), "hello there you");
  equal(cleanNote("a\u202Eb\u2066c"), "a b c", "no direction overrides");
  equal(cleanNote("x".repeat(200)).length, 120);
  equal(Array.from(cleanNote("🎉".repeat(130))).length, 120, "counted in characters, not UTF-16 units");
  equal(cleanNote(null), "");
  equal(cleanNote('<img src=x onerror="window.__pwned=1">'), '<img src=x onerror="window.__pwned=1">', "kept as the words typed");
});

test("recorder: levels, bars and the waveform", () => {
  equal(peakOf(new Float32Array([0.1, -0.5, 0.25])), 0.5);
  equal(peakOf(null), 0);
  equal(barHeight(0), 0);
  equal(barHeight(1), 1);
  equal(barHeight(0.5).toFixed(3), (1 - (20 * Math.log10(0.5)) / -48).toFixed(3));
  equal(barHeight(0.001), 0, "−60 dBFS is below the floor");
  deepEqual(pushLevel([0.1, 0.2, 0.3], 0.4, 3), [0.2, 0.3, 0.4], "the oldest go first");
  deepEqual(pushLevel([], 2), [1], "clamped to 1");
  deepEqual(downsample([0.1, 0.9, 0.2, 0.3, 0.5, 0.4], 3), [0.9, 0.3, 0.5], "each bar as loud as its loudest");
  deepEqual(downsample([0.2, 0.4], 4), [0.2, 0.2, 0.4, 0.4], "fewer levels than bars are stretched across");
  deepEqual(downsample([0.2, 0.4, 0.6], 3), [0.2, 0.4, 0.6], "as many: the same");
  deepEqual(downsample([], 8), [], "nothing recorded: no bars");
  equal(downsample(Array.from({ length: 1000 }, (_, i) => i / 1000), 64).length, 64);
  equal(downsample([1, 2], 0).length, 0);
  const bars = downsample(Array.from({ length: 101 }, (_, i) => (i === 100 ? 1 : 0)), 10);
  equal(bars[9], 1, "the last level lands in the last bar");
  equal(lengthText(3_000), "3 seconds");
  equal(lengthText(1_200), "1 second");
  equal(lengthText(30_000), "30 seconds");
});

test("recorder: errors are the server's words; ours only when it sent none", () => {
  equal(sendErrorText({ code: "clip_quota", message: "This station's clips are full (20 MB)." }), "This station's clips are full (20 MB).");
  equal(sendErrorText({ code: "pending_clips", message: "" }), "You have three shout-outs waiting already: wait for the host.");
  equal(sendErrorText({ code: "network", message: "Can't reach the Wavelength server." }), "Can't reach the Wavelength server.");
  equal(sendErrorText(null), "The clip didn't send.");
});

// ClipViews as the server sends them.
const clip = (id, over = {}) => ({
  id, person: { id: `p-${id}`, name: `Name ${id}` }, note: `note ${id}`, durationMs: 3000, status: "pending",
  createdAt: 1000, audioURL: `/api/clips/${id}/audio`, ...over,
});

test("inbox: the server's list, clips waiting oldest first, approved newest first, the quota", () => {
  const inbox = applyClipList(emptyInbox(), {
    clips: [clip("a", { createdAt: 30 }), clip("b", { createdAt: 10 }), clip("c", { status: "approved", createdAt: 5 }), clip("d", { status: "approved", createdAt: 50 }), { nonsense: true }],
    usedBytes: 4_404_019,
    quotaBytes: 20_971_520,
  });
  const model = inboxModel(inbox);
  deepEqual(model.pending.map((r) => r.id), ["b", "a"]);
  deepEqual(model.approved.map((r) => r.id), ["d", "c"]);
  equal(model.waiting, 2);
  equal(model.quota, "4.2 of 20 MB used");
  equal(model.full, false);
  equal(model.pending[0].name, "Name b");
  equal(model.pending[0].length, "3 seconds");
  equal(model.pending[0].label, "Name b's clip, 3 seconds: note b");
  equal(inboxModel(emptyInbox()).empty, "Looking for shout-outs…");
  equal(inboxModel(applyClipList(emptyInbox(), { clips: [], usedBytes: 0, quotaBytes: 100 })).empty, "No shout-outs waiting.");
  assert(inboxModel(applyClipList(emptyInbox(), { clips: [], usedBytes: 100, quotaBytes: 100 })).full, "full at the quota");
});

test("inbox: a shout-out arriving live shows once, stays through an older list, and a deleted one never comes back", () => {
  let inbox = applyClipList(emptyInbox(), { clips: [clip("a")], usedBytes: 10, quotaBytes: 100 });
  inbox = addClip(inbox, clip("b", { createdAt: 2000 }), { live: true });
  inbox = addClip(inbox, clip("b", { createdAt: 2000 }), { live: true });
  deepEqual(inboxModel(inbox).pending.map((r) => r.id), ["a", "b"], "once, however often it is said");
  // A list the server answered before b arrived: b stays.
  inbox = applyClipList(inbox, { clips: [clip("a")], usedBytes: 10, quotaBytes: 100 });
  deepEqual(inboxModel(inbox).pending.map((r) => r.id), ["a", "b"]);
  // Approved: it moves over.
  inbox = approveClip(inbox, clip("a", { status: "approved" }));
  deepEqual(inboxModel(inbox).pending.map((r) => r.id), ["b"]);
  deepEqual(inboxModel(inbox).approved.map((r) => r.id), ["a"]);
  // Deleted: gone, and a list already on its way doesn't bring it back.
  inbox = removeClip(inbox, "b");
  equal(inboxModel(inbox).waiting, 0);
  inbox = applyClipList(inbox, { clips: [clip("a", { status: "approved" }), clip("b")], usedBytes: 10, quotaBytes: 100 });
  deepEqual(inbox.clips.map((c) => c.id), ["a"]);
  inbox = addClip(inbox, clip("b"), { live: true });
  deepEqual(inbox.clips.map((c) => c.id), ["a"], "nor does the socket");
});

test("inbox: clips are read defensively; names and notes stay the words sent", () => {
  equal(readClip(null), null);
  equal(readClip({ person: {} }), null);
  const hostile = readClip(clip("x", { note: '<img src=x onerror="window.__pwned=1">', person: { id: "g", name: "<b>Gus</b>" }, audioURL: "javascript:alert(1)" }));
  equal(hostile.note, '<img src=x onerror="window.__pwned=1">');
  equal(hostile.person.name, "<b>Gus</b>");
  equal(hostile.audioURL, "/api/clips/x/audio", "only the server's own paths are played");
  equal(readClip(clip("y", { person: { id: "g", name: "  " } })).person.name, "Someone");
  equal(megabytes(0), "0");
  equal(megabytes(1000), "0.1");
  equal(megabytes(20_971_520), "20");
  equal(megabytes(15 * 1048576 + 600_000), "16");
  equal(quotaText(null, 100), "");
  equal(quotaText(0, 20_971_520), "0 of 20 MB used");
});

// A clip's entry on the timeline, as the server makes it.
const voiceEntry = (note, name = "Night DJ") => ({
  id: "e-voice", source: "voice", start: 0, expiration: 3000, durationMs: 3000, offsetMs: 0, why: note || `A voice clip from ${name}`,
  track: { id: "clip:v1", title: note || "Voice clip", artist: name, album: "Voice clip", audioURL: "/api/clips/v1/audio", durationMs: 3000 },
});

test("voice entries: now playing, Up Next and history say whose clip and the note", () => {
  assert(isVoice(voiceEntry("hi")));
  assert(!isVoice({ source: "dj", track: {} }));
  deepEqual(voiceWords(voiceEntry("Happy birthday, Ana!")), { name: "Night DJ", note: "Happy birthday, Ana!", title: "Voice clip · Night DJ" });
  deepEqual(voiceWords(voiceEntry("")), { name: "Night DJ", note: "", title: "Voice clip · Night DJ" }, "no note: the server's 'Voice clip' isn't one");
  const np = nowPlayingText(voiceEntry("Happy birthday, Ana!"), null);
  equal(np.title, "Voice clip · Night DJ");
  equal(np.artist, "Happy birthday, Ana!");
  equal(np.album, "");
  equal(np.label, "Voice clip between songs");
  equal(np.announce, "A voice clip from Night DJ: Happy birthday, Ana!.");
  deepEqual(voiceNowText(voiceEntry("")), { label: "Voice clip between songs", title: "Voice clip · Night DJ", artist: "", album: "", announce: "A voice clip from Night DJ." });
  deepEqual(voiceRowText(voiceEntry("")), { title: "Voice clip · Night DJ", sub: "A voice clip between songs" });
  deepEqual(voiceRowText(voiceEntry('<img src=x onerror="window.__pwned=1">')), { title: "Voice clip · Night DJ", sub: '<img src=x onerror="window.__pwned=1">' });
  // The party screen for the room says the same.
  const room = roomModel({ entry: voiceEntry("Happy birthday, Ana!"), party: null, frequency: "98.3" });
  equal(room.title, "Voice clip · Night DJ");
  equal(room.artist, "Happy birthday, Ana!");
  // Not a song: no thumbs or ♥ for it.
  equal(reactionsModel({ entry: voiceEntry("x"), named: true, myThumbs: new Map(), liked: new Set(), counts: null, staff: false }).visible, false);
});

test("recorder: the clock says the time left while asking and taking, then the recording's length", () => {
  let s = initialRecorder();
  equal(clockLabel(s), "0:30");
  s = recorderStep(s, { type: "record" });
  equal(clockLabel(s), "0:30 left");
  s = recorderStep(s, { type: "micOpen", at: 1000 });
  equal(isTaking(s), true);
  s = recorderStep(s, { type: "tick", at: 13_400 });
  equal(clockLabel(s), `${clockText(secondsLeft(12_400) * 1000)} left`);
  s = recorderStep(s, { type: "stop", at: 13_400 });
  equal(isTaking(s), true, "stopping is still taking");
  s = recorderStep(s, { type: "stopped", blob: new Blob(["x"]) });
  equal(isTaking(s), false);
  equal(clockLabel(s), lengthText(s.recording.durationMs));
});

test("recorder: the level meter is said at most once a second, and silence at once", () => {
  equal(levelText(0), "Silent");
  equal(levelText(42), "42 percent");
  equal(shouldSayLevel(40, 1500, 1000, "30"), false);
  equal(shouldSayLevel(40, 2000, 1000, "30"), true);
  equal(shouldSayLevel(0, 1100, 1000, "30"), true, "silence is said at once");
  equal(shouldSayLevel(0, 1100, 1000, "0"), false, "and only once");
  equal(shouldSayLevel(0, 1100, 1000, null), true, "a meter with no value yet");
});
