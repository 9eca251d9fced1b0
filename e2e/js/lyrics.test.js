import {
  LyricsCache,
  PREFERENCE_KEY,
  hostAllowsLyrics,
  lineAt,
  loadLyricsFor,
  lyricsClock,
  lyricsPanelModel,
  lyricsShown,
  nextChangeAt,
  readLyrics,
  rememberLyricsShown,
} from "/js/views/station/lyrics-model.js";
import { deepEqual, equal, suite } from "./assert.js";

const test = suite("lyrics");

// Café Nocturne's sidecar in the demo library, as the server answers it.
const CAFE = {
  trackID: "tcafe",
  synced: true,
  source: "lrc",
  lines: [
    { timeMs: 2000, text: "Lights are low in the café" },
    { timeMs: 10000, text: "Espresso steam and a slow parade" },
    { timeMs: 18000, text: "Les étoiles dansent, the night is young" },
    { timeMs: 26000, text: "Every chord a quiet song" },
    { timeMs: 34000, text: "Café nocturne, stay a while" },
    { timeMs: 42000, text: "Hum along, hum along" },
  ],
};
const cafe = readLyrics(CAFE);
const lines = cafe.lines;

// An entry 5 s into the timeline's clock, 1 s into its file (a seek's rest starts with an offset).
const entry = (over = {}) => ({ id: "e1", start: 100_000, expiration: 140_000, durationMs: 40_000, offsetMs: 8_000, source: "robot", track: { id: "tcafe", durationMs: 48_000 }, ...over });

test("the line at a position is the last whose time has come; none before the first", () => {
  equal(lineAt(lines, 0), -1);
  equal(lineAt(lines, 1999), -1);
  equal(lineAt(lines, 2000), 0);
  equal(lineAt(lines, 9999), 0);
  equal(lineAt(lines, 10000), 1);
  equal(lineAt(lines, 27000), 3);
  equal(lineAt(lines, 42000), 5);
  equal(lineAt(lines, 10 * 60_000), 5);
  equal(lineAt(lines, NaN), -1);
  equal(lineAt([], 5000), -1);
  // Two lines at one time (a chorus tag): the later of them.
  const twice = [{ timeMs: 0, text: "a" }, { timeMs: 5000, text: "b" }, { timeMs: 5000, text: "c" }, { timeMs: 9000, text: "d" }];
  equal(lineAt(twice, 5000), 2);
  equal(lineAt(twice, 4999), 0);
});

test("the next change is the next line's time, null after the last", () => {
  equal(nextChangeAt(lines, 0), 2000);
  equal(nextChangeAt(lines, 2000), 10000);
  equal(nextChangeAt(lines, 9999), 10000);
  equal(nextChangeAt(lines, 41_999), 42000);
  equal(nextChangeAt(lines, 42000), null);
  equal(nextChangeAt(lines, NaN), null);
});

test("the clock: position = now − start + offset; the wait is to the next line", () => {
  const timeline = { current: entry(), upNext: [] };
  // 5 s after the start, 8 s offset: 13 s into the file, line 1 until 18 s.
  deepEqual(lyricsClock(cafe, entry(), timeline, 105_000), { index: 1, waitMs: 5000 });
  // Tuned in mid-song, a moment before a line.
  deepEqual(lyricsClock(cafe, entry(), timeline, 117_990), { index: 2, waitMs: 10 });
  // After the last line nothing changes by itself.
  deepEqual(lyricsClock(cafe, entry(), timeline, 135_000), { index: 5, waitMs: null });
  // Before the first line.
  deepEqual(lyricsClock(cafe, entry({ offsetMs: 0 }), { current: entry({ offsetMs: 0 }) }, 100_500), { index: -1, waitMs: 1500 });
});

test("the clock: a DJ hold freezes the line, and a hold to come stops the wait there", () => {
  const held = { current: entry(), upNext: [], pausedAt: 105_000 };
  // Held at 13 s into the file: line 1, however long the hold lasts.
  deepEqual(lyricsClock(cafe, entry(), held, 105_000), { index: 1, waitMs: null });
  deepEqual(lyricsClock(cafe, entry(), held, 160_000), { index: 1, waitMs: null });
  // A hold 1 s from now comes before the next line (5 s away).
  deepEqual(lyricsClock(cafe, entry(), { ...held, pausedAt: 106_000 }, 105_000), { index: 1, waitMs: 1000 });
  // Resumed (the server shifts the entry; pausedAt is gone): the clock runs again.
  deepEqual(lyricsClock(cafe, entry({ start: 150_000 }), { current: entry({ start: 150_000 }), pausedAt: null }, 155_000), { index: 1, waitMs: 5000 });
});

