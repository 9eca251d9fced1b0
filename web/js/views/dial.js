// The dial: an FM band with every station as a mark, a needle you move
// between them (buttons, arrow keys, dragging), a glowing readout, and the
// station list below in the server's sections (GET /api/dial): your
// stations, friends on the air, friends' quiet stations, then whoever else
// is on the air. A station without a frequency (none right now, or hidden
// from you) stays in the list but has no place on the band.

import { api } from "../api/api.js";
import { h, fill, setText, icon, listenersText } from "../ui/dom.js";
import { session } from "../api/session.js";
import { authHref, buildHash, navigate, stationHref, stationPath } from "../router.js";
import { bandPosition, BAND_MIN, BAND_MAX } from "../api/stations.js";
import { toast } from "../ui/toast.js";
import { frequencyDecimals, frequencyMHz, isFrequency, parseFrequency } from "../ui/frequency.js";

const REFRESH_MS = 5000;
const SWEEP_MS = 420;

const SECTION_TITLES = {
  own: "Your station",
  "following-live": "Friends on the air",
  "following-quiet": "Friends, quiet",
  discover: "On the air now",
  quiet: "Off the air",
};
const SECTION_IDS = {
  own: "list-mine",
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

function isOwn(station) {
  return station.role === "owner" || station.role === "codj";
}

function onBand(station) {
  return isFrequency(station.frequency);
}

/** Where a station's card leads: a code-protected station you haven't joined asks for its code. */
export function stationLink(station) {
  if (station.visibility === "code" && station.role === "none") {
    return station.frequency ? buildHash(["join", station.frequency]) : buildHash(["join"]);
  }
  return stationHref(station.id);
}

/**
 * GET /api/dial, or for a server without it the public list split into on
 * the air and quiet.
 */
async function loadDial() {
  try {
    const dial = await api.dial();
    return (dial && Array.isArray(dial.sections) ? dial.sections : []).filter((s) => s && Array.isArray(s.stations) && s.stations.length);
  } catch (error) {
    if (error.status !== 404) throw error;
    const list = await api.stations();
    return [
      { kind: "discover", stations: list.filter((s) => s.onAir) },
      { kind: "quiet", stations: list.filter((s) => !s.onAir) },
    ].filter((s) => s.stations.length);
  }
}

export function createDialView() {
  // Every station in dial order, and those of them with a place on the band.
  let sections = [];
  let all = [];
  let stations = [];
  let selectedID = null;
  let refreshTimer = null;
  let destroyed = false;
  let sweepFrame = null;
  let shownFrequency = null;
  let libraryEmpty = false;

  // The radio face.
  const freqNum = h("span", { class: "freq-num" }, "—");
  const readoutName = h("p", { class: "readout-name" }, "Scanning the band…");
  const readoutNow = h("p", { class: "readout-now" });
  const readoutMeta = h("p", { class: "readout-meta" });
  const readout = h(
    "div",
    { class: "readout", "aria-live": "polite", "aria-atomic": "true" },
    h("p", { class: "readout-freq" }, freqNum, h("span", { class: "freq-unit" }, "FM")),
    readoutName,
    readoutNow,
    readoutMeta,
  );

  const scale = h("div", { class: "band-scale", "aria-hidden": "true" });
  for (let tenths = 880; tenths <= 1080; tenths += 5) {
    const f = tenths / 10;
    const major = tenths % 20 === 0;
    const tick = h("span", { class: major ? "tick tick-major" : tenths % 10 === 0 ? "tick tick-mid" : "tick" });
    tick.style.left = `${bandPosition(f) * 100}%`;
    scale.append(tick);
    if (major) {
      const label = h("span", { class: `tick-label${tenths % 40 === 0 ? "" : " tick-label-minor"}` }, String(f));
      label.style.left = `${bandPosition(f) * 100}%`;
      scale.append(label);
    }
  }
  const marks = h("div", { class: "band-marks", "aria-hidden": "true" });
  const needle = h("div", { class: "needle", "aria-hidden": "true" });
  const band = h(
    "div",
    {
      class: "band",
      role: "slider",
      tabindex: "0",
      "aria-label": "Tuning dial: left and right arrows change station, Enter tunes in",
      "aria-valuemin": String(BAND_MIN),
      "aria-valuemax": String(BAND_MAX),
    },
    h("div", { class: "band-glass" }, scale, marks, needle),
  );

  const prevButton = h(
    "button",
    { class: "btn btn-round btn-flip", type: "button", "aria-label": "Previous station", onclick: () => step(-1) },
    icon("prev", { size: 30 }),
  );
  const nextButton = h(
    "button",
    { class: "btn btn-round btn-flip", type: "button", "aria-label": "Next station", onclick: () => step(1) },
    icon("next", { size: 30 }),
  );
  const tuneButton = h(
    "button",
    { class: "btn btn-primary btn-tune", type: "button", onclick: () => tuneIn() },
    icon("play", { size: 26 }),
    h("span", { class: "tune-label" }, "Tune in"),
  );
  const controls = h("div", { class: "dial-controls" }, prevButton, tuneButton, nextButton);

  const radio = h("section", { class: "radio", "aria-label": "Tuner" }, readout, band, controls);

  // Tune by frequency.
  const freqInput = h("input", {
    id: "tune-frequency",
    class: "input input-freq",
    type: "text",
    inputmode: "decimal",
    autocomplete: "off",
    placeholder: "107.3",
    maxlength: "6",
    "aria-describedby": "tune-frequency-hint",
  });
  const freqError = h("p", { class: "form-error", id: "tune-frequency-hint", role: "status" });
  const freqForm = h(
    "form",
    { class: "tune-form", onsubmit: (e) => tuneToFrequency(e) },
    h("label", { for: "tune-frequency", class: "label" }, "Know a frequency?"),
    h(
      "div",
      { class: "input-row" },
      freqInput,
      h("button", { class: "btn btn-secondary", type: "submit" }, "Tune"),
    ),
    freqError,
  );

  const notices = h("div", { class: "notices" });
  const lists = h("div", { class: "station-lists" }, h("p", { class: "loading-line" }, "Scanning the band…"));

  // Your own station comes with an account; signed-in users may start a
  // party station (private: its frequency and an access code).
  const forms = h("div", { class: "dial-forms" });
  const partyName = h("input", { id: "party-name", class: "input", type: "text", maxlength: "80", placeholder: "Saturday Night", autocomplete: "off", "aria-describedby": "party-hint" });
  const partyError = h("p", { class: "form-error", role: "status" });
  const partyForm = h(
    "form",
    { class: "card form-card party-card", onsubmit: (e) => startParty(e), "aria-labelledby": "party-heading" },
    h("h2", { id: "party-heading", class: "section-title" }, "Start a party station"),
    h("p", { class: "muted", id: "party-hint" }, "A private station for tonight: friends tune in with its frequency and an access code."),
    h("label", { for: "party-name", class: "label" }, "Party name"),
    partyName,
    h("button", { class: "btn btn-primary btn-wide", type: "submit" }, "Start a party station"),
    partyError,
  );

  function renderForms() {
    const person = session.person;
    if (person && person.kind === "user") {
      fill(forms, partyForm);
    } else if (person && person.kind === "guest") {
      fill(
        forms,
        h(
          "section",
          { class: "card form-card join-card", "aria-labelledby": "own-heading" },
          h("h2", { id: "own-heading", class: "section-title" }, "Your own station"),
          h("p", { class: "muted" }, `You're listening as ${person.displayName}. Create an account to keep your name and get a station of your own.`),
          h("a", { class: "btn btn-primary btn-wide", href: authHref("signup", "/") }, "Create an account"),
        ),
      );
    } else {
      fill(
        forms,
        h(
          "section",
          { class: "card form-card join-card", "aria-labelledby": "own-heading" },
          h("h2", { id: "own-heading", class: "section-title" }, "Your own station"),
          h("p", { class: "muted" }, "Sign up and you're on the air: a free frequency, the DJ booth, and your friends first on the dial."),
          h(
            "div",
            { class: "join-actions" },
            h("a", { class: "btn btn-primary", href: authHref("signup", "/") }, "Sign up"),
            h("a", { class: "btn btn-secondary", href: authHref("login", "/") }, "Sign in"),
          ),
        ),
      );
    }
  }

  const el = h(
    "div",
    { class: "screen dial-screen" },
    h("h1", { class: "visually-hidden", tabindex: "-1" }, "Wavelength: the dial"),
    radio,
    h("div", { class: "dial-side" }, freqForm, notices),
    lists,
    forms,
  );

  // Behaviour.

  function selected() {
    return all.find((s) => s.id === selectedID) || null;
  }

  function step(delta) {
    if (!stations.length) return;
    const at = stations.findIndex((s) => s.id === selectedID);
    const index = at === -1 ? (delta > 0 ? -1 : 0) : at;
    select(stations[(index + delta + stations.length) % stations.length].id);
  }

  function select(id, { animate = true } = {}) {
    selectedID = id;
    renderReadout({ animate });
    for (const mark of marks.children) mark.classList.toggle("is-selected", mark.dataset.id === id);
  }

  function tuneIn(station = selected()) {
    if (station) location.hash = stationLink(station);
  }

  function placeNeedle(k) {
    needle.style.left = `calc(16px + (100% - 32px) * ${k.toFixed(4)})`;
  }

  function sweepTo(frequency, animate) {
    cancelAnimationFrame(sweepFrame);
    if (!frequency) {
      // No frequency to show: the needle rests where it was, dimmed.
      radio.classList.add("no-signal");
      radio.classList.remove("is-tuning");
      setText(freqNum, "—");
      shownFrequency = null;
      return;
    }
    radio.classList.remove("no-signal");
    const target = frequencyMHz(frequency);
    placeNeedle(bandPosition(target));
    const from = shownFrequency;
    shownFrequency = target;
    const decimals = frequencyDecimals(frequency);
    if (!animate || from === null || from === target || matchMedia("(prefers-reduced-motion: reduce)").matches) {
      setText(freqNum, frequency);
      return;
    }
    radio.classList.add("is-tuning");
    const t0 = performance.now();
    const frame = (t) => {
      const k = Math.min(1, (t - t0) / SWEEP_MS);
      const eased = 1 - Math.pow(1 - k, 3);
      setText(freqNum, (from + (target - from) * eased).toFixed(decimals));
      if (k < 1) sweepFrame = requestAnimationFrame(frame);
      else {
        setText(freqNum, frequency);
        radio.classList.remove("is-tuning");
      }
    };
    sweepFrame = requestAnimationFrame(frame);
  }

  function visibilityBadge(station, extra = "") {
    const vis = VISIBILITY[station.visibility];
    return vis ? h("span", { class: `vis-badge vis-${station.visibility}${extra}` }, vis.badge) : null;
  }

  function renderReadout({ animate = false } = {}) {
    const station = selected();
    if (!station) {
      radio.classList.remove("no-signal");
      setText(freqNum, "—");
      setText(readoutName, all.length ? "" : "No stations on the band yet");
      setText(readoutNow, all.length ? "" : session.isUser ? "Start a party below, or tune in to yours." : "Sign up below and you'll be on the air.");
      fill(readoutMeta);
      tuneButton.disabled = true;
      prevButton.disabled = nextButton.disabled = true;
      band.removeAttribute("aria-valuenow");
      band.setAttribute("aria-valuetext", "No stations");
      return;
    }
    tuneButton.disabled = false;
    prevButton.disabled = nextButton.disabled = stations.length < 2 && (stations.length === 0 || onBand(station));
    sweepTo(station.frequency, animate);
    setText(readoutName, station.name);
    const np = station.nowPlaying;
    setText(readoutNow, np ? `${np.title} — ${np.artist}` : station.onAir ? "Between songs" : "Quiet until someone tunes in");
    readoutNow.classList.toggle("is-quiet", !np);
    const own = isOwn(station);
    const joins = stationLink(station) !== stationHref(station.id);
    fill(
      readoutMeta,
      station.onAir ? h("span", { class: "onair-lamp" }, "On air") : h("span", { class: "offair-lamp" }, "Off air"),
      h("span", { class: "meta-item" }, icon("ear", { size: 16 }), listenersText(station.listeners)),
      own ? h("span", { class: "own-badge" }, station.role === "codj" ? "Co-DJ" : "Your station") : null,
      visibilityBadge(station),
    );
    const label = own ? "DJ booth" : joins ? "Join" : "Tune in";
    setText(tuneButton.querySelector(".tune-label"), label);
    const where = station.frequency ? ` on ${station.frequency} FM` : "";
    tuneButton.setAttribute("aria-label", `${own ? "Open the DJ booth of" : joins ? "Join" : "Tune in to"} ${station.name}${where}`);
    if (onBand(station)) {
      band.setAttribute("aria-valuenow", String(parseFloat(station.frequency)));
      band.setAttribute("aria-valuetext", `${station.frequency} FM, ${station.name}`);
    } else {
      band.removeAttribute("aria-valuenow");
      band.setAttribute("aria-valuetext", `${station.name}, no frequency`);
    }
  }

  function renderMarks() {
    fill(
      marks,
      stations.map((station) => {
        const mark = h("span", {
          class: `mark${station.onAir ? " is-live" : ""}${isOwn(station) ? " is-own" : ""}${station.id === selectedID ? " is-selected" : ""}`,
          dataset: { id: station.id },
          title: `${station.frequency} ${station.name}`,
        });
        mark.style.left = `${bandPosition(station.frequency) * 100}%`;
        return mark;
      }),
    );
  }

  function stationCard(station) {
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
          onfocus: () => select(station.id),
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

  function renderLists() {
    const focusedID = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.stationId : null;
    fill(
      lists,
      sections.map((section) => {
        const id = SECTION_IDS[section.kind] || `list-${section.kind}`;
        const title = section.kind === "own" && section.stations.length > 1 ? "Your stations" : SECTION_TITLES[section.kind] || "More stations";
        return h(
          "section",
          { class: `station-section section-${section.kind}`, "aria-labelledby": id, dataset: { kind: section.kind } },
          h("h2", { id, class: "section-title" }, section.kind === "following-live" ? h("span", { class: "section-lamp", "aria-hidden": "true" }) : null, title),
          h("ul", { class: "station-list" }, section.stations.map(stationCard)),
        );
      }),
      all.length
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

  function renderNotices(error) {
    fill(
      notices,
      libraryEmpty
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
            h("button", { class: "btn btn-small", type: "button", onclick: () => refresh() }, "Try again"),
          )
        : null,
    );
  }

  async function refresh({ first = false } = {}) {
    clearTimeout(refreshTimer);
    if (!first && document.hidden) {
      refreshTimer = setTimeout(() => refresh(), REFRESH_MS);
      return;
    }
    try {
      const [loaded, health] = await Promise.all([loadDial(), first ? api.health().catch(() => null) : null]);
      if (destroyed) return;
      if (health) libraryEmpty = health.tracks === 0;
      const seen = new Set();
      sections = loaded
        .map((section) => ({ ...section, stations: section.stations.filter((s) => s && s.id && !seen.has(s.id) && seen.add(s.id)) }))
        .filter((section) => section.stations.length);
      all = sections.flatMap((section) => section.stations);
      stations = all.filter(onBand);
      if (!all.some((s) => s.id === selectedID)) {
        selectedID = stations.length ? stations[0].id : all.length ? all[0].id : null;
        shownFrequency = null;
      }
      renderMarks();
      renderReadout({ animate: false });
      renderLists();
      renderNotices(null);
      el.dataset.state = "ready";
    } catch (error) {
      if (destroyed) return;
      renderNotices(error);
      if (!all.length) fill(lists);
      el.dataset.state = "error";
    }
    if (!destroyed) refreshTimer = setTimeout(() => refresh(), REFRESH_MS);
  }

  async function tuneToFrequency(event) {
    event.preventDefault();
    const normalized = parseFrequency(freqInput.value);
    setText(freqError, "");
    if (!normalized) {
      setText(freqError, "A frequency looks like 107.3.");
      return;
    }
    try {
      const station = await api.byFrequency(normalized);
      navigate(stationPath(station.id));
    } catch (error) {
      // Not a public station: it may be a private one that needs its access code.
      if (error.code === "not_found" || error.status === 404) navigate(["join", normalized]);
      else setText(freqError, error.message);
    }
  }

  async function startParty(event) {
    event.preventDefault();
    setText(partyError, "");
    const name = partyName.value.trim();
    if (!name) {
      setText(partyError, "Give your party a name.");
      partyName.focus();
      return;
    }
    try {
      const created = await api.createStation(name, "code");
      const station = created && created.station ? created.station : created;
      toast(`${station.name} is ready. Share its frequency and access code.`);
      navigate(stationPath(station.id, "settings"));
    } catch (error) {
      setText(partyError, error.status === 401 ? "Sign in first to start a party station." : error.message);
    }
  }

  band.addEventListener("keydown", (event) => {
    const keys = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
    if (event.key in keys) {
      event.preventDefault();
      step(keys[event.key]);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      if (stations.length) select(stations[event.key === "Home" ? 0 : stations.length - 1].id);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      tuneIn();
    }
  });

  // Dragging across the band moves the needle freely; letting go locks onto
  // the nearest station, like finding a signal.
  let dragging = false;
  const frequencyAt = (clientX) => {
    const rect = scale.getBoundingClientRect();
    const k = Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
    return BAND_MIN + k * (BAND_MAX - BAND_MIN);
  };
  const nearest = (f) =>
    stations.reduce((best, s) => (!best || Math.abs(parseFloat(s.frequency) - f) < Math.abs(parseFloat(best.frequency) - f) ? s : best), null);
  band.addEventListener("pointerdown", (event) => {
    if (!stations.length) return;
    dragging = true;
    band.setPointerCapture(event.pointerId);
    radio.classList.add("is-dragging");
    radio.classList.remove("no-signal");
    const f = frequencyAt(event.clientX);
    placeNeedle(bandPosition(f));
    setText(freqNum, f.toFixed(1));
  });
  band.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    const f = frequencyAt(event.clientX);
    placeNeedle(bandPosition(f));
    setText(freqNum, f.toFixed(1));
    const near = nearest(f);
    radio.classList.toggle("is-locked", Boolean(near && Math.abs(parseFloat(near.frequency) - f) < 0.25));
  });
  const endDrag = (event) => {
    if (!dragging) return;
    dragging = false;
    radio.classList.remove("is-dragging", "is-locked");
    const near = nearest(frequencyAt(event.clientX));
    shownFrequency = frequencyAt(event.clientX);
    if (near) select(near.id);
  };
  band.addEventListener("pointerup", endDrag);
  band.addEventListener("pointercancel", endDrag);

  const unsubscribe = session.onChange(() => {
    renderForms();
    refresh();
  });
  renderForms();
  refresh({ first: true });

  return {
    el,
    title: "Wavelength",
    update: (route) => route.path.length === 0,
    destroy() {
      destroyed = true;
      unsubscribe();
      clearTimeout(refreshTimer);
      cancelAnimationFrame(sweepFrame);
    },
  };
}
