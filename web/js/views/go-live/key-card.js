// "Go live from your broadcast software" on the account screen: whether you
// have a stream key and when it was made, making one (or replacing it, asked
// first in the page), and right after making it the key itself, shown this
// once, with the whole icecast:// address for your station and the separate
// fields BUTT and Mixxx ask for, each with a copy button; and removing it.
// The key belongs to the person, not a station: the same key goes live on
// your own station any time and on another station during a show you host,
// which is why it lives on the account screen. The station's booth links
// here (#/account?go=live).

import { h, fill, setText, icon } from "../../ui/dom.js";
import { copy } from "../../ui/share.js";
import { liveApi } from "../../api/live.js";
import { confirmDialog } from "../settings/widgets.js";
import { fullSourceURL, madeText, sourceFields } from "./model.js";

let cards = 0;

/** A read-only value with its label and a copy button. */
function copyRow({ id, label, value, className = "", copied }) {
  const inputID = `golive-${id}`;
  const input = h("input", {
    id: inputID,
    class: `input input-mono golive-value ${className}`.trim(),
    type: "text",
    readonly: true,
    value,
    spellcheck: "false",
    autocomplete: "off",
    autocapitalize: "none",
  });
  return h(
    "div",
    { class: "golive-row", dataset: { field: id } },
    h("label", { class: "label golive-label", for: inputID }, label),
    h(
      "div",
      { class: "input-row golive-input-row" },
      input,
      h(
        "button",
        {
          class: "btn btn-small btn-secondary golive-copy",
          type: "button",
          "aria-label": `Copy the ${label.toLowerCase()}`,
          onclick: () => copy(value, { select: input, done: copied || `${label} copied` }),
        },
        "Copy",
      ),
    ),
  );
}

/**
 * The card for `person` (a signed-in user). `alive()` says whether the
 * account screen is still shown (answers that come later are dropped).
 */
