// "Go live from your broadcast software" on the account screen: whether you
// have a stream key and when it was made, making one (or replacing it, asked
// first in the page), and right after making it the key itself, shown this
// once, with the whole icecast:// address for your station and the separate
// fields BUTT and Mixxx ask for, each with a copy button; and removing it.
// The key belongs to the person, not a station: the same key goes live on
// your own station any time and on another station during a show you host,
// which is why it lives on the account screen. The station's booth links
// here (#/account?go=live).

//
// This file holds the controller (loading, make, replace, remove, the busy
// state); the DOM is key-card-view.js and the decisions model.js.

import { fill, setText } from "../../ui/dom.js";
import { liveApi } from "../../api/live.js";
import { confirmDialog } from "../settings/widgets.js";
import { infoAfterMaking, keyCardLook } from "./model.js";
import { buildKeyCardView, cardButton as button, showFreshKey, showSourceSettings } from "./key-card-view.js";

let cards = 0;

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

  const view = buildKeyCardView(headingID);
  const { el, statusLine, actions, alert } = view;

  function render() {
    const info = state.info;
    if (!info) return;
    const look = keyCardLook(info, state.fresh);
    el.dataset.state = look.state;
    setText(statusLine, look.status);
    // The key, this once.
    showFreshKey(view, state.fresh, stationID);
    showSourceSettings(view, {
      off: look.off,
      hasKey: look.hasKey,
      sourceURL: state.fresh ? state.fresh.sourceURL : info.sourceURL,
      stationID,
      key: state.fresh && state.fresh.key,
    });
    // The buttons.
    if (look.off) {
      fill(actions);
      return;
    }
    fill(
      actions,
      look.hasKey
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
        state.info = infoAfterMaking(state.info, answer);
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
