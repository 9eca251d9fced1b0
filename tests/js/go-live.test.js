// Going live's pure module (views/go-live/model.js): the server's
// icecast:// source address read into what BUTT and Mixxx ask for (by
// hand: Chromium's URL parser leaves an unknown scheme's host empty), your
// station put into it, and the words the station screen shows and says for
// a live source.

import { suite, equal, deepEqual, assert } from "/tests/assert.js";
import {
  ICECAST_PORT,
  parseSourceURL,
  withStation,
  sourceFields,
  fullSourceURL,
  madeText,
  liveShow,
  liveKey,
  liveAnnouncement,
  sinceText,
} from "/js/views/go-live/model.js";

const test = suite("go-live");

// ------------------------------------------------------------- parsing

test("parse: the server's address, host, port, mount, user and password", () => {
  deepEqual(parseSourceURL("icecast://source:It5woyWNR6Rpr-VeFTBLxdPa@127.0.0.1:38055/live/s46cfaeabc5a1"), {
    scheme: "icecast",
    user: "source",
    password: "It5woyWNR6Rpr-VeFTBLxdPa",
    host: "127.0.0.1",
    port: 38055,
    mount: "/live/s46cfaeabc5a1",
  });
});

test("parse: the href of a URL object reads the same (its own host isn't relied on)", () => {
  // Older Chromium leaves an unknown scheme's host empty, so the app never
  // asks URL for it; what it serialises must still parse the same.
  const url = new URL("icecast://source:k@radio.example.org:8001/live/s1");
  const parsed = parseSourceURL(url.href);
  equal(parsed.host, "radio.example.org");
  equal(parsed.port, 8001);
});

test("parse: a host name, and the placeholders of a GET answer", () => {
  const parsed = parseSourceURL("icecast://source:KEY@radio.example.org:8000/live/{station}");
  equal(parsed.host, "radio.example.org");
  equal(parsed.port, 8000);
  equal(parsed.password, "KEY");
  equal(parsed.mount, "/live/{station}");
});

test("parse: a password with ':' and '@' in it is kept whole", () => {
  const parsed = parseSourceURL("icecast://source:a:b@c@host.example:9000/live/s1");
  equal(parsed.user, "source");
  equal(parsed.password, "a:b@c");
  equal(parsed.host, "host.example");
  equal(parsed.port, 9000);
});

test("parse: percent-escapes in the user part are decoded", () => {
  const parsed = parseSourceURL("icecast://source:p%40ss%3Aword@h:8000/live/s1");
  equal(parsed.password, "p@ss:word");
});

test("parse: an IPv6 host loses its brackets and keeps its port", () => {
  const parsed = parseSourceURL("icecast://source:k@[::1]:8123/live/s1");
  equal(parsed.host, "::1");
  equal(parsed.port, 8123);
  equal(parsed.mount, "/live/s1");
});

test("parse: no port is Icecast's 8000; no user part is allowed", () => {
  const parsed = parseSourceURL("icecast://radio.example.org/live/s1");
  equal(parsed.port, ICECAST_PORT);
  equal(parsed.user, "");
  equal(parsed.password, "");
  equal(parsed.host, "radio.example.org");
});

test("parse: other schemes (http) read the same; query and fragment are not the mount", () => {
  const parsed = parseSourceURL("http://source:k@h:8000/live/s1?x=1#y");
  equal(parsed.scheme, "http");
  equal(parsed.mount, "/live/s1");
});

test("parse: not an address is null", () => {
  for (const bad of [null, undefined, "", "source:k@h:8000/live", "icecast://", "icecast://source:k@:8000/live/s1",
    "icecast://source:k@h:port/live/s1", "icecast://source:k@h:70000/live/s1", "icecast://source:k@h:0/live", "icecast://source:k@[::1/live",
    "icecast://source:k@a:b:c/live"]) {
    equal(parseSourceURL(bad), null, `for ${bad}`);
  }
});

// ------------------------------------------------------ your station

test("station: {station} becomes your station's id; without one it stays", () => {
  equal(withStation("icecast://source:KEY@h:1/live/{station}", "s1"), "icecast://source:KEY@h:1/live/s1");
  equal(withStation("icecast://source:KEY@h:1/live/{station}", null), "icecast://source:KEY@h:1/live/{station}");
  equal(withStation(null, "s1"), null);
});

