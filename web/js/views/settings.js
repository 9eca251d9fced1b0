// Station settings (#/station/ID/settings), for the owner and co-DJs: the
// frequency and access code as a glowing dial readout (rotate, expiry), who
// can listen, the name and a listener limit, the people here (co-DJs, kick,
// ban), invite links with QR codes, and ending the session.
//
// What a co-DJ may not use (PEOPLE-API.md's "Who" column) is disabled or not
// shown. Opened from the station screen it is shown over the playing station
// (context.session is that station's live session: listener counts and
// removals refresh the people list); opened on its own it polls.

import { request, ApiError } from "../api/api.js";
import { h, fill, setText, icon, listenersText } from "../ui/dom.js";
import { session as me } from "../api/session.js";
import { stationHref } from "../router.js";
import { share, copy } from "../ui/share.js";
import { toast } from "../ui/toast.js";

const enc = encodeURIComponent;
const POLL_MS = 4000;
const SVG_NS = "http://www.w3.org/2000/svg";

export const VISIBILITIES = [
  { value: "public", label: "Public", short: "Public", line: "On the dial for everyone: anyone can tune in." },
  { value: "unlisted", label: "Unlisted (link only)", short: "Link only", line: "Not on the dial; anyone with the station's link can listen." },
  { value: "code", label: "Code-protected", short: "Private", line: "Listeners type the frequency and the 6-digit access code." },
  { value: "followers", label: "Followers only", short: "Followers", line: "People who follow you, and anyone you let in with a code or invite." },
  { value: "invite", label: "Invite only", short: "Invite only", line: "Only people who open an invite link you made." },
];

const CODE_EXPIRY = [
  { value: "", label: "Never expires" },
  { value: "60", label: "1 hour" },
  { value: "1440", label: "1 day" },
  { value: "10080", label: "1 week" },
];

const INVITE_EXPIRY = [
  { value: "60", label: "1 hour" },
  { value: "1440", label: "1 day" },
  { value: "10080", label: "1 week" },
  { value: "43200", label: "30 days" },
  { value: "", label: "Never expires" },
];

/** "Code-protected" → "Private" etc., for chips; null for public. */
export function visibilityLabel(visibility, { short = false } = {}) {
  const found = VISIBILITIES.find((v) => v.value === visibility);
  if (!found || found.value === "public") return null;
  return short ? found.short : found.label;
}

/** A small gear (settings) icon, drawn from fixed path data. */
export function gearIcon(size = 24) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("class", "icon icon-gear");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of [
    "M12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z",
    "M19.4 13.5l1.6 1.2-2 3.4-1.9-.7a7.6 7.6 0 0 1-2 1.2l-.3 2h-3.9l-.3-2a7.6 7.6 0 0 1-2-1.2l-1.9.7-2-3.4 1.6-1.2a7.5 7.5 0 0 1 0-3l-1.6-1.2 2-3.4 1.9.7a7.6 7.6 0 0 1 2-1.2l.3-2h3.9l.3 2a7.6 7.6 0 0 1 2 1.2l1.9-.7 2 3.4-1.6 1.2a7.5 7.5 0 0 1 0 3z",
  ]) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "1.8");
    path.setAttribute("stroke-linejoin", "round");
    svg.append(path);
  }
  return svg;
}

/** A modal confirmation (<dialog>): resolves true when confirmed. */
export function confirmDialog({ title, body, confirmLabel, danger = true }) {
  return new Promise((resolve) => {
    let answered = false;
    const finish = (value) => {
      if (answered) return;
      answered = true;
      if (dialog.open) dialog.close();
      dialog.remove();
      if (opener && opener.isConnected) opener.focus({ preventScroll: true });
      resolve(value);
    };
    const opener = document.activeElement;
    const titleID = `confirm-title-${Math.random().toString(36).slice(2, 8)}`;
    const bodyID = `${titleID}-body`;
    const cancel = h("button", { class: "btn btn-secondary btn-cancel", type: "button", onclick: () => finish(false) }, "Cancel");
    const ok = h(
      "button",
      { class: `btn ${danger ? "btn-danger-solid" : "btn-primary"} btn-confirm`, type: "button", onclick: () => finish(true) },
      confirmLabel,
    );
    const dialog = h(
      "dialog",
      { class: "confirm-dialog", "aria-labelledby": titleID, "aria-describedby": bodyID },
      h("h2", { id: titleID, class: "confirm-title" }, title),
      h("p", { id: bodyID, class: "confirm-body" }, body),
      h("div", { class: "confirm-actions" }, cancel, ok),
    );
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish(false);
    });
    dialog.addEventListener("click", (event) => {
      // A tap on the backdrop (outside the box) cancels.
      if (event.target === dialog) {
        const r = dialog.getBoundingClientRect();
        const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
        if (!inside) finish(false);
      }
    });
    document.body.append(dialog);
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    cancel.focus();
  });
}

