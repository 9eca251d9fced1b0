// "Subscribe" / "Add to calendar": a calendar feed (.ics) as a webcal://
// link, which calendar apps subscribe to and keep up to date, and the same
// address as a plain download for those that only import a file.
//
// A private station's feed needs a session, which calendar apps can't send.
// There the server says where to ask (`linkURL`) for a link of the
// listener's own: the feed with a token, which stops working when it is
// revoked or when they lose access to the station.

import { scheduleApi } from "../../api/schedule.js";
import { h, icon } from "../../ui/dom.js";
import { copy } from "../../ui/share.js";
import { toast } from "../../ui/toast.js";
import { downloadURL, webcalURL, withToken } from "./model.js";

/**
 * @param {string} path the feed's address on this server ("/api/stations/…/schedule.ics")
 * @param {{label: string, hint: string, idPrefix: string, linkURL?: string|null}} words
 */
export function calendarLinks(path, { label, hint, idPrefix, linkURL = null }) {
  const hintID = `${idPrefix}-hint`;
  const download = h(
    "a",
    { class: "btn btn-ghost btn-small cal-download", href: downloadURL(path), download: "", "aria-describedby": hintID },
    "Download .ics",
  );
  if (!linkURL) {
    return h(
      "div",
      { class: "cal-links", dataset: { calendar: path } },
      h(
        "a",
        { class: "btn btn-secondary btn-small cal-subscribe", href: webcalURL(path), "aria-describedby": hintID },
        calendarIcon(),
        label,
      ),
      download,
      h("p", { class: "hint cal-hint", id: hintID }, hint),
    );
  }
  return privateLinks(path, linkURL, { label, hint, hintID, idPrefix, download });
}

/** The private station's version: ask for your own link first. */
function privateLinks(path, linkURL, { label, hint, hintID, idPrefix, download }) {
  const mine = h("div", { class: "cal-mine", hidden: true });
  const ask = h(
    "button",
    { class: "btn btn-secondary btn-small cal-get", type: "button", "aria-describedby": hintID },
    calendarIcon(),
    "Get my calendar link",
  );
  const el = h(
    "div",
    { class: "cal-links", dataset: { calendar: path, private: "true" } },
    ask,
    download,
    h(
      "p",
      { class: "hint cal-hint", id: hintID },
      `${hint} This station is private, so your calendar gets a link of your own: it stops working if you lose access, or when you stop it.`,
    ),
    mine,
  );
  ask.addEventListener("click", async () => {
    ask.disabled = true;
    try {
      const link = await scheduleApi.calendarLink(linkURL);
      showMine(mine, withToken(path, link.token), { label, idPrefix, linkURL, ask });
    } catch (error) {
      toast(error.message || "Couldn't make a calendar link.", { kind: "error" });
    } finally {
      ask.disabled = false;
    }
  });
  return el;
}

/** Your link, to subscribe to or copy, and the way to stop every one of them. */
function showMine(mine, feed, { label, idPrefix, linkURL, ask }) {
  const inputID = `${idPrefix}-mine`;
  const address = h("input", {
    id: inputID,
    class: "input input-mono cal-mine-url",
    type: "url",
    readonly: true,
    value: downloadURL(feed),
    spellcheck: "false",
  });
  const subscribe = h("a", { class: "btn btn-secondary btn-small cal-subscribe", href: webcalURL(feed) }, calendarIcon(), label);
  const stop = h("button", { class: "btn btn-ghost btn-small cal-stop", type: "button" }, "Stop my calendar links");
  stop.addEventListener("click", async () => {
    stop.disabled = true;
    try {
      await scheduleApi.stopCalendarLinks(linkURL);
      toast("Your calendar links for this station have stopped working.");
    } catch (error) {
      // None left to stop is what was asked for.
      if (error.status !== 404) {
        stop.disabled = false;
        toast(error.message || "Couldn't stop your calendar links.", { kind: "error" });
        return;
      }
    }
    mine.hidden = true;
    mine.replaceChildren();
    ask.focus();
  });
  mine.replaceChildren(
    h("label", { class: "cal-mine-label", for: inputID }, "Your calendar link"),
    address,
    h(
      "div",
      { class: "cal-mine-actions" },
      subscribe,
      h("button", { class: "btn btn-ghost btn-small cal-copy", type: "button", onclick: () => copy(address.value, { select: address }) }, "Copy"),
      stop,
    ),
  );
  mine.hidden = false;
  subscribe.focus();
}

/** A small calendar page. */
export function calendarIcon(size = 18) {
  return icon("calendar", { size });
}