test("fields: what BUTT and Mixxx ask for, in their order, with the key as the password", () => {
  const fields = sourceFields("icecast://source:It5woy@127.0.0.1:38055/live/{station}", "s46", "It5woy");
  deepEqual(fields.map((f) => [f.id, f.value]), [
    ["host", "127.0.0.1"],
    ["port", "38055"],
    ["mount", "/live/s46"],
    ["user", "source"],
    ["password", "It5woy"],
  ]);
});

test("fields: without the key (a GET answer says KEY) the password is unknown", () => {
  const fields = sourceFields("icecast://source:KEY@h.example:8000/live/{station}", "s9");
  equal(fields.find((f) => f.id === "password").value, null);
  equal(fields.find((f) => f.id === "mount").value, "/live/s9");
  equal(sourceFields("nonsense", "s9"), null);
});

test("address: the whole address for your station, with the key in place of KEY", () => {
  equal(fullSourceURL("icecast://source:KEY@h:8000/live/{station}", "s1", "abc_-1"), "icecast://source:abc_-1@h:8000/live/s1");
  equal(fullSourceURL("icecast://source:abc@h:8000/live/{station}", "s1", "abc"), "icecast://source:abc@h:8000/live/s1");
});

test("made: a key's date and time in words", () => {
  const text = madeText(Date.UTC(2026, 10, 24, 1, 52), "en-GB");
  assert(text.includes("2026") && text.includes("Nov"), text);
  equal(madeText(undefined), "");
});

// ------------------------------------------------ the station screen

const onAir = (extra = {}) => ({ onAir: true, since: 1_795_485_147_462, name: "<b>Late</b> Jazz", listenURL: "/live/s1.mp3", sourceURL: "icecast://source:KEY@h:1/live/s1", ...extra });

test("show: the source's words as text, markup and all", () => {
  const show = liveShow(onAir({ genre: "Jazz", description: "<img src=x onerror=alert(1)>", title: "So What" }));
  equal(show.name, "<b>Late</b> Jazz");
  equal(show.title, "So What");
  equal(show.detail, "Jazz · <img src=x onerror=alert(1)>");
  equal(show.listenURL, "/live/s1.mp3");
});

test("show: nothing live (or no place to hear it) is null", () => {
  equal(liveShow({ onAir: false, sourceURL: "x" }), null);
  equal(liveShow(null), null);
  equal(liveShow({ onAir: true }), null);
  equal(liveShow(onAir({ listenURL: "https://elsewhere.example/x.mp3" })), null, "only this server's relay plays");
});

test("show: no name is 'Live show'; control characters and long names are tamed", () => {
  equal(liveShow(onAir({ name: "   " })).name, "Live show");
  equal(liveShow(onAir({ name: "Night\u0000\nOwls\t FM" })).name, "Night Owls FM");
  const long = liveShow(onAir({ name: "x".repeat(500) })).name;
  equal([...long].length, 200);
  assert(long.endsWith("…"), long.slice(-3));
});

test("announce: a show starting, its title changing, and ending", () => {
  const a = liveShow(onAir());
  const b = liveShow(onAir({ title: "So What" }));
  equal(liveAnnouncement(null, a), "Live now: <b>Late</b> Jazz.");
  equal(liveAnnouncement(a, b), "Now on the live show: So What.");
  equal(liveAnnouncement(b, b), null);
  equal(liveAnnouncement(b, null), "The live show has ended.");
  equal(liveAnnouncement(null, null), null);
  const again = liveShow(onAir({ since: 1_795_485_999_000 }));
  equal(liveAnnouncement(a, again), "Live now: <b>Late</b> Jazz.", "a new source is a new show");
});

test("key: the panel redraws only when the words change", () => {
  equal(liveKey(liveShow(onAir())), liveKey(liveShow(onAir())));
  assert(liveKey(liveShow(onAir())) !== liveKey(liveShow(onAir({ title: "t" }))));
  equal(liveKey(null), "");
});

test("since: when the show went live", () => {
  assert(sinceText(Date.UTC(2026, 10, 24, 21, 4), "en-GB").startsWith("since "));
  equal(sinceText(null), "");
});
