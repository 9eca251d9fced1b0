// People: find friends as you type, follow them (their stations come first
// on your dial), and each person's profile with their station, followers
// and following. Everything a person typed goes in as text.

import { api } from "../api/api.js";
import { h, fill, setText, icon } from "../ui/dom.js";
import { session } from "../api/session.js";
import { authHref, buildHash, personHref, stationHref } from "../router.js";
import { toast } from "../ui/toast.js";

const SEARCH_DEBOUNCE_MS = 150;

/** The first letter of a name, for round avatars. */
export function initial(name) {
  const first = [...String(name || "?").trim()][0] || "?";
  return first.toLocaleUpperCase();
}

const TINTS = 6;
function tintOf(id) {
  let n = 0;
  for (const c of String(id || "")) n = (n * 31 + c.charCodeAt(0)) >>> 0;
  return n % TINTS;
}

/** A round initial in one of a few warm valve-glass tints. */
export function avatar(person, size = "md") {
  return h(
    "span",
    { class: `avatar avatar-${size} tint-${tintOf(person && person.id)}`, "aria-hidden": "true" },
    initial(person && person.displayName),
  );
}

function countText(n, one, many) {
  const value = Number(n) || 0;
  return `${value} ${value === 1 ? one : many}`;
}

export function countsText(profile) {
  if (!profile || profile.followers === undefined) return "";
  return `${countText(profile.followers, "follower", "followers")} · ${profile.following ?? 0} following`;
}

function isMe(person) {
  return Boolean(session.person && person && session.person.id === person.id);
}

/**
 * A Follow / Following toggle for a profile ({id, displayName, youFollow}).
 * onProfile(profile) gets the server's new ProfileView after each change.
 */
export function followButton(profile, { onProfile = () => {} } = {}) {
  let following = Boolean(profile.youFollow);
  let busy = false;
  const text = h("span", { class: "follow-text" });
  const button = h(
    "button",
    {
      class: "btn btn-follow",
      type: "button",
      dataset: { personId: profile.id },
      "aria-label": `Follow ${profile.displayName}`,
      onclick: () => toggle(),
    },
    icon("check", { size: 18 }),
    icon("plus", { size: 18 }),
    text,
  );
  function render() {
    button.setAttribute("aria-pressed", String(following));
    button.classList.toggle("is-on", following);
    setText(text, following ? "Following" : "Follow");
  }
  async function toggle() {
    if (busy) return;
    if (!session.isUser) {
      location.hash = authHref("login");
      return;
    }
    busy = true;
    button.setAttribute("aria-busy", "true");
    const want = !following;
    following = want; // Answer the tap at once; the server's reply settles it.
    render();
    try {
      const next = want ? await api.follow(profile.id) : await api.unfollow(profile.id);
      following = Boolean(next && next.youFollow);
      onProfile(next);
    } catch (error) {
      following = !want;
      toast(error.message, { kind: "error" });
    } finally {
      busy = false;
      button.removeAttribute("aria-busy");
      render();
    }
  }
  render();
  return button;
}

/**
 * One person in a list: avatar, name (to their profile), handle, counts and
 * the follow toggle. Counts and "you follow" come from their profile, loaded
 * here unless the list already had them.
 */
