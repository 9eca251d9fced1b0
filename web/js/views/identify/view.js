// "What's this song?"'s DOM (panel.js's panel, drawn here): the heading,
// the button and its hint, the countdown dial with Cancel, and the polite
// result region; and the cards it shows: the song found (art, title,
// artist and album, "about 1:23 in"), "Not in this library", or a problem
// (with "Sign in" when that is the way on). Tags go in as text; the words
// are model.js's.

import { authHref } from "../../router.js";
import { h, fill, setText, icon, artwork } from "../../ui/dom.js";
import { CLIP_MS, foundWords, isBusyState, listenedShare, secondsLeft } from "./model.js";

/** The panel, idle. `place` ("station", "history") styles it; `n` makes its ids. */
export function buildIdentifyView(place, n) {
  const headingID = `identify-heading-${n}`;
  const hintID = `identify-hint-${n}`;
  // On the station screen the button says it all; on the history screen the
  // panel has a visible heading like the others there.
  const heading = h("h2", { class: place === "history" ? "section-title" : "visually-hidden", id: headingID }, place === "history" ? "Heard a song somewhere else?" : "What's this song?");
  const go = h("button", { class: "btn btn-secondary identify-go", type: "button", "aria-describedby": hintID }, icon("ear", { size: 22 }), h("span", {}, "What's this song?"));
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
  return { el, go, hint, countEl, dial, line, cancel, listen, result };
}

/** Shows `state`: the countdown while busy, the button otherwise. */
export function showIdentifyState(view, state) {
  view.el.dataset.state = state;
  const busy = isBusyState(state);
  view.listen.hidden = !busy;
  view.go.hidden = busy;
  view.hint.hidden = busy;
  view.el.classList.toggle("is-busy", busy);
}

/** The dial after `elapsed` ms of listening. */
export function showCountdown(view, elapsed) {
  setText(view.countEl, String(secondsLeft(elapsed, CLIP_MS)));
  view.dial.style.setProperty("--p", listenedShare(elapsed, CLIP_MS).toFixed(3));
}

/** Says `children` in the result region. */
export function say(view, ...children) {
  fill(view.result, ...children);
}

/** Why it couldn't ({code, title, text} from model.js). */
export function showProblemCard(view, problem) {
  showIdentifyState(view, "problem");
  view.el.dataset.problem = problem.code;
  say(
    view,
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

/** The song found. */
export function showFoundCard(view, answer) {
  const { track } = answer;
  const words = foundWords(answer);
  showIdentifyState(view, "found");
  say(
    view,
    h(
      "div",
      { class: "identify-card", dataset: { trackId: String(track.id || ""), offsetMs: answer.offsetMs === null ? "" : String(answer.offsetMs) } },
      artwork(track, { size: "md", alt: words.alt }),
      h(
        "div",
        { class: "identify-card-text" },
        h("p", { class: "identify-found-label" }, "That's"),
        h("h3", { class: "identify-title" }, words.title),
        words.by ? h("p", { class: "identify-artist" }, words.by) : null,
        words.where ? h("p", { class: "identify-offset" }, words.where) : null,
      ),
    ),
  );
}

/** No song in this library matched. */
export function showNoneCard(view) {
  showIdentifyState(view, "none");
  say(
    view,
    h(
      "div",
      { class: "identify-none" },
      h("p", { class: "identify-none-title" }, "Not in this library"),
      h("p", { class: "identify-none-text" }, "Wavelength only knows the songs on this server. If it is one of them, try nearer the speaker."),
    ),
  );
}

/** Puts focus back on the button when it was on something now hidden. */
export function refocus(view) {
  const active = document.activeElement;
  if (!active || active === document.body || active === view.cancel || !view.el.contains(active) || active.closest("[hidden]")) {
    if (view.el.isConnected && !view.go.hidden) view.go.focus({ preventScroll: true });
  }
}
