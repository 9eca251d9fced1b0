// Loads every test file, runs the tests and publishes the results for the
// pytest driver (e2e/browser/test_js_units.py) on window.__jsTests, and
// for a person on the page. A file that fails to load is a failing test.

import { runAll } from "./assert.js";

const FILES = ["frequency", "wait-text", "timeline", "live-sequence", "known-tracks", "clock", "station-state", "settings-state", "party", "lobby", "sound", "analysis", "studio", "history", "identify", "schedule", "reminders", "go-live", "broadcast", "live-takeover", "lyrics", "chat", "room-reactions", "clips", "nearby", "library", "queue", "room-calibration"];

const loadFailures = [];
for (const file of FILES) {
  try {
    await import(`./${file}.test.js`);
  } catch (error) {
    loadFailures.push({ name: `${file}: the test file loads`, ok: false, error: String(error && error.stack ? error.stack : error) });
  }
}
const results = [...loadFailures, ...(await runAll())];
const failed = results.filter((r) => !r.ok);

const list = document.getElementById("results");
for (const r of results) {
  const item = document.createElement("li");
  item.className = r.ok ? "pass" : "fail";
  item.textContent = `${r.ok ? "✓" : "✗"} ${r.name}`;
  if (!r.ok) {
    const pre = document.createElement("pre");
    pre.textContent = r.error;
    item.append(pre);
  }
  list.append(item);
}
document.getElementById("summary").textContent = `${results.length} tests, ${failed.length} failed.`;
window.__jsTests = { done: true, results };
