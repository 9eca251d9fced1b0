// A week of the schedule: seven days, each a heading and its episodes as
// cards (phones read them as a day-by-day agenda; from 1024 px the same
// days stand side by side as a 7-column grid, styles-schedule.css). The
// episode on the air now and the next one are lit; moved episodes say so;
// every card opens its show's page. Names and hosts go in as text.

import { h } from "../../ui/dom.js";
import { stationHref } from "../../router.js";
import { dayText, episodeKey, episodeTimeText, relativeDayWord, sameEpisode } from "./model.js";

/** One episode as a card linking to its show. */
export function episodeCard(episode, { stationID, now, onNow = null, next = null, startedBefore = false }) {
  const live = sameEpisode(episode, onNow);
  const isNext = !live && sameEpisode(episode, next);
  const past = !live && episode.end <= now;
  const hosts = (episode.hosts || []).map((host) => host.displayName || host.handle).filter(Boolean);
  const classes = ["sched-ep"];
  if (live) classes.push("is-now");
  if (isNext) classes.push("is-next");
  if (past) classes.push("is-past");
  if (episode.moved) classes.push("is-moved");
  return h(
    "li",
    { class: classes.join(" "), dataset: { showId: episode.showID, start: String(episode.start), key: episodeKey(episode) } },
    h(
      "a",
      { class: "sched-ep-link", href: stationHref(stationID, "show", episode.showID) },
      h(
        "span",
        { class: "sched-ep-time" },
        startedBefore ? h("span", { class: "visually-hidden" }, "Started the day before, ") : null,
        h("time", { datetime: new Date(episode.start).toISOString() }, episodeTimeText(episode)),
      ),
      h("span", { class: "sched-ep-name" }, episode.name),
      episode.genre || hosts.length
        ? h("span", { class: "sched-ep-meta" }, [episode.genre, hosts.length ? `with ${hosts.join(", ")}` : null].filter(Boolean).join(" · "))
        : null,
      live || isNext || episode.moved
        ? h(
            "span",
            { class: "sched-badges" },
            live ? h("span", { class: "onair-lamp small sched-badge-now" }, "On now") : null,
            isNext ? h("span", { class: "sched-badge sched-badge-next" }, "Next") : null,
            episode.moved ? h("span", { class: "sched-badge sched-badge-moved" }, "moved") : null,
          )
        : null,
    ),
  );
}

/** The seven days (from model.daysWithEpisodes) as headed lists. */
export function weekDays(days, context) {
  const todayKey = days.find((d) => d.start <= context.now && context.now < d.end)?.key || null;
  return days.map((day, index) => {
    const rel = relativeDayWord(day.start, context.now);
    const headingID = `sched-day-${day.key}`;
    return h(
      "section",
      {
        class: `sched-day${day.key === todayKey ? " is-today" : ""}${day.end <= context.now ? " is-past" : ""}${day.episodes.length ? "" : " is-empty"}`,
        "aria-labelledby": headingID,
        dataset: { day: day.key, count: String(day.episodes.length) },
      },
      h(
        "h3",
        { class: "sched-day-title", id: headingID },
        h("span", { class: "sched-day-name" }, rel === "Today" ? "Today" : dayName(day.start)),
        h("span", { class: "sched-day-date" }, rel === "Today" ? dayText(day.start, context.now) : dayNumber(day.start)),
      ),
      day.episodes.length
        ? h(
            "ol",
            { class: "sched-eps" },
            day.episodes.map((episode) => episodeCard(episode, { ...context, startedBefore: index === 0 && episode.start < day.start })),
          )
        : h("p", { class: "sched-day-none" }, "Nothing scheduled"),
    );
  });
}

function dayName(ms) {
  return new Intl.DateTimeFormat(undefined, { weekday: "long" }).format(new Date(ms));
}

function dayNumber(ms) {
  return new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short" }).format(new Date(ms));
}
