// A show's episodes on its page: the next ones (for the station's DJs each
// with "Cancel episode" and "Move…", which send the show's whole spec back
// with the episode's original date in `cancelled` or `moved`; the date is
// the episode's originalStart in the show's own zone), the cancelled ones
// still to come (with "Restore"), and the last ones aired, each with what
// the station played during it (rows as the history screen draws them).

import { h, setText } from "../../ui/dom.js";
import { playRow } from "../history/rows.js";
import { dateIn, dateTimeIn, originalDate, whenText } from "./model.js";
import { longDate, zoneName } from "./phrase.js";

let forms = 0;

/**
 * The upcoming list. `actions` ({cancel(episode), move(episode, start,
 * minutes), restore(date)} → Promise) is given to the station's DJs only.
 */
export function upcomingList(page, actions) {
  const { show } = page;
  const now = Date.now();
  const items = (page.upcoming || []).map((episode) => {
    const date = originalDate(episode, show);
    const li = h(
      "li",
      { class: `show-ep${episode.moved ? " is-moved" : ""}`, dataset: { start: String(episode.start), date } },
      h(
        "div",
        { class: "show-ep-head" },
        h("time", { class: "show-ep-when", datetime: new Date(episode.start).toISOString() }, whenText(episode, now)),
        episode.moved
          ? h("span", { class: "sched-badge sched-badge-moved", title: `Moved from ${longDate(date)}` }, "moved", h("span", { class: "visually-hidden" }, ` from ${longDate(date)}`))
          : null,
      ),
    );
    if (actions) li.append(episodeActions(episode, date, show, li, actions));
    return li;
  });
  if (!items.length) return h("p", { class: "hint show-none" }, "No episodes coming up.");
  return h("ol", { class: "show-eps" }, items);
}

function episodeActions(episode, date, show, li, actions) {
  const error = h("p", { class: "form-error show-ep-error", role: "alert" });
  const cancel = h("button", { class: "btn btn-ghost btn-small show-ep-cancel", type: "button" }, "Cancel episode");
  const move = h("button", { class: "btn btn-ghost btn-small show-ep-move", type: "button", "aria-expanded": "false" }, "Move…");
  const restore = episode.moved ? h("button", { class: "btn btn-ghost btn-small show-ep-restore", type: "button" }, "Put back") : null;
  const row = h("div", { class: "show-ep-actions" }, cancel, move, restore);
  const box = h("div", { class: "show-ep-tools" }, row, error);
  let form = null;

  cancel.addEventListener("click", async () => {
    setText(error, "");
    cancel.setAttribute("aria-busy", "true");
    cancel.disabled = true;
    try {
      await actions.cancel(episode, date);
    } catch (err) {
      setText(error, err.message || "Couldn't cancel the episode.");
      cancel.disabled = false;
      cancel.removeAttribute("aria-busy");
      cancel.focus();
    }
  });
  if (restore) {
    restore.addEventListener("click", async () => {
      setText(error, "");
      restore.disabled = true;
      try {
        await actions.restore(date);
      } catch (err) {
        setText(error, err.message || "Couldn't put the episode back.");
        restore.disabled = false;
      }
    });
  }
  move.addEventListener("click", () => {
    if (form) {
      closeForm();
      return;
    }
    form = moveForm(episode, date, show, actions, closeForm);
    box.append(form.el);
    move.setAttribute("aria-expanded", "true");
    form.start.focus();
  });
  function closeForm() {
    if (!form) return;
    form.el.remove();
    form = null;
    move.setAttribute("aria-expanded", "false");
    move.focus();
  }
  return box;
}

