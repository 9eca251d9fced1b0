// "What was playing then?": a date-and-time picker (seconds allowed: a
// song can be short) and the answer, the play that was on the air at that
// instant or a plain "Nothing was playing then". The answer sits in a
// polite live region, so a screen reader hears it without moving focus.

import { request } from "../../api/api.js";
import { h, fill, artwork } from "../../ui/dom.js";
import { dateTimeValue, historyURL, isDateTimeValue, playListenersText, playedAtText, timeZone } from "./model.js";

export function createFinder(stationID) {
  const now = new Date();
  const input = h("input", {
    id: "history-at",
    class: "input log-at",
    type: "datetime-local",
    step: "1",
    value: dateTimeValue(now),
    max: `${dateTimeValue(new Date(now.getTime() + 86_400_000))}`,
    required: true,
  });
  const button = h("button", { class: "btn btn-primary log-at-go", type: "submit" }, "What was playing then?");
  const answer = h("div", { class: "log-answer", role: "status", "aria-live": "polite" });
  let asked = 0;

  async function ask(event) {
    event.preventDefault();
    const value = input.value;
    if (!isDateTimeValue(value)) {
      show(h("p", { class: "log-answer-none" }, "Pick a day and a time first."));
      return;
    }
    const when = new Date(value).getTime();
    if (when > Date.now() + 1000) {
      show(h("p", { class: "log-answer-none" }, "That hasn't happened yet. Pick a moment in the past."));
      return;
    }
    const token = ++asked;
    button.disabled = true;
    answer.dataset.state = "loading";
    try {
      const plays = await request(historyURL(stationID, { at: value, tz: timeZone() }));
      if (token !== asked) return;
      const play = plays && plays[0];
      show(play ? answerCard(play) : nothing(when), play ? "found" : "none");
    } catch (error) {
      if (token !== asked) return;
      show(h("p", { class: "log-answer-none" }, error.message || "Couldn't look that up."), "error");
    } finally {
      if (token === asked) button.disabled = false;
    }
  }

  function show(node, state = "none") {
    fill(answer, node);
    answer.dataset.state = state;
  }

  const el = h(
    "section",
    { class: "panel log-finder", "aria-labelledby": "log-finder-heading" },
    h("h2", { id: "log-finder-heading", class: "section-title" }, "What was on at…"),
    h(
      "form",
      { class: "log-finder-form", onsubmit: ask },
      h("label", { class: "label", for: "history-at" }, "Day and time (your time)"),
      h("div", { class: "log-finder-row" }, input, button),
    ),
    answer,
  );
  return { el, input, answer };
}

function answerCard(play) {
  const { track } = play;
  const listeners = playListenersText(play.listeners);
  const now = Date.now();
  return h(
    "div",
    { class: "log-answer-card", dataset: { entryId: play.id } },
    artwork(track, { size: "md", alt: "" }),
    h(
      "div",
      { class: "log-answer-text" },
      h("p", { class: "log-answer-label" }, "It was"),
      h("p", { class: "log-answer-title" }, track.title),
      h("p", { class: "log-answer-artist" }, [track.artist, track.album].filter(Boolean).join(" · ")),
      h(
        "p",
        { class: "log-answer-when" },
        // To the second: the question was, and a song can be short.
        `From ${playedAtText(play.start, now, undefined, { seconds: true })} to ${playedAtText(play.expiration, now, undefined, { seconds: true })}`,
        listeners ? ` · ${listeners}` : "",
      ),
    ),
  );
}

function nothing(when) {
  return h(
    "div",
    { class: "log-answer-empty" },
    h("p", { class: "log-answer-none" }, "Nothing was playing then."),
    h("p", { class: "hint" }, `The station was quiet at ${playedAtText(when, Date.now(), undefined, { seconds: true })}: nobody was listening, or it was between songs. Try a little earlier or later.`),
  );
}