/** "in 52 minutes", "in 6 days", "3 minutes ago". */
export function relativeTime(ms, now = Date.now()) {
  const diff = ms - now;
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const seconds = Math.round(diff / 1000);
  if (Math.abs(seconds) < 60) return rtf.format(seconds, "second");
  const minutes = Math.round(diff / 60_000);
  if (Math.abs(minutes) < 60) return rtf.format(minutes, "minute");
  const hours = Math.round(diff / 3_600_000);
  if (Math.abs(hours) < 48) return rtf.format(hours, "hour");
  return rtf.format(Math.round(diff / 86_400_000), "day");
}

function clockTime(ms) {
  const date = new Date(ms);
  const sameDay = new Date().toDateString() === date.toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : date.toLocaleString([], { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

function select(id, options, value = "") {
  return h(
    "select",
    { id, class: "input select" },
    options.map((o) => h("option", { value: o.value, selected: o.value === value }, o.label)),
  );
}

function status(id) {
  return h("p", { class: "settings-status", id, role: "status", "aria-live": "polite" });
}

function say(el, text, kind = "ok") {
  el.dataset.kind = kind;
  setText(el, text);
}

function errorText(error) {
  if (error instanceof ApiError || (error && error.message)) return error.message;
  return "Something went wrong.";
}

/**
 * @param {{path: string[]}} route  #/station/<id>/settings
 * @param {{session?: import("../live/station-session.js").StationSession, role?: () => string|null}} context
 */
export function createSettingsView(route, context = {}) {
  const stationID = route.path[1];
  const live = context.session || null;
  const base = `/api/stations/${enc(stationID)}`;
  let destroyed = false;
  let station = null;
  let role = null;
  let code = null;
  let members = [];
  let invites = [];
  let pollTimer = null;
  let refreshTimer = null;
  let membersBusy = false;
  let newestInvite = null; // {id, token, url}: the token is only shown once

  const isOwner = () => role === "owner";
  const selfID = () => (me && me.person ? me.person.id : null);

  // Header.
  const heading = h("h1", { class: "settings-title", tabindex: "-1" }, "Station settings");
  const subName = h("span", { class: "settings-station-name" }, "…");
  const subCount = h("span", { class: "settings-count", "aria-live": "polite" });
  const header = h(
    "header",
    { class: "settings-bar" },
    h("a", { class: "btn-icon btn-back-station", href: stationHref(stationID), "aria-label": "Back to the station" }, icon("back", { size: 26 })),
    h("div", { class: "settings-heading" }, heading, h("p", { class: "settings-sub" }, subName, subCount)),
  );
  const body = h("div", { class: "settings-grid" }, h("p", { class: "loading-line" }, "Warming up the settings…"));
  const el = h("section", { class: "screen settings-screen", dataset: { stationId: stationID, state: "loading" } }, header, body);

  // ---- The dial readout: frequency and access code ----
  const readFreq = h("span", { class: "dial-freq-num" }, "··.·");
  const readCode = h("span", { class: "dial-code-num", "aria-hidden": "true" }, "··· ···");
  const readCodeSpoken = h("span", { class: "visually-hidden" }, "none");
  const readExpiry = h("p", { class: "dial-expiry" });
  const codeExpiry = select("code-expiry", CODE_EXPIRY);
  const rotateButton = h("button", { class: "btn btn-secondary", type: "button", onclick: () => rotate() }, "Change code");
  const shareCodeButton = h("button", { class: "btn btn-primary", type: "button", onclick: () => shareCode() }, "Share the code");
  const codeStatus = status("code-status");
  const dialPanel = h(
    "section",
    { class: "panel dial-panel", "aria-labelledby": "dial-heading" },
    h("h2", { id: "dial-heading", class: "section-title" }, "On the dial"),
    h(
      "div",
      { class: "dial-readout" },
      h(
        "div",
        { class: "dial-cell" },
        h("p", { class: "dial-label", id: "dial-freq-label" }, "Frequency"),
        h("p", { class: "dial-value" }, readFreq, h("span", { class: "dial-unit" }, "FM")),
      ),
      h(
        "div",
        { class: "dial-cell" },
        h("p", { class: "dial-label", id: "dial-code-label" }, "Access code"),
        h("p", { class: "dial-value" }, readCode, readCodeSpoken),
      ),
    ),
    readExpiry,
    // Only a code-protected station has an access code to change (or a
    // station with no frequency, which gets one): on a public station,
    // changing the code would only move its frequency.
    h(
      "div",
      { class: "owner-only code-tools" },
      h("label", { for: "code-expiry", class: "label" }, "A new code lasts"),
      h("div", { class: "input-row" }, codeExpiry, rotateButton),
      h("p", { class: "hint code-tools-hint" }, "Changing the code gives a new frequency and access code; the old ones stop working at once. People already listening stay."),
    ),
    h("div", { class: "input-row" }, shareCodeButton),
    codeStatus,
  );

  // ---- Station: name, who can listen, limit ----
  const nameInput = h("input", { id: "settings-name", class: "input", type: "text", maxlength: "80", required: true, autocomplete: "off" });
  const visInputs = VISIBILITIES.map((v) =>
    h("input", { type: "radio", name: `visibility-${stationID}`, value: v.value, id: `vis-${v.value}`, class: "vis-radio", "aria-describedby": `vis-${v.value}-line` }),
  );
  const visFieldset = h(
    "fieldset",
    { class: "vis-group" },
    h("legend", { class: "label vis-legend" }, "Who can listen"),
    VISIBILITIES.map((v, i) =>
      h(
        "label",
        { class: "vis-option", for: `vis-${v.value}`, dataset: { value: v.value } },
        visInputs[i],
        h("span", { class: "vis-text" }, h("span", { class: "vis-label" }, v.label), h("span", { class: "vis-line", id: `vis-${v.value}-line` }, v.line)),
      ),
    ),
  );
  const maxInput = h("input", {
    id: "settings-max",
    class: "input input-max",
    type: "number",
    inputmode: "numeric",
    min: "1",
    max: "10000",
    step: "1",
    placeholder: "No limit",
    "aria-describedby": "settings-max-hint",
  });
  const saveButton = h("button", { class: "btn btn-primary btn-wide", type: "submit" }, "Save changes");
  const stationStatus = status("station-status");
  const coNote = h("p", { class: "hint codj-note" }, "Only the owner can change these.");
  const stationForm = h(
    "form",
    { class: "panel station-form", "aria-labelledby": "station-heading", onsubmit: (e) => saveStation(e), novalidate: true },
    h("h2", { id: "station-heading", class: "section-title" }, "Station"),
    coNote,
    h("label", { for: "settings-name", class: "label" }, "Name"),
    nameInput,
    visFieldset,
    h("label", { for: "settings-max", class: "label" }, "Maximum listeners"),
    maxInput,
    h("p", { class: "hint", id: "settings-max-hint" }, "Leave blank for no limit (up to 10,000)."),
    saveButton,
    stationStatus,
  );

  // ---- People ----
  const peopleList = h("ul", { class: "people-list", "aria-labelledby": "people-heading" });
  const peopleCount = h("span", { class: "count-pill" });
  const peopleStatus = status("people-status");
  // The owner names a co-DJ by handle: anyone with an account, not only
  // those already listed here.
  const codjInput = h("input", {
    id: "codj-handle",
    class: "input",
    type: "text",
    maxlength: "25",
    autocomplete: "off",
    autocapitalize: "none",
    spellcheck: "false",
    placeholder: "@handle",
    "aria-describedby": "codj-hint",
  });
  const codjButton = h("button", { class: "btn btn-secondary", type: "submit" }, "Make co-DJ");
  const codjForm = h(
    "form",
    { class: "owner-only codj-form", onsubmit: (e) => addCoDJ(e), novalidate: true },
    h("label", { for: "codj-handle", class: "label" }, "Add a co-DJ by handle"),
    h("div", { class: "input-row" }, codjInput, codjButton),
    h("p", { class: "hint", id: "codj-hint" }, "Co-DJs can add, skip, hold and reorder tracks."),
  );
  const peoplePanel = h(
    "section",
    { class: "panel people-panel", "aria-labelledby": "people-heading" },
    h("h2", { id: "people-heading", class: "section-title" }, "People ", peopleCount),
    peopleList,
    codjForm,
    peopleStatus,
  );

  // ---- Invites ----
  const inviteExpiry = select("invite-expiry", INVITE_EXPIRY, "1440");
  const inviteButton = h("button", { class: "btn btn-primary", type: "submit" }, "Create invite link");
  const inviteResult = h("div", { class: "invite-result", "aria-live": "polite" });
  const inviteList = h("ul", { class: "invite-list", "aria-label": "Invite links" });
  const inviteStatus = status("invite-status");
  const invitePanel = h(
    "section",
    { class: "panel invite-panel", "aria-labelledby": "invite-heading" },
    h("h2", { id: "invite-heading", class: "section-title" }, "Invite links"),
    h("p", { class: "hint" }, "Anyone who opens an invite link can tune in, without an account or a code."),
    h(
      "form",
      { class: "invite-form", onsubmit: (e) => createInvite(e) },
      h("label", { for: "invite-expiry", class: "label" }, "The link works for"),
      h("div", { class: "input-row" }, inviteExpiry, inviteButton),
    ),
    inviteResult,
    inviteList,
    inviteStatus,
  );

  // ---- End the session ----
  const endButton = h("button", { class: "btn btn-danger-outline", type: "button", onclick: () => endSession() }, "End session");
  const endStatus = status("end-status");
  const endPanel = h(
    "section",
    { class: "panel end-panel owner-only", "aria-labelledby": "end-heading" },
    h("h2", { id: "end-heading", class: "section-title" }, "End the session"),
    h("p", { class: "hint" }, "Everyone is disconnected and told the session is over. Listeners have to join again; the access code is released."),
    endButton,
    endStatus,
  );

  // ---- Loading ----
  async function load() {
    let access;
    try {
      [station, access] = await Promise.all([request(base), request(`${base}/access`)]);
    } catch (error) {
      if (!destroyed) showProblem(error);
      return;
    }
    if (destroyed) return;
    role = access.role;
    if (role !== "owner" && role !== "codj") {
      showProblem(new ApiError("Only the station's owner and co-DJs can open its settings.", { status: 403, code: "forbidden" }));
      return;
    }
    el.dataset.role = role;
    el.classList.toggle("is-codj", role === "codj");
    layout();
    renderStation();
    await Promise.all([loadCode(), loadMembers(), loadInvites()]);
    if (destroyed) return;
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
      h("div", { class: "settings-col" }, dialPanel, invitePanel),
      h("div", { class: "settings-col" }, peoplePanel, stationForm, isOwner() ? endPanel : null),
    );
    applyRole();
  }

  function showProblem(error) {
    el.dataset.state = "error";
    const notFound = error.status === 404;
    const denied = error.status === 401 || error.status === 403;
    fill(
      body,
      h(
        "div",
        { class: "notice notice-error big-notice", role: "alert" },
        h("h2", {}, notFound ? "No station here" : denied ? "These settings aren't yours" : "Can't open the settings"),
        h("p", {}, notFound ? "Nothing is broadcasting with that id." : denied ? "Only the station's owner and co-DJs can open its settings." : errorText(error)),
        h(
          "p",
          { class: "over-actions" },
          notFound ? null : h("a", { class: "btn btn-primary", href: stationHref(stationID) }, "Back to the station"),
          h("a", { class: notFound ? "btn btn-primary" : "btn btn-secondary", href: "#/" }, "Back to the dial"),
        ),
      ),
    );
  }

  function applyRole() {
    const owner = isOwner();
    for (const node of el.querySelectorAll(".owner-only")) node.hidden = !owner;
    coNote.hidden = owner;
    nameInput.disabled = !owner;
    maxInput.disabled = !owner;
    for (const input of visInputs) input.disabled = !owner;
    saveButton.hidden = !owner;
  }

  function renderStation() {
    if (!station) return;
    setText(subName, station.name);
    setText(subCount, ` · ${listenersText(live ? live.listeners : station.listeners)}`);
    if (document.activeElement !== nameInput) nameInput.value = station.name;
    for (const input of visInputs) input.checked = input.value === (station.visibility || "public");
    if (document.activeElement !== maxInput) maxInput.value = station.maxListeners == null ? "" : String(station.maxListeners);
    el.dataset.visibility = station.visibility || "public";
  }

  // ---- Code ----
  async function loadCode() {
    try {
      code = await request(`${base}/code`);
    } catch (error) {
      code = null;
      say(codeStatus, errorText(error), "error");
    }
    renderCode();
  }

  function renderCode() {
    const frequency = code && code.frequency;
    const access = code && code.accessCode;
    setText(readFreq, frequency || "—");
    setText(readCode, access ? `${access.slice(0, 3)} ${access.slice(3)}` : "—");
    // Read digit by digit, not as two numbers.
    setText(readCodeSpoken, access ? access.split("").join(" ") : "none");
    dialPanel.dataset.frequency = frequency || "";
    dialPanel.dataset.accessCode = access || "";
    const vis = station ? station.visibility : "public";
    let line;
    if (!frequency) line = "No frequency right now: change the code to get one.";
    else if (!access) line = vis === "public" || vis === "unlisted" ? "No access code needed: the frequency is enough." : "No access code right now.";
    else if (code.expiresAt) {
      line = code.expiresAt <= Date.now() ? "This code has expired: change it to get a new one." : `The code expires ${relativeTime(code.expiresAt)} (${clockTime(code.expiresAt)}).`;
    } else line = "The code never expires.";
    setText(readExpiry, line);
    shareCodeButton.disabled = !frequency || (vis === "code" && !access);
    setText(shareCodeButton, vis === "code" ? "Share the code" : "Share the frequency");
    // "Change code" is for code-protected stations; a station without a
    // frequency may ask for one. Public and unlisted ones keep theirs.
    const codeTools = dialPanel.querySelector(".code-tools");
    const offer = vis === "code" || !frequency;
    codeTools.dataset.offered = String(offer);
    codeTools.hidden = !isOwner() || !offer;
    setText(rotateButton, vis === "code" ? "Change code" : "Get a frequency");
    setText(
      codeTools.querySelector(".code-tools-hint"),
      vis === "code"
        ? "Changing the code gives a new frequency and access code; the old ones stop working at once. People already listening stay."
        : "A frequency lets people tune in by typing it on the dial.",
    );
  }

  async function rotate() {
    const minutes = codeExpiry.value ? Number(codeExpiry.value) : null;
    rotateButton.disabled = true;
    say(codeStatus, "Changing the code…");
    try {
      code = await request(`${base}/code`, { method: "POST", body: { expiresInMinutes: minutes } });
      renderCode();
      dialPanel.classList.remove("is-flicker");
      void dialPanel.offsetWidth;
      dialPanel.classList.add("is-flicker");
      say(codeStatus, `New code: ${code.frequency || "no frequency"}${code.accessCode ? `, access code ${code.accessCode}` : ""}. The old one no longer works.`);
    } catch (error) {
      say(codeStatus, errorText(error), "error");
    } finally {
      rotateButton.disabled = false;
    }
  }

  function shareCode() {
    if (!code || !code.frequency) return;
    const url = `${location.origin}/#/join/${enc(code.frequency)}`;
    const name = station ? station.name : "my station";
    const text = code.accessCode
      ? `Tune in to ${name} on Wavelength: frequency ${code.frequency}, access code ${code.accessCode}.`
      : `Tune in to ${name} on Wavelength: frequency ${code.frequency}.`;
    share({ title: name, text, url });
  }

  // ---- Station form ----
  async function saveStation(event) {
    event.preventDefault();
    if (!isOwner() || !station) return;
    const changes = {};
    const name = nameInput.value.trim();
    if (!name) {
      say(stationStatus, "The station needs a name.", "error");
      nameInput.focus();
      return;
    }
    if (name !== station.name) changes.name = name;
    const picked = visInputs.find((i) => i.checked);
    if (picked && picked.value !== (station.visibility || "public")) changes.visibility = picked.value;
    const rawMax = maxInput.value.trim();
    let max = null;
    if (rawMax) {
      max = Number(rawMax);
      if (!Number.isInteger(max) || max < 1 || max > 10000) {
        say(stationStatus, "Maximum listeners is a whole number from 1 to 10,000, or blank for no limit.", "error");
        maxInput.focus();
        return;
      }
    }
    if (max !== (station.maxListeners ?? null)) changes.maxListeners = max;
    if (!Object.keys(changes).length) {
      say(stationStatus, "Nothing to save: no changes.");
      return;
    }
    saveButton.disabled = true;
    say(stationStatus, "Saving…");
    try {
      station = await request(base, { method: "PATCH", body: changes });
      renderStation();
      say(stationStatus, changes.visibility ? `Saved. ${VISIBILITIES.find((v) => v.value === station.visibility)?.label || station.visibility}: ${VISIBILITIES.find((v) => v.value === station.visibility)?.line || ""}` : "Saved.");
      await loadCode();
    } catch (error) {
      say(stationStatus, errorText(error), "error");
    } finally {
      saveButton.disabled = false;
    }
  }

  // ---- People ----
  const ROLE_NAMES = { owner: "Owner", codj: "Co-DJ", listener: "Listener" };
  const ROLE_ORDER = { owner: 0, codj: 1, listener: 2 };

  async function loadMembers() {
    if (membersBusy) return;
    membersBusy = true;
    try {
      const list = await request(`${base}/members`);
      if (!destroyed) renderMembers(list);
    } catch (error) {
      if (!destroyed) say(peopleStatus, errorText(error), "error");
    } finally {
      membersBusy = false;
    }
  }

  function renderMembers(list) {
    members = Array.isArray(list) ? list.slice() : [];
    members.sort(
      (a, b) =>
        Number(a.banned) - Number(b.banned) ||
        (ROLE_ORDER[a.role] ?? 3) - (ROLE_ORDER[b.role] ?? 3) ||
        Number(b.connected) - Number(a.connected) ||
        String(a.person.displayName).localeCompare(String(b.person.displayName)),
    );
    const sig = JSON.stringify(members.map((m) => [m.person.id, m.person.displayName, m.role, m.connected, m.banned]));
    if (peopleList.dataset.sig === sig) return;
    peopleList.dataset.sig = sig;
    // Keep focus on the same control across a refresh.
    const active = document.activeElement;
    const focusKey = active && peopleList.contains(active) ? active.dataset.focusKey : null;
    const connected = members.filter((m) => m.connected && !m.banned).length;
    setText(peopleCount, String(members.filter((m) => !m.banned).length));
    peopleCount.setAttribute("aria-label", `${connected} connected`);
    fill(peopleList, members.length ? members.map(memberRow) : h("li", { class: "empty" }, "Nobody here yet."));
    if (focusKey) {
      const again = peopleList.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function memberRow(member) {
    const { person } = member;
    const self = person.id === selfID();
    const name = person.displayName || person.handle || "Someone";
    const owner = isOwner();
    const actions = [];
    const button = (action, label, onclick, cls = "btn btn-small btn-secondary") =>
      h(
        "button",
        { class: cls, type: "button", dataset: { action, focusKey: `${action}:${person.id}` }, "aria-label": `${label}: ${name}`, onclick },
        label,
      );
    if (!self && member.role !== "owner") {
      if (member.banned) {
        if (owner) actions.push(button("unban", "Unban", () => act("unban", member)));
      } else {
        if (owner && member.role === "listener") actions.push(button("codj", "Make co-DJ", () => act("codj", member)));
        if (owner && member.role === "codj") actions.push(button("uncodj", "Remove co-DJ", () => act("uncodj", member)));
        if (owner || member.role === "listener") actions.push(button("kick", "Kick", () => act("kick", member), "btn btn-small btn-danger-outline"));
        if (owner) actions.push(button("ban", "Ban", () => act("ban", member), "btn btn-small btn-danger-outline"));
      }
    }
    const badge = member.banned ? "Banned" : ROLE_NAMES[member.role] || member.role;
    return h(
      "li",
      {
        class: `person-row${member.connected ? " is-connected" : ""}${member.banned ? " is-banned" : ""}`,
        dataset: { personId: person.id, role: member.role, connected: String(Boolean(member.connected)), banned: String(Boolean(member.banned)) },
      },
      h("span", { class: "person-avatar", "aria-hidden": "true" }, (Array.from(name.trim())[0] || "?").toUpperCase()),
      h(
        "span",
        { class: "person-text" },
        h("span", { class: "person-name" }, name, self ? h("span", { class: "person-you" }, " (you)") : null),
        h(
          "span",
          { class: "person-sub" },
          h("span", { class: `role-badge role-${member.banned ? "banned" : member.role}` }, badge),
          h("span", { class: "person-handle" }, person.kind === "user" && person.handle ? `@${person.handle}` : "Guest"),
          h(
            "span",
            { class: "conn-dot-wrap" },
            h("span", { class: "conn-dot", "aria-hidden": "true" }),
            member.connected ? "Listening now" : "Not connected",
          ),
        ),
      ),
      actions.length ? h("span", { class: "person-actions" }, actions) : null,
    );
  }

  async function addCoDJ(event) {
    event.preventDefault();
    if (!isOwner()) return;
    const handle = codjInput.value.trim().replace(/^@/, "");
    if (!handle) {
      say(peopleStatus, "Type the handle of the person to make co-DJ.", "error");
      codjInput.focus();
      return;
    }
    codjButton.disabled = true;
    try {
      const list = await request(`${base}/codjs`, { method: "POST", body: { handle } });
      peopleList.dataset.sig = "";
      if (Array.isArray(list)) renderMembers(list);
      const added = members.find((m) => m.person.handle === handle.toLowerCase());
      say(peopleStatus, `${(added && added.person.displayName) || `@${handle}`} is a co-DJ now.`);
      codjInput.value = "";
    } catch (error) {
      say(peopleStatus, errorText(error), "error");
      codjInput.focus();
    } finally {
      codjButton.disabled = false;
    }
  }

  async function act(action, member) {
    const { person } = member;
    const name = person.displayName || person.handle || "this person";
    const station_ = station ? station.name : "the station";
    if (action === "kick") {
      const ok = await confirmDialog({
        title: `Kick ${name}?`,
        body: `${name} is disconnected from ${station_} at once. They can come back with the code or an invite.`,
        confirmLabel: "Kick",
      });
      if (!ok) return;
    } else if (action === "ban") {
      const ok = await confirmDialog({
        title: `Ban ${name}?`,
        body: `${name} is disconnected from ${station_} and can't come back, even with the right code, until you unban them.`,
        confirmLabel: "Ban",
      });
      if (!ok) return;
    }
    if (destroyed) return;
    const row = peopleList.querySelector(`[data-person-id="${CSS.escape(person.id)}"]`);
    if (row) for (const b of row.querySelectorAll("button")) b.disabled = true;
    const pid = enc(person.id);
    try {
      if (action === "kick") {
        await request(`${base}/kick`, { method: "POST", body: { personID: person.id } });
        say(peopleStatus, `${name} was removed.`);
      } else if (action === "ban") {
        await request(`${base}/ban`, { method: "POST", body: { personID: person.id } });
        say(peopleStatus, `${name} is banned.`);
      } else if (action === "unban") {
        await request(`${base}/bans/${pid}`, { method: "DELETE" });
        say(peopleStatus, `${name} is no longer banned.`);
      } else if (action === "codj") {
        const list = await request(`${base}/codjs/${pid}`, { method: "PUT" });
        if (Array.isArray(list)) renderMembers(list);
        say(peopleStatus, `${name} is a co-DJ now.`);
      } else if (action === "uncodj") {
        const list = await request(`${base}/codjs/${pid}`, { method: "DELETE" });
        if (Array.isArray(list)) renderMembers(list);
        say(peopleStatus, `${name} is a listener again.`);
      }
    } catch (error) {
      say(peopleStatus, errorText(error), "error");
      if (row) for (const b of row.querySelectorAll("button")) b.disabled = false;
    }
    peopleList.dataset.sig = "";
    await loadMembers();
  }

  // ---- Invites ----
  async function loadInvites() {
    try {
      invites = await request(`${base}/invites`);
    } catch (error) {
      invites = [];
      say(inviteStatus, errorText(error), "error");
    }
    renderInvites();
  }

  function inviteURL(created) {
    try {
      return new URL(created.url || `/#/i/${enc(created.token)}`, location.origin).href;
    } catch {
      return `${location.origin}/#/i/${enc(created.token)}`;
    }
  }

  async function createInvite(event) {
    event.preventDefault();
    const minutes = inviteExpiry.value ? Number(inviteExpiry.value) : null;
    inviteButton.disabled = true;
    say(inviteStatus, "Making a link…");
    try {
      const created = await request(`${base}/invites`, { method: "POST", body: { expiresInMinutes: minutes } });
      newestInvite = { ...created, link: inviteURL(created) };
      renderInviteResult();
      say(inviteStatus, "Invite link ready.");
      await loadInvites();
    } catch (error) {
      say(inviteStatus, errorText(error), "error");
    } finally {
      inviteButton.disabled = false;
    }
  }

  function renderInviteResult() {
    if (!newestInvite) {
      fill(inviteResult);
      return;
    }
    const { token, link, expiresAt } = newestInvite;
    const linkInput = h("input", { id: "invite-link", class: "input input-mono", type: "text", readonly: true, value: link, "aria-describedby": "invite-link-hint" });
    linkInput.addEventListener("focus", () => linkInput.select());
    const name = station ? station.name : "my station";
    fill(
      inviteResult,
      h(
        "div",
        { class: "card invite-card", dataset: { token } },
        h("div", { class: "invite-qr" }, h("img", { class: "qr-img", src: `/api/invites/${enc(token)}/qr.svg`, alt: "QR code for the invite link", width: "200", height: "200" })),
        h(
          "div",
          { class: "invite-body" },
          h("label", { for: "invite-link", class: "label" }, "Invite link"),
          linkInput,
          h(
            "p",
            { class: "hint", id: "invite-link-hint" },
            expiresAt ? `Works until ${clockTime(expiresAt)} (${relativeTime(expiresAt)}). ` : "Works until you revoke it. ",
            "This is the only time the link is shown.",
          ),
          h(
            "div",
            { class: "input-row" },
            h(
              "button",
              { class: "btn btn-primary btn-share", type: "button", onclick: () => share({ title: name, text: `Tune in to ${name} with me on Wavelength`, url: link, select: linkInput }) },
              "Share",
            ),
            h("button", { class: "btn btn-secondary btn-copy", type: "button", onclick: () => copy(link, { select: linkInput }) }, "Copy"),
            h("a", { class: "btn btn-ghost btn-qr-png", href: `/api/invites/${enc(token)}/qr.png`, download: "wavelength-invite.png" }, "Download QR (PNG)"),
          ),
        ),
      ),
    );
  }

  function renderInvites() {
    const list = Array.isArray(invites) ? invites.slice() : [];
    list.sort((a, b) => Number(a.revoked) - Number(b.revoked) || (b.createdAt || 0) - (a.createdAt || 0));
    const now = Date.now();
    fill(
      inviteList,
      list.map((invite) => {
        const expired = invite.expiresAt && invite.expiresAt <= now;
        const state = invite.revoked ? "Revoked" : expired ? "Expired" : invite.expiresAt ? `Expires ${relativeTime(invite.expiresAt, now)}` : "Never expires";
        const uses = `${invite.uses || 0} joined`;
        const created = invite.createdAt ? `Made ${clockTime(invite.createdAt)}` : "Invite";
        const isNewest = newestInvite && newestInvite.id === invite.id;
        return h(
          "li",
          { class: `invite-row${invite.revoked || expired ? " is-dead" : ""}`, dataset: { inviteId: invite.id } },
          h("span", { class: "invite-text" }, h("span", { class: "invite-made" }, created, isNewest ? " · the link above" : ""), h("span", { class: "invite-meta" }, `${state} · ${uses}`)),
          invite.revoked || expired
            ? null
            : h(
                "button",
                { class: "btn btn-small btn-danger-outline", type: "button", dataset: { action: "revoke" }, "aria-label": `Revoke the invite made ${invite.createdAt ? clockTime(invite.createdAt) : ""}`, onclick: () => revoke(invite) },
                "Revoke",
              ),
        );
      }),
    );
  }

  async function revoke(invite) {
    try {
      await request(`${base}/invites/${enc(invite.id)}`, { method: "DELETE" });
      if (newestInvite && newestInvite.id === invite.id) {
        newestInvite = null;
        renderInviteResult();
      }
      say(inviteStatus, "Invite revoked: the link no longer works.");
    } catch (error) {
      say(inviteStatus, errorText(error), "error");
    }
    await loadInvites();
  }

  // ---- End ----
  async function endSession() {
    const ok = await confirmDialog({
      title: "End this session?",
      body: "Everyone listening is disconnected and told the session is over. Listeners have to join again, and the access code is released.",
      confirmLabel: "End session",
    });
    if (!ok || destroyed) return;
    endButton.disabled = true;
    try {
      await request(`${base}/end`, { method: "POST" });
      say(endStatus, "Session ended. Everyone was disconnected.");
      toast("Session ended.");
      await Promise.all([loadCode(), loadMembers()]);
    } catch (error) {
      say(endStatus, errorText(error), "error");
    } finally {
      endButton.disabled = false;
    }
  }

  // ---- Live refresh ----
  function scheduleRefresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      if (!destroyed) loadMembers();
    }, 250);
  }

  function onLiveChange(event) {
    const reason = event.detail.reason;
    if (reason === "listeners" || reason === "snapshot") {
      renderStation();
      scheduleRefresh();
    }
    if (reason === "role" && live.role && live.role !== role) {
      role = live.role;
      layout();
      peopleList.dataset.sig = "";
      scheduleRefresh();
    }
  }

  function onLiveRemoved() {
    scheduleRefresh();
  }

  async function poll() {
    if (destroyed || document.hidden) return;
    try {
      const next = await request(base);
      if (destroyed) return;
      station = { ...station, listeners: next.listeners, frequency: next.frequency };
      setText(subCount, ` · ${listenersText(station.listeners)}`);
    } catch {
      // The next poll tries again.
    }
    loadMembers();
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
      destroyed = true;
      clearInterval(pollTimer);
      clearTimeout(refreshTimer);
      if (live) {
        live.removeEventListener("change", onLiveChange);
        live.removeEventListener("removed", onLiveRemoved);
      }
    },
  };
}