export function goLiveCard(person, { alive: screenAlive = () => true } = {}) {
  // Answers for a card the account screen has since redrawn are dropped.
  const alive = () => screenAlive() && el.isConnected;
  const stationID = person.stationID || null;
  const cardID = ++cards;
  const headingID = `golive-heading-${cardID}`;
  const state = { info: null, fresh: null, busy: false };

  const statusLine = h("p", { class: "golive-status", role: "status" }, "Looking for your stream key…");
  const fresh = h("div", { class: "golive-fresh", hidden: true });
  const settings = h("div", { class: "golive-settings", hidden: true });
  const actions = h("div", { class: "golive-actions" });
  const alert = h("p", { class: "form-error golive-error", role: "alert" });
  const el = h(
    "section",
    { class: "card account-card golive-card", id: "go-live", "aria-labelledby": headingID, dataset: { state: "loading" } },
    h("h2", { class: "section-title golive-title", id: headingID, tabindex: "-1" }, icon("radio", { size: 20 }), "Go live from your broadcast software"),
    h(
      "p",
      { class: "golive-lead" },
      "Broadcast a show from BUTT, Mixxx or any Icecast-ready software: it sends MP3 to this server with your stream key as its password, and everyone tuned in hears you live.",
    ),
    h("p", { class: "golive-lead golive-scope" }, "The key works on your own station any time, and on another station while a show you host is on."),
    statusLine,
    fresh,
    settings,
    actions,
    alert,
  );

  function button(label, className, onclick) {
    return h("button", { class: `btn btn-small ${className}`, type: "button", onclick }, label);
  }

  function render() {
    const info = state.info;
    if (!info) return;
    const hasKey = Number.isFinite(info.createdAt);
    const off = !info.sourceURL;
    el.dataset.state = off ? "off" : state.fresh ? "fresh" : hasKey ? "key" : "none";
    if (off) {
      setText(statusLine, "Going live is turned off on this server: it takes no broadcast software.");
    } else if (hasKey) {
      setText(statusLine, `You have a stream key, made ${madeText(info.createdAt)}.`);
    } else {
      setText(statusLine, "You have no stream key yet.");
    }

    // The key, this once.
    fresh.hidden = !state.fresh;
    if (state.fresh) {
      const url = fullSourceURL(state.fresh.sourceURL, stationID, state.fresh.key);
      fill(
        fresh,
        h(
          "div",
          { class: "notice notice-warn golive-once" },
          h("p", { class: "golive-once-title" }, h("strong", {}, "Copy your key now: it is shown only this once.")),
          h("p", { class: "golive-once-sub" }, "Paste it into your broadcast software. If it gets lost, replace it with a new one."),
        ),
        copyRow({ id: "key", label: "Stream key", value: state.fresh.key, className: "golive-key", copied: "Stream key copied" }),
        copyRow({ id: "url", label: "Source address", value: url, className: "golive-url", copied: "Source address copied" }),
        h("p", { class: "field-hint golive-url-hint" }, "ffmpeg and some apps take the whole address; BUTT and Mixxx ask for the parts below."),
      );
    } else {
      fill(fresh);
    }

    // What BUTT and Mixxx ask for (the password only while it is known).
    const fields = off ? null : sourceFields(state.fresh ? state.fresh.sourceURL : info.sourceURL, stationID, state.fresh && state.fresh.key);
    settings.hidden = !fields;
    if (fields) {
      fill(
        settings,
        h("h3", { class: "golive-subtitle" }, "In BUTT or Mixxx"),
        h("p", { class: "golive-hint" }, "Add an Icecast server with these settings, and send MP3 (128 kbps is plenty)."),
        h(
          "div",
          { class: "golive-grid" },
          fields.map((f) =>
            f.value !== null
              ? copyRow({ id: f.id, label: f.label, value: f.value })
              : h(
                  "div",
                  { class: "golive-row golive-row-secret", dataset: { field: f.id } },
                  h("p", { class: "label golive-label" }, f.label),
                  h("p", { class: "golive-secret" }, hasKey ? "Your stream key. It is shown only when it is made: replace it to see a new one." : "Your stream key, once you make one."),
                ),
          ),
        ),
        stationID ? null : h("p", { class: "field-hint" }, "On a station whose show you host, the mount is /live/ and that station's id."),
      );
    } else {
      fill(settings);
    }

    // The buttons.
    if (off) {
      fill(actions);
      return;
    }
    fill(
      actions,
      hasKey
        ? [
            button("Replace key", "btn-secondary golive-replace", () => replace()),
            button("Remove key", "btn-ghost golive-remove", () => remove()),
            state.fresh ? button("I've saved it", "btn-ghost golive-done", () => done()) : null,
          ]
        : button("Make a stream key", "btn-primary golive-make", () => make()),
    );
    for (const b of actions.querySelectorAll("button")) b.disabled = state.busy;
  }

  function problem(error) {
    setText(alert, error && error.message ? error.message : "Something went wrong.");
  }

  async function load() {
    try {
      const info = await liveApi.streamKey();
      if (!alive()) return;
      state.info = info || {};
      setText(alert, "");
      render();
    } catch (error) {
      if (!alive()) return;
      el.dataset.state = "error";
      setText(statusLine, "Couldn't find out whether you have a stream key.");
      fill(actions, button("Try again", "btn-secondary golive-retry", () => load()));
      problem(error);
    }
  }

  /** Runs `work` with the buttons disabled; `after` once the card shows its outcome. */
  async function busy(work, after = null) {
    if (state.busy) return;
    state.busy = true;
    setText(alert, "");
    for (const b of actions.querySelectorAll("button")) b.disabled = true;
    el.setAttribute("aria-busy", "true");
    let ok = false;
    try {
      await work();
      ok = true;
    } catch (error) {
      if (alive()) problem(error);
    } finally {
      state.busy = false;
      el.removeAttribute("aria-busy");
      if (alive()) render();
    }
    if (ok && after && alive()) after();
  }

  function make() {
    return busy(
      async () => {
        const answer = await liveApi.newStreamKey();
        state.fresh = { key: answer.key, sourceURL: answer.sourceURL || null };
        // Afterwards the card reads as the GET answer would: KEY in place of the key.
        state.info = { ...state.info, createdAt: answer.createdAt, sourceURL: answer.sourceURL ? answer.sourceURL.replace(`:${answer.key}@`, ":KEY@") : null };
      },
      () => {
        const key = el.querySelector(".golive-key");
        if (key) {
          key.focus();
          key.select();
        }
      },
    );
  }

  async function replace() {
    const sure = await confirmDialog({
      title: "Replace your stream key?",
      body: "Broadcast software can't go live with the old key any more (a show already live with it carries on until it disconnects). The new key is shown once: have your software open to paste it in.",
      confirmLabel: "Replace key",
    });
    if (sure && alive()) await make();
  }

  async function remove() {
    const sure = await confirmDialog({
      title: "Remove your stream key?",
      body: "Broadcast software can't go live with it any more (a show already live with it carries on until it disconnects). You can make a new key whenever you like.",
      confirmLabel: "Remove key",
    });
    if (!sure || !alive()) return;
    await busy(
      async () => {
        await liveApi.removeStreamKey();
        state.fresh = null;
        state.info = { ...state.info, createdAt: undefined };
      },
      () => {
        const makeButton = el.querySelector(".golive-make");
        if (makeButton) makeButton.focus();
      },
    );
  }

  function done() {
    state.fresh = null;
    render();
    const replaceButton = el.querySelector(".golive-replace");
    if (replaceButton) replaceButton.focus();
  }

  load();
  return {
    el,
    /** Scrolls the card into view and puts focus on its title (#/account?go=live). */
    focus() {
      const title = el.querySelector(".golive-title");
      el.scrollIntoView({ block: "start" });
      if (title) title.focus({ preventScroll: true });
    },
  };
}