function moveForm(episode, date, show, actions, close) {
  const n = ++forms;
  const startID = `move-start-${n}`;
  const durationID = `move-duration-${n}`;
  const start = h("input", { id: startID, class: "input show-move-start", type: "datetime-local", required: true, value: dateTimeIn(episode.start, show.timeZone) });
  const duration = h("input", {
    id: durationID,
    class: "input show-move-duration",
    type: "number",
    inputmode: "numeric",
    min: "5",
    max: "720",
    step: "5",
    required: true,
    value: String(Math.round((episode.end - episode.start) / 60_000)),
  });
  const error = h("p", { class: "form-error show-move-error", role: "alert" });
  const save = h("button", { class: "btn btn-primary btn-small show-move-save", type: "submit" }, "Move episode");
  const el = h(
    "form",
    {
      class: "show-move-form",
      novalidate: true,
      "aria-label": `Move the episode of ${longDate(date)}`,
      onsubmit: async (event) => {
        event.preventDefault();
        setText(error, "");
        const value = (start.value || "").slice(0, 16);
        const minutes = Number(duration.value);
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) {
          setText(error, "Pick the day and time it moves to.");
          start.focus();
          return;
        }
        if (!Number.isInteger(minutes) || minutes < 5 || minutes > 720) {
          setText(error, "An episode lasts from 5 to 720 minutes.");
          duration.focus();
          return;
        }
        save.disabled = true;
        try {
          await actions.move(episode, date, value, minutes);
        } catch (err) {
          setText(error, err.message || "Couldn't move the episode.");
          save.disabled = false;
        }
      },
      onkeydown: (event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          close();
        }
      },
    },
    h(
      "div",
      { class: "show-move-fields" },
      h("div", { class: "show-move-field" }, h("label", { class: "label", for: startID }, `New start (${zoneName(show.timeZone)} time)`), start),
      h("div", { class: "show-move-field" }, h("label", { class: "label", for: durationID }, "Minutes"), duration),
    ),
    error,
    h("div", { class: "show-move-actions" }, save, h("button", { class: "btn btn-ghost btn-small show-move-keep", type: "button", onclick: close }, "Keep it")),
  );
  return { el, start, duration };
}

/** Cancelled episodes still to come, each with "Restore" (DJs only). */
export function cancelledList(page, restore) {
  const { show } = page;
  const today = dateIn(Date.now(), show.timeZone);
  const dates = (show.cancelled || []).filter((d) => d >= today).sort();
  if (!dates.length) return null;
  return h(
    "div",
    { class: "show-cancelled" },
    h("h3", { class: "show-sub-title" }, "Cancelled"),
    h(
      "ul",
      { class: "show-cancelled-list" },
      dates.map((date) => {
        const error = h("p", { class: "form-error", role: "alert" });
        const button = h("button", { class: "btn btn-ghost btn-small show-restore", type: "button", dataset: { date } }, "Restore");
        button.addEventListener("click", async () => {
          button.disabled = true;
          setText(error, "");
          try {
            await restore(date);
          } catch (err) {
            setText(error, err.message || "Couldn't restore it.");
            button.disabled = false;
          }
        });
        return h("li", { class: "show-cancelled-row", dataset: { date } }, h("span", { class: "show-cancelled-date" }, longDate(date)), button, error);
      }),
    ),
  );
}

/** The last episodes aired, newest first, each with its playlist. */
export function pastList(page) {
  const now = Date.now();
  const past = page.past || [];
  if (!past.length) return h("p", { class: "hint show-none" }, "No episodes have aired yet.");
  return h(
    "ol",
    { class: "show-past" },
    past.map(({ episode, plays, audience, csvURL, m3uURL }) =>
      h(
        "li",
        { class: "show-past-ep", dataset: { start: String(episode.start) } },
        h("h3", { class: "show-past-when" }, whenText(episode, now)),
        audience && audience.peak > 0
          ? h("p", { class: "hint show-past-audience" }, `Peak ${audience.peak} listening · ${Math.round(audience.listenerMinutes)} listener-minutes`)
          : null,
        csvURL
          ? h(
              "p",
              { class: "show-past-export" },
              h("a", { href: csvURL, download: "" }, "Playlist as CSV"),
              " · ",
              h("a", { href: m3uURL, download: "" }, "M3U"),
            )
          : null,
        plays && plays.length
          ? h("ol", { class: "log-list show-playlist", "aria-label": `Played on ${whenText(episode, now)}` }, plays.map((entry) => playRow(entry, now)))
          : h("p", { class: "hint show-none" }, "Nothing played during this episode."),
      ),
    ),
  );
}
