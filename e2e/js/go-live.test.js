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
  keyCardLook,
  infoAfterMaking,
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

test("key card: off without a source address, else a key, a fresh key or none, in words", () => {
  const off = keyCardLook({});
  equal(off.state, "off");
  equal(off.off, true);
  equal(off.status, "Going live is turned off on this server: it takes no broadcast software.");
  const none = keyCardLook({ sourceURL: "icecast://source:KEY@radio.example:8000/live/{station}" });
  equal(none.state, "none");
  equal(none.hasKey, false);
  equal(none.status, "You have no stream key yet.");
  const made = Date.UTC(2026, 2, 1, 12, 0);
  const key = keyCardLook({ sourceURL: "icecast://source:KEY@radio.example:8000/live/{station}", createdAt: made });
  equal(key.state, "key");
  equal(key.status, `You have a stream key, made ${madeText(made)}.`);
  equal(keyCardLook({ sourceURL: "icecast://x", createdAt: made }, { key: "k" }).state, "fresh");
});

test("key card: after making a key the card reads as the server's GET would, KEY in place of the key", () => {
  const answer = { key: "s3cret", createdAt: 5, sourceURL: "icecast://source:s3cret@radio.example:8000/live/{station}" };
  deepEqual(infoAfterMaking({ other: 1 }, answer), { other: 1, createdAt: 5, sourceURL: "icecast://source:KEY@radio.example:8000/live/{station}" });
  deepEqual(infoAfterMaking({}, { key: "k", createdAt: 6, sourceURL: null }), { createdAt: 6, sourceURL: null });
});
