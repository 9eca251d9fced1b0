import { NEARBY_MAX, NEARBY_REFRESH_MS, nearbyModel, safeURL } from "/js/views/dial/nearby-model.js";
import { assert, deepEqual, equal, suite } from "./assert.js";

const test = suite("nearby");

// A station as GET /api/nearby lists it.
const station = (id, over = {}) => ({
  stationID: id, name: `Station ${id}`, frequency: "98.3", mode: "dj", needsCode: false,
  serverURL: "http://192.0.2.2:8080", stationURL: `http://192.0.2.2:8080/#/station/${id}`, ...over,
});

test("the announced stations with their links, names as sent, a code marked", () => {
  const model = nearbyModel({ browsing: true, stations: [station("s1"), station("s2", { needsCode: true, frequency: null, mode: "lobby", name: '<img src=x onerror="window.__pwned=1">' })] });
  equal(model.visible, true);
  equal(model.browsing, true);
  equal(model.stations.length, 2);
  const [a, b] = model.stations;
  equal(a.href, "http://192.0.2.2:8080/#/station/s1");
  equal(a.host, "192.0.2.2:8080");
  equal(a.frequency, "98.3");
  equal(a.mode, "DJ");
  equal(a.needsCode, false);
  equal(a.label, "98.3 FM, Station s1, on another Wavelength server at 192.0.2.2:8080");
  equal(b.name, '<img src=x onerror="window.__pwned=1">', "the words, to be set as text");
  equal(b.frequency, null);
  equal(b.mode, "Lobby vote");
  equal(b.needsCode, true);
  assert(b.label.endsWith("needs an access code"), b.label);
});

test("hidden when there is nothing, or nobody looked", () => {
  deepEqual(nearbyModel({ browsing: true, stations: [] }), { visible: false, browsing: true, stations: [] });
  deepEqual(nearbyModel({ browsing: false, stations: [] }), { visible: false, browsing: false, stations: [] });
  equal(nearbyModel(null).visible, false);
  equal(nearbyModel({ stations: "nope" }).visible, false);
});

test("only plain http(s) links, each once, and no more than the cap", () => {
  const model = nearbyModel({
    browsing: true,
    stations: [
      station("bad1", { stationURL: "javascript:alert(1)" }),
      station("bad2", { stationURL: "data:text/html,<script>alert(1)</script>" }),
      station("bad3", { stationURL: "/#/station/local" }),
      station("bad4", { stationURL: "http://user:pw@192.0.2.9/#/station/x" }),
      station("ok"),
      station("ok"),
      station("tls", { stationURL: "https://radio.example/#/station/tls", frequency: "<b>1</b>" }),
      null,
    ],
  });
  deepEqual(model.stations.map((s) => s.href), ["http://192.0.2.2:8080/#/station/ok", "https://radio.example/#/station/tls"]);
  equal(model.stations[1].frequency, null, "a frequency that isn't one isn't shown");
  equal(safeURL("javascript:alert(1)"), null);
  equal(safeURL("http://192.0.2.2:8080/").host, "192.0.2.2:8080");
  const many = nearbyModel({ browsing: true, stations: Array.from({ length: 80 }, (_, i) => station(`s${i}`)) });
  equal(many.stations.length, NEARBY_MAX);
  equal(NEARBY_REFRESH_MS, 10_000);
});

test("names are one line, at most 80 characters, never empty", () => {
  const [a, b] = nearbyModel({ browsing: true, stations: [station("a", { name: "Late\nnight\u202E radio " }), station("b", { name: "x".repeat(200) })] }).stations;
  equal(a.name, "Late night radio");
  equal(Array.from(b.name).length, 80);
  assert(b.name.endsWith("…"));
  equal(nearbyModel({ browsing: true, stations: [station("c", { name: "" })] }).stations[0].name, "A Wavelength station");
});