test("the clock: unsynced lyrics and no entry have no line", () => {
  const plain = readLyrics({ synced: false, lines: [{ text: "one" }, { text: "two" }] });
  deepEqual(lyricsClock(plain, entry(), { current: entry() }, 105_000), { index: -1, waitMs: null });
  deepEqual(lyricsClock(cafe, null, null, 105_000), { index: -1, waitMs: null });
});

test("the server's answer: synced lines in time order, text always a string", () => {
  const read = readLyrics({
    synced: true,
    lines: [{ timeMs: 5000, text: "b" }, { timeMs: 1000, text: "a" }, { timeMs: 5000, text: "c" }, { timeMs: 7000, text: "" }, { timeMs: 9000, text: null }, null],
  });
  deepEqual(read, { synced: true, lines: [{ timeMs: 1000, text: "a" }, { timeMs: 5000, text: "b" }, { timeMs: 5000, text: "c" }, { timeMs: 7000, text: "" }, { timeMs: 9000, text: "" }] });
  // Markup stays text for the DOM to show as text.
  equal(readLyrics({ synced: false, lines: [{ text: "<img src=x onerror=alert(1)>" }] }).lines[0].text, "<img src=x onerror=alert(1)>");
});

test("the server's answer: unsynced, or synced without every time, is plain text; nothing is null", () => {
  deepEqual(readLyrics({ synced: false, source: "tags", lines: [{ text: "Plain line 1" }, { text: "" }, { text: "Plain line 2" }] }), {
    synced: false,
    lines: [{ text: "Plain line 1" }, { text: "" }, { text: "Plain line 2" }],
  });
  equal(readLyrics({ synced: true, lines: [{ timeMs: 1000, text: "a" }, { text: "b" }] }).synced, false);
  equal(readLyrics({ synced: true, lines: [] }), null);
  equal(readLyrics({ synced: false, lines: [{ text: "  " }, { text: "" }] }), null);
  equal(readLyrics({ synced: true, lines: [{ timeMs: 1, text: "" }] }), null);
  equal(readLyrics(null), null);
  equal(readLyrics({ error: { code: "not_found" } }), null);
  equal(readLyrics("[00:01.00]raw lrc"), null);
});

test("the panel: hidden for a live show, no song, the host's switch off or no lyrics", () => {
  const ready = { status: "ready", lyrics: cafe };
  equal(lyricsPanelModel({ entry: entry(), allowed: true, cached: ready }).visible, true);
  equal(lyricsPanelModel({ entry: entry({ source: "live" }), allowed: true, cached: ready }).visible, false);
  equal(lyricsPanelModel({ entry: null, allowed: true, cached: ready }).visible, false);
  equal(lyricsPanelModel({ entry: entry(), allowed: false, cached: ready }).visible, false);
  equal(lyricsPanelModel({ entry: entry(), allowed: true, cached: { status: "none" } }).visible, false);
  equal(lyricsPanelModel({ entry: entry(), allowed: true, cached: { status: "loading" } }).visible, false);
  equal(lyricsPanelModel({ entry: entry(), allowed: true, cached: { status: "error", at: 0 } }).visible, false);
  equal(lyricsPanelModel({ entry: entry(), allowed: true, cached: null }).visible, false);
  deepEqual(lyricsPanelModel({ entry: entry(), allowed: true, cached: ready, shown: false }), { visible: true, trackID: "tcafe", synced: true, lines, shown: false });
});

test("the host's switch: the party's settings.lyrics, on unless false", () => {
  equal(hostAllowsLyrics(null), true);
  equal(hostAllowsLyrics({ mode: "dj", settings: {} }), true);
  equal(hostAllowsLyrics({ mode: "dj", settings: { lyrics: true } }), true);
  equal(hostAllowsLyrics({ mode: "requests", settings: { lyrics: false } }), false);
});