function personRow(person, { signal }) {
  const counts = h("span", { class: "friend-counts" });
  const action = h("span", { class: "friend-action" });
  const row = h(
    "li",
    { class: "friend-row", dataset: { personId: person.id } },
    avatar(person),
    h(
      "span",
      { class: "friend-text" },
      h("a", { class: "friend-name", href: personHref(person.id) }, person.displayName),
      person.handle ? h("span", { class: "friend-handle" }, `@${person.handle}`) : null,
      counts,
    ),
    action,
  );
  function renderProfile(profile) {
    setText(counts, countsText(profile));
    if (isMe(person)) {
      fill(action, h("span", { class: "you-badge" }, "You"));
    } else if (person.kind === "guest") {
      fill(action);
    } else if (session.isUser) {
      if (!action.querySelector(".btn-follow")) fill(action, followButton(profile, { onProfile: (p) => setText(counts, countsText(p)) }));
    } else {
      fill(action);
    }
  }
  if (person.followers !== undefined && person.youFollow !== undefined) {
    renderProfile(person);
  } else {
    if (isMe(person)) fill(action, h("span", { class: "you-badge" }, "You"));
    api
      .person(person.id, { signal })
      .then((profile) => renderProfile({ ...person, ...profile }))
      .catch((error) => {
        if (error.name !== "AbortError" && !isMe(person) && session.isUser) {
          renderProfile({ ...person, youFollow: false });
        }
      });
  }
  return row;
}

function peopleList(people, options) {
  return h("ul", { class: "friend-list" }, people.map((p) => personRow(p, options)));
}

function signInPrompt(text) {
  return h(
    "div",
    { class: "notice notice-invite" },
    h("p", { class: "notice-lead" }, text),
    h(
      "p",
      { class: "notice-actions" },
      h("a", { class: "btn btn-primary btn-small", href: authHref("login") }, "Sign in"),
      h("a", { class: "btn btn-secondary btn-small", href: authHref("signup") }, "Create an account"),
    ),
  );
}

// ---------------------------------------------------------------- #/people

export function createPeopleView(route) {
  let destroyed = false;
  let timer = null;
  let controller = null;
  let lastQuery = null;

  const input = h("input", {
    id: "people-search",
    class: "input input-search",
    type: "search",
    autocomplete: "off",
    autocapitalize: "none",
    spellcheck: "false",
    enterkeyhint: "search",
    placeholder: "Name or @handle",
    "aria-describedby": "people-status",
    "aria-controls": "people-results",
  });
  const status = h("p", { class: "lib-status", id: "people-status", role: "status", "aria-live": "polite" });
  const results = h("div", { class: "people-results", id: "people-results" });
  const invite = h("div", { class: "people-invite" });

  const el = h(
    "section",
    { class: "screen people-screen" },
    h("h1", { class: "screen-title", tabindex: "-1" }, "People"),
    h("p", { class: "muted lead" }, "Find your friends. Follow them and their stations come first on your dial."),
    invite,
    h(
      "form",
      { class: "people-search", role: "search", onsubmit: (e) => (e.preventDefault(), search(true)) },
      h("label", { class: "label", for: "people-search" }, "Find people"),
      h("div", { class: "search-field" }, icon("search", { size: 20 }), input),
    ),
    status,
    results,
  );

  function renderInvite() {
    fill(invite, session.isUser ? null : signInPrompt(session.isGuest ? "Guests can look around. Create an account to follow people." : "Sign in to follow people and see their stations first."));
  }

  async function showFollowing() {
    if (!session.isUser) {
      setText(status, "");
      fill(results);
      return;
    }
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    try {
      const list = await api.following(session.person.id, { signal });
      if (destroyed || signal.aborted) return;
      setText(status, list.length ? "" : "You don't follow anyone yet. Type a name above.");
      fill(
        results,
        list.length ? h("h2", { class: "section-title" }, "You follow") : null,
        list.length ? peopleList(list, { signal }) : null,
      );
    } catch (error) {
      if (error.name === "AbortError" || destroyed) return;
      setText(status, "");
      fill(results);
    }
  }

  async function search(now = false) {
    clearTimeout(timer);
    const query = input.value.trim().replace(/^@/, "");
    if (!now) {
      timer = setTimeout(() => search(true), SEARCH_DEBOUNCE_MS);
      return;
    }
    if (query === lastQuery) return;
    lastQuery = query;
    // Keep the search in the address, so Back returns to it.
    const q = new URLSearchParams();
    if (query) q.set("q", query);
    history.replaceState(history.state, "", buildHash(["people"], q));
    if (!query) {
      showFollowing();
      return;
    }
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    el.setAttribute("aria-busy", "true");
    setText(status, "Searching…");
    try {
      const people = await api.people(query, { signal });
      if (destroyed || signal.aborted) return;
      setText(status, people.length ? `${people.length === 1 ? "1 person" : `${people.length} people`} found` : `No one called “${query}” yet.`);
      fill(results, people.length ? peopleList(people, { signal }) : null);
    } catch (error) {
      if (error.name === "AbortError" || destroyed) return;
      setText(status, error.message);
      lastQuery = null;
    } finally {
      if (!signal.aborted) el.removeAttribute("aria-busy");
    }
  }

  input.addEventListener("input", () => search());
  const unsubscribe = session.onChange(() => {
    renderInvite();
    lastQuery = null;
    search(true);
  });

  input.value = route.query.get("q") || "";
  renderInvite();
  search(true);

  return {
    el,
    title: "People · Wavelength",
    focusTarget: () => input,
    update(next) {
      if (next.path[0] !== "people" || next.path.length !== 1) return false;
      const q = next.query.get("q") || "";
      if (q !== input.value.trim()) {
        input.value = q;
        search(true);
      }
      return true;
    },
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      controller?.abort();
      unsubscribe();
    },
  };
}

