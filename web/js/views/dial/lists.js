// The station list under the radio, in the server's sections (yours,
// friends on the air, friends quiet, whoever else is on the air), a card
// per station, and the notices beside the frequency form (an empty
// library, an unreachable station list).

import { h, fill, icon, listenersText } from "../../ui/dom.js";
import { session } from "../../api/session.js";
import { authHref, stationHref } from "../../router.js";
import { isOwn, stationLink } from "./state.js";

const SECTION_TITLES = {
  own: "Your station",
  codj: "Stations you co-DJ",
  "following-live": "Friends on the air",
  "following-quiet": "Friends, quiet",
  discover: "On the air now",
  quiet: "Off the air",
};
const SECTION_IDS = {
  own: "list-mine",
  codj: "list-codj",
  "following-live": "list-friends-live",
  "following-quiet": "list-friends-quiet",
  discover: "list-live",
  quiet: "list-quiet",
};
const VISIBILITY = {
  unlisted: { badge: "Unlisted", label: "unlisted" },
  code: { badge: "Code", label: "private, joined with an access code" },
  followers: { badge: "Followers", label: "for followers" },
  invite: { badge: "Invite only", label: "invite only" },
};

/** A non-public station's badge ("Code", "Followers", …), or null. */
export function visibilityBadge(station, extra = "") {
  const vis = VISIBILITY[station.visibility];
  return vis ? h("span", { class: `vis-badge vis-${station.visibility}${extra}` }, vis.badge) : null;
}

/** @param {(id: string) => void} onFocus selects the station whose card has focus */
function stationCard(station, onFocus) {
  const own = isOwn(station);
  const np = station.nowPlaying;
  const vis = VISIBILITY[station.visibility];
  const href = stationLink(station);
  const joins = href !== stationHref(station.id);
  const ownerLine = own ? (station.role === "codj" ? `Co-DJ · by ${station.owner}` : "Your station · DJ booth") : `by ${station.owner}`;
  const label = [
    station.frequency ? `${station.frequency} FM, ${station.name}` : `${station.name}, no frequency`,
    own ? (station.role === "codj" ? "you co-DJ" : "your station") : `by ${station.owner}`,
    vis ? vis.label : null,
    joins ? "join with an access code" : null,
    station.onAir ? "on air" : null,
    np ? `playing ${np.title} by ${np.artist}` : null,
    listenersText(station.listeners),
  ].filter(Boolean).join(", ");
  return h(
    "li",
    {},
    h(
      "a",
      {
        class: `station-card${station.onAir ? " is-live" : ""}${own ? " is-own" : ""}${station.frequency ? "" : " no-frequency"}`,
        href,
        dataset: { stationId: station.id, frequency: station.frequency || "", visibility: station.visibility || "public" },
        "aria-label": label,
        onfocus: () => onFocus(station.id),
      },
      h("span", { class: "card-freq" }, station.frequency || "—"),
      h(
        "span",
        { class: "card-body" },
        h("span", { class: "card-name" }, station.name),
        h("span", { class: "card-owner" }, ownerLine),
        h("span", { class: `card-now${np ? "" : " is-quiet"}` }, np ? `${np.title} — ${np.artist}` : station.onAir ? "Between songs" : "Quiet"),
      ),
      h(
        "span",
        { class: "card-side" },
        station.onAir ? h("span", { class: "onair-lamp small" }, "On air") : null,
        visibilityBadge(station, " small"),
        h("span", { class: "card-listeners" }, icon("ear", { size: 16 }), String(station.listeners)),
      ),
    ),
  );
}

// What each list element shows now: the refresh every few seconds redraws
// only when something changed, so a tap landing mid-redraw or a screen
// reader's place in the list isn't thrown away for nothing.
const drawn = new WeakMap();

/**
 * Redraws the sections into `lists` when they changed, keeping focus on the
 * card that had it.
 * @param {HTMLElement} lists
 * @param {{sections: object[], all: object[]}} state
 * @param {(id: string) => void} onFocus
 */
export function renderLists(lists, state, onFocus) {
  const shown = JSON.stringify([state.sections, state.all.length, session.isUser]);
  if (drawn.get(lists) === shown) return;
  drawn.set(lists, shown);
  const focusedID = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.stationId : null;
  fill(
    lists,
    state.sections.map((section) => {
      const id = SECTION_IDS[section.kind] || `list-${section.kind}`;
      const title = section.kind === "own" && section.stations.length > 1 ? "Your stations" : SECTION_TITLES[section.kind] || "More stations";
      return h(
        "section",
        { class: `station-section section-${section.kind}`, "aria-labelledby": id, dataset: { kind: section.kind } },
        h("h2", { id, class: "section-title" }, section.kind === "following-live" ? h("span", { class: "section-lamp", "aria-hidden": "true" }) : null, title),
        h("ul", { class: "station-list" }, section.stations.map((station) => stationCard(station, onFocus))),
      );
    }),
    state.all.length
      ? null
      : h(
          "p",
          { class: "empty" },
          session.isUser ? "Nothing on the air right now. Start a party below, or find friends in " : "Nothing on the air right now. ",
          session.isUser ? h("a", { href: "#/people" }, "People") : h("a", { href: authHref("signup", "/") }, "Sign up and be the first"),
          ".",
        ),
  );
  if (focusedID) {
    const again = lists.querySelector(`[data-station-id="${CSS.escape(focusedID)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

/**
 * The empty-library warning and the load error (with a retry), each when it applies.
 * @param {HTMLElement} notices
 * @param {{libraryEmpty: boolean}} state
 * @param {Error|null} error
 * @param {() => void} onRetry
 */
export function renderNotices(notices, state, error, onRetry) {
  fill(
    notices,
    state.libraryEmpty
      ? h(
          "div",
          { class: "notice notice-warn", role: "status" },
          h("strong", {}, "The library is empty."),
          " Start the server with ",
          h("code", {}, "--library /path/to/music"),
          " to put music on the air.",
        )
      : null,
    error
      ? h(
          "div",
          { class: "notice notice-error", role: "alert" },
          h("strong", {}, "Can't reach the station list. "),
          error.message,
          " ",
          h("button", { class: "btn btn-small", type: "button", onclick: () => onRetry() }, "Try again"),
        )
      : null,
  );
}
