// Station settings (#/station/ID/settings), for the owner and co-DJs: the
// frequency and access code as a glowing dial readout (rotate, expiry), who
// can listen, the name and a listener limit, the people here (co-DJs, kick,
// ban), invite links with QR codes, and ending the session.
//
// What a co-DJ may not use (PEOPLE-API.md's "Who" column) is disabled or not
// shown. Opened from the station screen it is shown over the playing station
// (context.session is that station's live session: listener counts and
// removals refresh the people list); opened on its own it polls.
//
// This module loads the settings, lays the panels out and keeps them fresh;
// the state and each panel are in settings/.

import { request, ApiError } from "../api/api.js";
import { h, fill, setText, listenersText } from "../ui/dom.js";
import { createDialPanel, loadCode } from "./settings/dial-panel.js";
import { createEndPanel } from "./settings/end-panel.js";
import { createInvitesPanel, loadInvites } from "./settings/invites-panel.js";
import { createPartyForm, loadParty, renderParty } from "./settings/party-form.js";
import { createPeoplePanel, invalidateMembers, loadMembers } from "./settings/people-panel.js";
import { createSettingsHeader, problemNotice } from "./settings/screen.js";
import { createSettingsState, isOwner } from "./settings/state.js";
import { applyFormRole, createStationForm, renderStationForm } from "./settings/station-form.js";
import { ErrorCode } from "../api/error-codes.js";

const POLL_MS = 4000;

/**
 * @param {{path: string[]}} route  #/station/<id>/settings
 * @param {{session?: import("../live/station-session.js").StationSession, role?: () => string|null}} context
 */
export function createSettingsView(route, context = {}) {
  const state = createSettingsState(route, context);
  const { stationID, base, live } = state;
  let pollTimer = null;
  let refreshTimer = null;

  const { el: header, heading, subName, subCount } = createSettingsHeader(stationID);
  const body = h("div", { class: "settings-grid" }, h("p", { class: "loading-line" }, "Warming up the settings…"));
  const el = h("section", { class: "screen settings-screen", dataset: { stationId: stationID, state: "loading" } }, header, body);

  const dial = createDialPanel(state);
  const form = createStationForm(state, { onStation: () => renderStation(), onSaved: () => loadCode(state, dial) });
  const people = createPeoplePanel(state);
  const partyForm = createPartyForm(state);
  const invites = createInvitesPanel(state);
  const end = createEndPanel(state, { onEnded: () => Promise.all([loadCode(state, dial), loadMembers(state, people)]) });

  async function load() {
    let access;
    try {
      [state.station, access] = await Promise.all([request(base), request(`${base}/access`)]);
    } catch (error) {
      if (!state.destroyed) showProblem(error);
      return;
    }
    if (state.destroyed) return;
    state.role = access.role;
    if (state.role !== "owner" && state.role !== "codj") {
      showProblem(new ApiError("Only the station's owner and co-DJs can open its settings.", { status: 403, code: ErrorCode.forbidden }));
      return;
    }
    el.dataset.role = state.role;
    el.classList.toggle("is-codj", state.role === "codj");
    layout();
    renderStation();
    await Promise.all([loadCode(state, dial), loadMembers(state, people), loadInvites(state, invites), loadParty(state, partyForm)]);
    if (state.destroyed) return;
    el.dataset.state = "ready";
    if (live) {
      live.addEventListener("change", onLiveChange);
      live.addEventListener("removed", onLiveRemoved);
    } else {
      pollTimer = setInterval(poll, POLL_MS);
    }
  }

  // Phones read top to bottom: the code, invites, people, the station, the
  // end; wider screens put the first two beside the rest.
  function layout() {
    fill(
      body,
      h("div", { class: "settings-col" }, dial.el, invites.el),
      h("div", { class: "settings-col" }, people.el, form.el, partyForm.el, isOwner(state) ? end.el : null),
    );
    for (const node of el.querySelectorAll(".owner-only")) node.hidden = !isOwner(state);
    applyFormRole(state, form);
    renderParty(state, partyForm);
  }

  function showProblem(error) {
    el.dataset.state = "error";
    fill(body, problemNotice(stationID, error));
  }

  function renderStation() {
    const { station } = state;
    if (!station) return;
    setText(subName, station.name);
    setText(subCount, ` · ${listenersText(live ? live.listeners : station.listeners)}`);
    renderStationForm(state, form);
    el.dataset.visibility = station.visibility || "public";
  }

  // Live refresh: over the station its session says when people come and
  // go; on its own the screen polls.
  function scheduleRefresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      if (!state.destroyed) loadMembers(state, people);
    }, 250);
  }

  function onLiveChange(event) {
    const reason = event.detail.reason;
    if (reason === "listeners" || reason === "snapshot") {
      renderStation();
      scheduleRefresh();
    }
    if (reason === "role" && live.role && live.role !== state.role) {
      state.role = live.role;
      layout();
      invalidateMembers(people);
      scheduleRefresh();
    }
  }

  function onLiveRemoved() {
    scheduleRefresh();
  }

  async function poll() {
    if (state.destroyed || document.hidden) return;
    try {
      const next = await request(base);
      if (state.destroyed) return;
      state.station = { ...state.station, listeners: next.listeners, frequency: next.frequency };
      setText(subCount, ` · ${listenersText(state.station.listeners)}`);
    } catch {
      // The next poll tries again.
    }
    loadMembers(state, people);
  }

  load();

  return {
    el,
    title: "Station settings · Wavelength",
    update(next) {
      return next.path[0] === "station" && next.path[1] === stationID && next.path[2] === "settings";
    },
    focusTarget: () => heading,
    destroy() {
      state.destroyed = true;
      clearInterval(pollTimer);
      clearTimeout(refreshTimer);
      if (live) {
        live.removeEventListener("change", onLiveChange);
        live.removeEventListener("removed", onLiveRemoved);
      }
    },
  };
}
