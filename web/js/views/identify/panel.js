// "What's this song?": for a song heard in the room (a speaker, a live
// show), not the station's own timeline (now playing and the history answer
// that). Listens to the microphone for 10 s with a countdown and a Cancel,
// sends the clip to POST /api/identify and shows the song (art, title,
// artist, "about 1:23 in"), "Not in this library", or why it couldn't.
//
// The panel's `data-state` says where it is: idle, asking (for the
// microphone), listening, matching, found, none, problem. Results go to a
// polite live region; everything from tags goes in as text (ui/dom.js).

import { api } from "../../api/api.js";
import { session } from "../../api/session.js";
import { authHref } from "../../router.js";
import { h, fill, setText, icon, artwork } from "../../ui/dom.js";
import { CLIP_MS, answerProblem, listenedShare, micProblem, offsetText, readAnswer, secondsLeft } from "./model.js";
import { canRecord, recordClip } from "./recorder.js";

let count = 0;

/** → {el, destroy}. `place` names where it sits ("station", "history") for styling. */
export function createIdentify({ place = "station" } = {}) {
  count += 1;
  const headingID = `identify-heading-${count}`;
  const hintID = `identify-hint-${count}`;
  // On the station screen the button says it all; on the history screen the
  // panel has a visible heading like the others there.
  const heading = h("h2", { class: place === "history" ? "section-title" : "visually-hidden", id: headingID }, place === "history" ? "Heard a song somewhere else?" : "What's this song?");
  const go = h(
    "button",
    { class: "btn btn-secondary identify-go", type: "button", "aria-describedby": hintID },
    icon("ear", { size: 22 }),
    h("span", {}, "What's this song?"),
  );
  const hint = h("p", { class: "identify-hint", id: hintID }, "Heard a song in the room? Wavelength listens for 10 seconds and looks in this library.");
  const countEl = h("span", { class: "identify-count" }, String(secondsLeft(0)));
  const dial = h("div", { class: "identify-dial", "aria-hidden": "true", style: { "--p": "0" } }, h("span", { class: "identify-dial-face" }, countEl, h("small", {}, "s")));
  const line = h("p", { class: "identify-line" }, "");
  const cancel = h("button", { class: "btn btn-ghost btn-small identify-cancel", type: "button" }, icon("close", { size: 18 }), "Cancel");
  const listen = h("div", { class: "identify-listen", hidden: true }, dial, h("div", { class: "identify-listen-text" }, line, cancel));
  const result = h("div", { class: "identify-result", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const el = h(
    "section",
    { class: `identify identify-in-${place}`, "aria-labelledby": headingID, dataset: { state: "idle" } },
    heading,
    h("div", { class: "identify-start" }, go, hint),
    listen,
    result,
  );

  let controller = null;
  let run = 0;
  let destroyed = false;

  function setState(state) {
    el.dataset.state = state;
    const busy = state === "asking" || state === "listening" || state === "matching";
    listen.hidden = !busy;
    go.hidden = busy;
    hint.hidden = busy;
    el.classList.toggle("is-busy", busy);
  }

  function say(...children) {
    fill(result, ...children);
  }

  function showCountdown(elapsed) {
    setText(countEl, String(secondsLeft(elapsed, CLIP_MS)));
    dial.style.setProperty("--p", listenedShare(elapsed, CLIP_MS).toFixed(3));
  }

  function showProblem(problem) {
    setState("problem");
    el.dataset.problem = problem.code;
    say(
      h(
        "div",
        { class: "identify-problem", dataset: { code: problem.code } },
        h("p", { class: "identify-problem-title" }, problem.title),
        h("p", { class: "identify-problem-text" }, problem.text),
        problem.code === "sign_in"
          ? h("p", { class: "identify-problem-actions" }, h("a", { class: "btn btn-secondary btn-small", href: authHref("login") }, "Sign in"))
          : null,
      ),
    );
  }

  function showFound(answer) {
    const { track } = answer;
    setState("found");
    const where = offsetText(answer.offsetMs);
    const by = [track.artist, track.album].filter(Boolean).join(" · ");
    say(
      h(
        "div",
        {
          class: "identify-card",
          dataset: { trackId: String(track.id || ""), offsetMs: answer.offsetMs === null ? "" : String(answer.offsetMs) },
        },
        artwork(track, { size: "md", alt: track.album ? `Cover of ${track.album}` : "" }),
        h(
          "div",
          { class: "identify-card-text" },
          h("p", { class: "identify-found-label" }, "That's"),
          h("h3", { class: "identify-title" }, track.title || "Untitled"),
          by ? h("p", { class: "identify-artist" }, by) : null,
          where ? h("p", { class: "identify-offset" }, where) : null,
        ),
      ),
    );
  }

  function showNone() {
    setState("none");
    say(
      h(
        "div",
        { class: "identify-none" },
        h("p", { class: "identify-none-title" }, "Not in this library"),
        h("p", { class: "identify-none-text" }, "Wavelength only knows the songs on this server. If it is one of them, try nearer the speaker."),
      ),
    );
  }

  /** Puts focus back on the button when it was on something now hidden. */
  function refocus() {
    const active = document.activeElement;
    if (!active || active === document.body || active === cancel || !el.contains(active) || active.closest("[hidden]")) {
      if (el.isConnected && !go.hidden) go.focus({ preventScroll: true });
    }
  }

  async function start() {
    if (destroyed || controller) return;
    const mine = ++run;
    delete el.dataset.problem;
    const wasOnGo = document.activeElement === go;
    if (!session.loaded) await session.load();
    if (mine !== run || destroyed) return;
    if (!session.person) {
      showProblem(answerProblem({ status: 401 }));
      return;
    }
    if (!canRecord()) {
      showProblem(micProblem({ name: "NotSupportedError" }));
      return;
    }
    controller = new AbortController();
    const { signal } = controller;
    setState("asking");
    setText(line, "Asking for the microphone…");
    showCountdown(0);
    say("Asking to use the microphone.");
    if (wasOnGo) cancel.focus({ preventScroll: true });
    let clip;
    try {
      clip = await recordClip({
        ms: CLIP_MS,
        signal,
        onMic: () => {
          setState("listening");
          setText(line, "Listening… hold the phone near the music");
          say(`Listening for ${Math.round(CLIP_MS / 1000)} seconds.`);
        },
        onTick: (elapsed) => showCountdown(elapsed),
      });
    } catch (error) {
      if (mine !== run || destroyed) return;
      controller = null;
      if (error && error.name === "AbortError" && signal.aborted) {
        cancelled();
      } else {
        showProblem(micProblem(error));
        refocus();
      }
      return;
    }
    if (mine !== run || destroyed) return;
    showCountdown(CLIP_MS);
    setState("matching");
    setText(line, "Finding the song…");
    say("Finding the song.");
    try {
      const payload = await api.identify(clip, { signal });
      if (mine !== run || destroyed) return;
      const answer = readAnswer(payload);
      if (answer.state === "found") showFound(answer);
      else showNone();
    } catch (error) {
      if (mine !== run || destroyed) return;
      if (error && error.name === "AbortError") cancelled();
      else showProblem(answerProblem(error));
    } finally {
      if (mine === run) controller = null;
    }
    refocus();
  }

  function cancelled() {
    controller = null;
    setState("idle");
    say("Stopped listening.");
    refocus();
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