test("the listener's choice is remembered; storage that refuses changes nothing", () => {
  const store = new Map();
  const storage = { getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)), removeItem: (k) => store.delete(k) };
  equal(lyricsShown(storage), true);
  rememberLyricsShown(storage, false);
  equal(store.get(PREFERENCE_KEY), "hidden");
  equal(lyricsShown(storage), false);
  rememberLyricsShown(storage, true);
  equal(store.has(PREFERENCE_KEY), false);
  equal(lyricsShown(storage), true);
  const refusing = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("denied"); }, removeItem: () => { throw new Error("denied"); } };
  equal(lyricsShown(refusing), true);
  rememberLyricsShown(refusing, false);
  equal(lyricsShown(null), true);
});

function fakeServer(answers) {
  const asked = [];
  return {
    asked,
    load: async (trackID) => {
      asked.push(trackID);
      const answer = answers[trackID];
      if (answer instanceof Error) throw answer;
      if (answer === undefined) throw Object.assign(new Error("Track has no lyrics."), { status: 404, code: "not_found" });
      return answer;
    },
  };
}

test("the cache: one request per track, shared while in flight; a 404 is 'none' and kept", async () => {
  const server = fakeServer({ tcafe: CAFE });
  const cache = new LyricsCache({ load: server.load });
  equal(cache.peek("tcafe"), null);
  const [a, b] = await Promise.all([cache.want("tcafe"), cache.want("tcafe")]);
  equal(a.status, "ready");
  equal(b, a);
  equal(cache.peek("tcafe").lyrics.lines.length, 6);
  equal((await cache.want("tcafe")).status, "ready");
  equal((await cache.want("tnone")).status, "none");
  equal((await cache.want("tnone")).status, "none");
  deepEqual(server.asked, ["tcafe", "tnone"]);
});

test("the cache: a failure is asked again only after the retry time", async () => {
  let now = 1000;
  const server = fakeServer({ tflaky: Object.assign(new Error("The server answered 500."), { status: 500 }) });
  const cache = new LyricsCache({ load: server.load, retryMs: 15_000, now: () => now });
  equal(cache.due(cache.peek("tflaky")), true);
  equal((await cache.want("tflaky")).status, "error");
  equal(cache.due(cache.peek("tflaky")), false);
  now += 14_999;
  equal((await cache.want("tflaky")).status, "error");
  equal(cache.due(cache.peek("tflaky")), false);
  equal(server.asked.length, 1);
  now += 1;
  equal(cache.due(cache.peek("tflaky")), true);
  await cache.want("tflaky");
  equal(server.asked.length, 2);
  // A known answer is never due again; nor is one in flight.
  const other = new LyricsCache({ load: fakeServer({ tcafe: CAFE }).load });
  const loading = other.want("tcafe");
  equal(other.due(other.peek("tcafe")), false);
  await loading;
  equal(other.due(other.peek("tcafe")), false);
});

test("the cache: keeps the 20 most recently used tracks", async () => {
  const answers = {};
  for (let i = 0; i < 25; i++) answers[`t${i}`] = { synced: false, lines: [{ text: `song ${i}` }] };
  const server = fakeServer(answers);
  const cache = new LyricsCache({ load: server.load, limit: 20 });
  for (let i = 0; i < 20; i++) await cache.want(`t${i}`);
  // t0 used again: t1 is now the oldest.
  equal(cache.peek("t0").status, "ready");
  await cache.want("t20");
  equal(cache.size, 20);
  equal(cache.peek("t1"), null);
  equal(cache.peek("t0").status, "ready");
  for (let i = 21; i < 25; i++) await cache.want(`t${i}`);
  equal(cache.size, 20);
  equal(server.asked.length, 25);
});

test("a track's words are asked for only when its details say it has them (no 404 for a song without)", async () => {
  const asked = [];
  const details = async (id) => {
    asked.push(`details:${id}`);
    return { hasLyrics: id === "twords" };
  };
  const lines = async (id) => {
    asked.push(`lines:${id}`);
    return CAFE;
  };
  equal(await loadLyricsFor("tquiet", { details, lines }), null);
  deepEqual(await loadLyricsFor("twords", { details, lines }), CAFE);
  deepEqual(asked, ["details:tquiet", "details:twords", "lines:twords"]);
  // Through the cache: none, and the words never asked for.
  const cache = new LyricsCache({ load: (id) => loadLyricsFor(id, { details, lines }) });
  equal((await cache.want("tquiet")).status, "none");
  equal(asked.filter((a) => a === "lines:tquiet").length, 0);
});
