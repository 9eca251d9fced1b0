// Runs the schedule's JS unit tests (schedule.test.js, reminders.test.js)
// with the shared runner of tests/js (assert.js), and publishes the results
// on window.__jsTests for tests/browser/test_schedule_units.py.

import { runAll } from "/tests/assert.js";

const FILES = ["schedule", "reminders"];

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
