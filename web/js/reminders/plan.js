// When reminders go off, worked out without timers or the DOM: each of the
// caller's reminders (ReminderView: the show, its next episode, how many
// minutes before) is due from `next.start - leadMinutes` until the episode
// starts, once per episode (keyed by show and start). The runner
// (reminders.js) wakes for the soonest one, but never sleeps longer than
// MAX_WAIT_MS at a time: long timers drift when a laptop sleeps, and the
// list may have changed meanwhile. Unit-tested by
// e2e/browser/test_schedule_units.py.

export const MAX_WAIT_MS = 5 * 60_000;
/** Fired keys are forgotten a day after their episode started. */
export const KEEP_FIRED_MS = 86_400_000;

/** One reminder of one episode: "s123@1790000000000". */
export function reminderKey(reminder) {
  const next = reminder && reminder.next;
  if (!next) return null;
  return `${next.showID || (reminder.show && reminder.show.id)}@${next.start}`;
}

/** The instant a reminder is due (ms), or null when its show has no next episode. */
export function dueAt(reminder) {
  if (!reminder || !reminder.next) return null;
  const lead = Math.max(0, Number(reminder.leadMinutes) || 0);
  return reminder.next.start - lead * 60_000;
}

/**
 * {due: the reminders to fire now, wakeAt: when the next one is due (ms) or
 * null}. `fired` has the keys already fired; an episode that has started is
 * past reminding.
 */
export function planReminders(reminders, now, fired = new Set()) {
  const due = [];
  let wakeAt = null;
  for (const reminder of reminders || []) {
    const key = reminderKey(reminder);
    if (!key || fired.has(key)) continue;
    if (now >= reminder.next.start) continue;
    const at = dueAt(reminder);
    if (at <= now) due.push(reminder);
    else if (wakeAt === null || at < wakeAt) wakeAt = at;
  }
  return { due, wakeAt };
}

/** How long to sleep before planning again: until `wakeAt`, at most `max`, never negative. */
export function sleepFor(wakeAt, now, max = MAX_WAIT_MS) {
  if (wakeAt == null) return max;
  return Math.max(0, Math.min(max, wakeAt - now));
}

/** The fired keys ({key: episode start}) still worth remembering at `now`. */
export function pruneFired(fired, now, keep = KEEP_FIRED_MS) {
  const out = {};
  for (const [key, start] of Object.entries(fired || {})) {
    if (Number(start) + keep > now) out[key] = Number(start);
  }
  return out;
}

/** "in 1 minute", "in 12 minutes", "now", or "at 22:00" an hour or more away. */
export function startsText(start, now, time = (ms) => new Date(ms).toTimeString().slice(0, 5)) {
  const minutes = Math.round((start - now) / 60_000);
  if (minutes <= 0) return "now";
  if (minutes === 1) return "in 1 minute";
  if (minutes < 60) return `in ${minutes} minutes`;
  return `at ${time(start)}`;
}

/** A reminder's words: {title: "Night Owls starts in 8 minutes", body: "On KXLU · 22:00–00:00"}. */
export function reminderText(reminder, now, time = undefined) {
  const { next, show } = reminder;
  const name = (show && show.name) || next.name || "A show";
  const clock = time || ((ms) => new Date(ms).toTimeString().slice(0, 5));
  return {
    title: `${name} starts ${startsText(next.start, now, clock)}`,
    body: [reminder.stationName ? `On ${reminder.stationName}` : null, `${clock(next.start)}–${clock(next.end)}`].filter(Boolean).join(" · "),
  };
}
