// "Remind me" while the app is open: for the signed-in person (a guest
// too) this asks GET /api/me/reminders when it starts, every five minutes
// and whenever a show's "Remind me" is pressed, and when a reminder is due
// (leadMinutes before its next episode) shows an in-app reminder and, when
// the browser allows it, a notification. Permission is asked only when the
// person presses "Remind me" (askPermission); refused or unavailable, the
// in-app reminder is all. Each episode is reminded once, in this tab and
// (through localStorage) in any other tab or a reload.
//
// app.js starts it (startReminders(session)); tests read
// window.__wavelength.reminders.fired.

import { scheduleApi } from "../api/schedule.js";
import { h } from "../ui/dom.js";
import { buildHash } from "../router.js";
import { timeText } from "../views/schedule/model.js";
import { planReminders, pruneFired, reminderKey, reminderText, sleepFor } from "./plan.js";

const REFRESH_MS = 5 * 60_000;
const RETRY_MS = 60_000;
const TOAST_MS = 90_000;
const STORE = "wavelength.reminders.fired";

const state = {
  person: null,
  list: [],
  timer: null,
  refreshTimer: null,
  asking: null,
  generation: 0,
};

function loadFired() {
  try {
    return pruneFired(JSON.parse(localStorage.getItem(STORE) || "{}"), Date.now());
  } catch {
    return {};
  }
}

function saveFired(fired) {
  try {
    localStorage.setItem(STORE, JSON.stringify(fired));
  } catch {
    // Private mode: this tab still remembers (memory below).
  }
}

const firedHere = {};

function firedKeys() {
  return new Set([...Object.keys(loadFired()), ...Object.keys(firedHere)]);
}

/** Claims `key` (so no other tab fires it too); false when already fired. */
function claim(key, start) {
  const stored = loadFired();
  if (stored[key] || firedHere[key]) return false;
  stored[key] = start;
  firedHere[key] = start;
  saveFired(stored);
  return true;
}

function showHash(reminder) {
  const stationID = reminder.stationID || (reminder.show && reminder.show.stationID);
  const showID = (reminder.show && reminder.show.id) || reminder.next.showID;
  return buildHash(["station", stationID, "show", showID]);
}

function notify(reminder, text, key) {
  if (!("Notification" in window) || Notification.permission !== "granted") return false;
  const options = { body: text.body, tag: key, icon: "/icons/icon-192.png" };
  try {
    const note = new Notification(text.title, options);
    note.addEventListener("click", () => {
      window.focus();
      location.hash = showHash(reminder);
      note.close();
    });
    return true;
  } catch {
    // Android's Chrome only shows them through the service worker.
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.ready.then((registration) => registration.showNotification(text.title, options)).catch(() => {});
      return true;
    }
    return false;
  }
}

function inAppReminder(reminder, text, key) {
  const region = document.getElementById("toasts");
  if (!region) return;
  let timer = null;
  const close = () => {
    clearTimeout(timer);
    item.classList.add("toast-out");
    setTimeout(() => item.remove(), 400);
  };
  const item = h(
    "div",
    { class: "toast toast-reminder", role: "status", dataset: { reminderKey: key } },
    h("p", { class: "toast-reminder-title" }, h("span", { class: "onair-lamp small", "aria-hidden": "true" }, "Soon"), " ", text.title),
    h("p", { class: "toast-reminder-body" }, text.body),
    h(
      "p",
      { class: "toast-reminder-actions" },
      h("a", { class: "btn btn-secondary btn-small", href: showHash(reminder), onclick: close }, "Open the show"),
      h("button", { class: "btn btn-ghost btn-small toast-reminder-close", type: "button", onclick: close }, "Dismiss"),
    ),
  );
  region.append(item);
  timer = setTimeout(close, TOAST_MS);
}

function fire(reminder, now) {
  const key = reminderKey(reminder);
  if (!claim(key, reminder.next.start)) return;
  const text = reminderText(reminder, now, (ms) => timeText(ms));
  inAppReminder(reminder, text, key);
  const notified = notify(reminder, text, key);
  reminders.fired.push({ key, showID: reminder.next.showID, start: reminder.next.start, title: text.title, notified, at: now });
}

function plan() {
  clearTimeout(state.timer);
  state.timer = null;
  if (!state.person) return;
  const now = Date.now();
  const { due, wakeAt } = planReminders(state.list, now, firedKeys());
  for (const reminder of due) fire(reminder, now);
  state.timer = setTimeout(plan, sleepFor(wakeAt, Date.now()));
}

async function refresh() {
  if (!state.person) return;
  const generation = state.generation;
  let wait = REFRESH_MS;
  try {
    const list = await scheduleApi.reminders();
    if (generation !== state.generation) return;
    state.list = Array.isArray(list) ? list : [];
  } catch (error) {
    if (generation !== state.generation) return;
    // Signed out meanwhile: nothing to remind; a network error: soon again.
    if (error.status === 401) state.list = [];
    else wait = RETRY_MS;
  }
  plan();
  // One timer, however many refreshes overlapped.
  clearTimeout(state.refreshTimer);
  if (state.person) state.refreshTimer = setTimeout(refresh, wait);
}

function follow(person) {
  const id = person ? person.id : null;
  if (id === (state.person && state.person.id)) return;
  state.generation += 1;
  state.person = person || null;
  state.list = [];
  clearTimeout(state.timer);
  clearTimeout(state.refreshTimer);
  if (state.person) refresh();
}

export const reminders = {
  /** What went off in this tab: [{key, showID, start, title, notified, at}]. */
  fired: [],
  /** Asks again now (after "Remind me" is pressed or released). */
  refresh,
  /** The reminders known: [ReminderView]. */
  get list() {
    return state.list;
  },
};

/**
 * Asks to show notifications, if the browser can and hasn't been told yet;
 * call it from the click on "Remind me". Resolves to "granted", "denied",
 * "default" or "unsupported".
 */
export function askPermission() {
  if (!("Notification" in window)) return Promise.resolve("unsupported");
  if (Notification.permission !== "default") return Promise.resolve(Notification.permission);
  try {
    const asked = Notification.requestPermission();
    return asked && typeof asked.then === "function" ? asked : Promise.resolve(Notification.permission);
  } catch {
    return Promise.resolve(Notification.permission);
  }
}

/** Follows who is signed in (session.js): reminders run while someone is. */
export function startReminders(session) {
  session.onChange(follow);
  if (session.loaded) follow(session.person);
  // Back to a tab that slept: plan at once (timers may have been held back).
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && state.person) plan();
  });
  return reminders;
}