// ------------------------------------------------------- #/people/<id>

export function createProfileView(route) {
  const personID = route.path[1];
  let destroyed = false;
  let profile = null;
  let tab = route.query.get("list") === "following" ? "following" : "followers";
  const controller = new AbortController();
  let listController = null;

  const heading = h("h1", { class: "profile-name", tabindex: "-1" }, "Looking them up…");
  const handle = h("p", { class: "profile-handle" });
  const counts = h("p", { class: "profile-counts" });
  const action = h("div", { class: "profile-action" });
  const avatarSlot = h("div", { class: "profile-avatar" }, avatar({ id: personID, displayName: "?" }, "xl"));
  const stationSlot = h("div", { class: "profile-station" });
  const invite = h("div");
  const tabs = h("div", { class: "segmented", role: "group", "aria-label": "Lists" });
  const listStatus = h("p", { class: "lib-status", role: "status" });
  const list = h("div", { class: "profile-list" });

  const card = h(
    "header",
    { class: "profile-card" },
    avatarSlot,
    h("div", { class: "profile-text" }, heading, handle, counts),
    action,
  );
  const el = h(
    "section",
    { class: "screen profile-screen" },
    h("p", { class: "crumbs" }, h("a", { class: "btn btn-ghost btn-small btn-back", href: "#/people" }, icon("back", { size: 18 }), "People")),
    card,
    stationSlot,
    invite,
    h("section", { class: "profile-lists", "aria-label": "Followers and following" }, tabs, listStatus, list),
  );

  function renderCounts() {
    setText(counts, countsText(profile));
    renderTabs();
  }

  function renderTabs() {
    const seg = (id, label, n) =>
      h(
        "button",
        {
          class: "seg",
          type: "button",
          "aria-pressed": String(tab === id),
          dataset: { tab: id },
          onclick: () => {
            if (tab === id) return;
            tab = id;
            renderTabs();
            loadList();
          },
        },
        label,
        n === undefined ? null : h("span", { class: "seg-count" }, String(n)),
      );
    const focused = document.activeElement && tabs.contains(document.activeElement) ? document.activeElement.dataset.tab : null;
    fill(tabs, seg("followers", "Followers", profile?.followers), seg("following", "Following", profile?.following));
    if (focused) tabs.querySelector(`[data-tab="${focused}"]`)?.focus();
  }

  function renderAction() {
    if (!profile) return fill(action);
    if (isMe(profile)) {
      fill(action, h("a", { class: "btn btn-secondary btn-small", href: "#/account" }, "Your account"));
    } else if (profile.kind === "guest") {
      fill(action);
    } else if (session.isUser) {
      fill(
        action,
        followButton(profile, {
          onProfile: (next) => {
            profile = { ...profile, ...next };
            renderCounts();
            if (tab === "followers") loadList();
          },
        }),
      );
    } else {
      fill(action, h("a", { class: "btn btn-primary btn-small", href: authHref("login") }, "Sign in to follow"));
    }
  }

  async function renderStation() {
    if (!profile || !profile.stationID) {
      fill(stationSlot);
      return;
    }
    const link = (station) =>
      h(
        "a",
        { class: "station-card profile-station-card", href: stationHref(profile.stationID), dataset: { stationId: profile.stationID } },
        h("span", { class: "card-freq" }, (station && station.frequency) || "—"),
        h(
          "span",
          { class: "card-body" },
          h("span", { class: "card-name" }, station ? station.name : `${profile.displayName}'s station`),
          h("span", { class: "card-owner" }, isMe(profile) ? "Your station · DJ booth" : `Tune in to ${profile.displayName}`),
          station
            ? h(
                "span",
                { class: `card-now${station.nowPlaying ? "" : " is-quiet"}` },
                station.nowPlaying ? `${station.nowPlaying.title} — ${station.nowPlaying.artist}` : station.onAir ? "Between songs" : "Quiet",
              )
            : null,
        ),
        h("span", { class: "card-side" }, station && station.onAir ? h("span", { class: "onair-lamp small" }, "On air") : h("span", { class: "offair-lamp" }, "Off air")),
      );
    fill(stationSlot, h("h2", { class: "section-title" }, isMe(profile) ? "Your station" : "Their station"), link(null));
    try {
      const station = await api.station(profile.stationID);
      if (destroyed) return;
      fill(stationSlot, h("h2", { class: "section-title" }, isMe(profile) ? "Your station" : "Their station"), link(station));
    } catch {
      // A station hidden from you still gets its link; the station screen says why.
    }
  }

  async function loadList() {
    listController?.abort();
    listController = new AbortController();
    const { signal } = listController;
    setText(listStatus, "Loading…");
    try {
      const people = tab === "following" ? await api.following(personID, { signal }) : await api.followers(personID, { signal });
      if (destroyed || signal.aborted) return;
      const name = profile ? profile.displayName : "They";
      setText(
        listStatus,
        people.length ? "" : tab === "following" ? `${name} doesn't follow anyone yet.` : `No followers yet.`,
      );
      fill(list, people.length ? peopleList(people, { signal }) : null);
    } catch (error) {
      if (error.name === "AbortError" || destroyed) return;
      setText(listStatus, error.message);
    }
  }

  async function load() {
    try {
      profile = await api.person(personID, { signal: controller.signal });
      if (destroyed) return;
      document.title = `${profile.displayName} · Wavelength`;
      fill(avatarSlot, avatar(profile, "xl"));
      setText(heading, profile.displayName);
      setText(handle, profile.handle ? `@${profile.handle}` : "Guest");
      renderCounts();
      renderAction();
      renderStation();
      fill(invite, session.person ? null : signInPrompt(`Sign in to follow ${profile.displayName}.`));
      el.dataset.state = "ready";
    } catch (error) {
      if (error.name === "AbortError" || destroyed) return;
      setText(heading, error.status === 404 ? "No one here" : "Can't load this person");
      setText(handle, error.status === 404 ? "This person doesn't exist, or left." : error.message);
      el.dataset.state = "error";
    }
  }

  const unsubscribe = session.onChange(() => load());
  renderTabs();
  load();
  loadList();

  return {
    el,
    title: "Profile · Wavelength",
    focusTarget: () => heading,
    update: (next) => next.path[0] === "people" && next.path[1] === personID,
    destroy() {
      destroyed = true;
      controller.abort();
      listController?.abort();
      unsubscribe();
    },
  };
}
