// "What's this song?": for a song heard in the room (a speaker, a live
// show), not the station's own timeline (now playing and the history answer
// that). Listens to the microphone for 10 s with a countdown and a Cancel,
// sends the clip to POST /api/identify and shows the song (art, title,
// artist, "about 1:23 in"), "Not in this library", or why it couldn't.
//
// The panel's `data-state` says where it is: idle, asking (for the
// microphone), listening, matching, found, none, problem. Results go to a
// polite live region; everything from tags goes in as text (ui/dom.js).

//
// This file holds the controller (the microphone, the request, Cancel);
// the DOM is view.js and the words model.js.

import { api } from "../../api/api.js";
import { session } from "../../api/session.js";
import { setText } from "../../ui/dom.js";
import { CLIP_MS, answerProblem, micProblem, readAnswer } from "./model.js";
import { canRecord, recordClip } from "./recorder.js";
import { buildIdentifyView, refocus, say, showCountdown, showFoundCard, showIdentifyState, showNoneCard, showProblemCard } from "./view.js";

let count = 0;

/** → {el, destroy}. `place` names where it sits ("station", "history") for styling. */
export function createIdentify({ place = "station" } = {}) {
  count += 1;
  const view = buildIdentifyView(place, count);
  const { el, go, line, cancel } = view;
  let controller = null;
  let run = 0;
  let destroyed = false;

  async function start() {
    if (destroyed || controller) return;
    const mine = ++run;
    delete el.dataset.problem;
    const wasOnGo = document.activeElement === go;
    if (!session.loaded) await session.load();
    if (mine !== run || destroyed) return;
    if (!session.person) {
      showProblemCard(view, answerProblem({ status: 401 }));
      return;
    }
    if (!canRecord()) {
      showProblemCard(view, micProblem({ name: "NotSupportedError" }));
      return;
    }
    controller = new AbortController();
    const { signal } = controller;
    showIdentifyState(view, "asking");
    setText(line, "Asking for the microphone…");
    showCountdown(view, 0);
    say(view, "Asking to use the microphone.");
    if (wasOnGo) cancel.focus({ preventScroll: true });
    let clip;
    try {
      clip = await recordClip({
        ms: CLIP_MS,
        signal,
        onMic: () => {
          showIdentifyState(view, "listening");
          setText(line, "Listening… hold the phone near the music");
          say(view, `Listening for ${Math.round(CLIP_MS / 1000)} seconds.`);
        },
        onTick: (elapsed) => showCountdown(view, elapsed),
      });
    } catch (error) {
      if (mine !== run || destroyed) return;
      controller = null;
      if (error && error.name === "AbortError" && signal.aborted) {
        cancelled();
      } else {
        showProblemCard(view, micProblem(error));
        refocus(view);
      }
      return;
    }
    if (mine !== run || destroyed) return;
    showCountdown(view, CLIP_MS);
    showIdentifyState(view, "matching");
    setText(line, "Finding the song…");
    say(view, "Finding the song.");
    try {
      const payload = await api.identify(clip, { signal });
      if (mine !== run || destroyed) return;
      const answer = readAnswer(payload);
      if (answer.state === "found") showFoundCard(view, answer);
      else showNoneCard(view);
    } catch (error) {
      if (mine !== run || destroyed) return;
      if (error && error.name === "AbortError") cancelled();
      else showProblemCard(view, answerProblem(error));
    } finally {
      if (mine === run) controller = null;
    }
    refocus(view);
  }

  function cancelled() {
    controller = null;
    showIdentifyState(view, "idle");
    say(view, "Stopped listening.");
    refocus(view);
  }

  function stop() {
    if (!controller) return;
    const current = controller;
    run += 1;
    current.abort();
    cancelled();
  }

  go.addEventListener("click", () => start());
  cancel.addEventListener("click", () => stop());
  el.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && controller) {
      event.preventDefault();
      event.stopPropagation();
      stop();
    }
  });

  return {
    el,
    /** Stops listening (the microphone goes off) and forgets any answer in flight. */
    destroy() {
      destroyed = true;
      run += 1;
      if (controller) controller.abort();
      controller = null;
    },
  };
}
