// When reminders go off (reminders/plan.js): due from leadMinutes before
// the episode until it starts, each episode once, the runner never sleeping
// past the next one or longer than five minutes.

import { suite, equal, deepEqual, assert } from "/tests/assert.js";
import { MAX_WAIT_MS, planReminders, pruneFired, reminderKey, reminderText, sleepFor, startsText } from "/js/reminders/plan.js";

const test = suite("reminders");

const NOW = Date.UTC(2026, 10, 24, 21, 0);
const MIN = 60_000;
const reminder = (id, inMinutes, lead = 10, extra = {}) => ({
  stationID: "st",
  stationName: "KWAV",
  show: { id, name: `Show ${id}` },
  next: { showID: id, name: `Show ${id}`, start: NOW + inMinutes * MIN, end: NOW + (inMinutes + 60) * MIN },
  leadMinutes: lead,
  ...extra,
});

test("plan: due within the lead time, later ones wake the runner at their time", () => {
  const { due, wakeAt } = planReminders([reminder("a", 5), reminder("b", 30), reminder("c", 12)], NOW);
  deepEqual(due.map((r) => r.show.id), ["a"]);
  equal(wakeAt, NOW + 2 * MIN, "c is due 10 minutes before its start, 2 minutes from now");
});

test("plan: exactly at the lead time is due", () => {
  equal(planReminders([reminder("a", 10)], NOW).due.length, 1);
});

test("plan: an episode that has started is past reminding", () => {
  const { due, wakeAt } = planReminders([reminder("a", 0), reminder("b", -5)], NOW);
  equal(due.length, 0);
  equal(wakeAt, null);
});

test("plan: a reminder fires once per episode", () => {
  const list = [reminder("a", 5)];
  const fired = new Set([reminderKey(list[0])]);
  equal(planReminders(list, NOW, fired).due.length, 0);
  const nextWeek = reminder("a", 5 + 7 * 24 * 60);
  assert(reminderKey(nextWeek) !== reminderKey(list[0]), "the next episode is another reminder");
});

test("plan: a show with no next episode has nothing to remind", () => {
  const { due, wakeAt } = planReminders([{ ...reminder("a", 5), next: null }], NOW);
  equal(due.length, 0);
  equal(wakeAt, null);
});

test("plan: the runner sleeps until the next one, at most five minutes", () => {
  equal(sleepFor(NOW + 2 * MIN, NOW), 2 * MIN);
  equal(sleepFor(NOW + 3 * 24 * 60 * MIN, NOW), MAX_WAIT_MS, "never a timer days long");
  equal(sleepFor(null, NOW), MAX_WAIT_MS);
  equal(sleepFor(NOW - MIN, NOW), 0);
});

test("plan: fired keys are forgotten a day after their episode", () => {
  deepEqual(pruneFired({ old: NOW - 25 * 60 * MIN, recent: NOW - 60 * MIN, soon: NOW + MIN }, NOW), { recent: NOW - 60 * MIN, soon: NOW + MIN });
});

test("plan: the words", () => {
  const clock = (ms) => new Date(ms).toISOString().slice(11, 16);
  deepEqual(reminderText(reminder("a", 8), NOW, clock), { title: "Show a starts in 8 minutes", body: "On KWAV · 21:08–22:08" });
  equal(startsText(NOW + MIN, NOW), "in 1 minute");
  equal(startsText(NOW + 20_000, NOW), "now");
  equal(startsText(NOW + 90 * MIN, NOW, clock), "at 22:30");
});
