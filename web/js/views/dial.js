// The dial: an FM band with every station as a mark, a needle you move
// between them (buttons, arrow keys, dragging), a glowing readout, and the
// station list below (yours first, then the live ones, then the rest).

import { api, checkOwnerKey, ApiError } from "../api.js";
import { h, fill, setText, icon, listenersText } from "../dom.js";
import { ownerKeys } from "../keys.js";
import { navigate, stationHref, stationPath } from "../router.js";
import { loadStations, bandPosition, BAND_MIN, BAND_MAX, isOwn } from "../stations.js";
import { toast } from "../toast.js";

const REFRESH_MS = 5000;
const SWEEP_MS = 420;

export function createDialView() {
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

  // Start a station / claim one with a key.
  const nameInput = h("input", { id: "new-station-name", class: "input", type: "text", maxlength: "80", required: true, placeholder: "Night Drive", autocomplete: "off" });
  const ownerInput = h("input", { id: "new-station-owner", class: "input", type: "text", maxlength: "80", placeholder: "optional", autocomplete: "nickname" });
  const createError = h("p", { class: "form-error", role: "status" });
  const createForm = h(
    "form",
    { class: "card form-card", onsubmit: (e) => createStation(e), "aria-labelledby": "create-heading" },
    h("h2", { id: "create-heading", class: "section-title" }, "Start your station"),
    h("p", { class: "muted" }, "Pick a name; you get a free frequency and the DJ booth."),
    h("label", { for: "new-station-name", class: "label" }, "Station name"),
    nameInput,
    h("label", { for: "new-station-owner", class: "label" }, "Your name"),
    ownerInput,
    h("button", { class: "btn btn-primary btn-wide", type: "submit" }, "Go on the air"),
    createError,
  );

  const claimStation = h("input", { id: "claim-station", class: "input", type: "text", placeholder: "92.5 or station id", autocomplete: "off", required: true });
  const claimKey = h("input", { id: "claim-key", class: "input", type: "password", autocomplete: "off", required: true, placeholder: "64 hex digits" });
  const claimError = h("p", { class: "form-error", role: "status" });
  const claimForm = h(
    "details",
    { class: "card form-card claim" },
    h("summary", { class: "summary" }, icon("key", { size: 20 }), "I have an owner key"),
    h(
      "form",
      { onsubmit: (e) => claim(e) },
      h("label", { for: "claim-station", class: "label" }, "Frequency or station id"),
      claimStation,
      h("label", { for: "claim-key", class: "label" }, "Owner key"),
      claimKey,
      h("button", { class: "btn btn-secondary btn-wide", type: "submit" }, "Open the DJ booth"),
      claimError,
    ),
  );

  const el = h(
    "div",
    { class: "screen dial-screen" },
    h("h1", { class: "visually-hidden", tabindex: "-1" }, "Wavelength: the dial"),
    radio,
    h("div", { class: "dial-side" }, freqForm, notices),
    lists,
    h("div", { class: "dial-forms" }, createForm, claimForm),
  );

  // Behaviour.

  function selected() {
    return stations.find((s) => s.id === selectedID) || null;
  }

  function step(delta) {
    if (!stations.length) return;
    const index = Math.max(0, stations.findIndex((s) => s.id === selectedID));
    select(stations[(index + delta + stations.length) % stations.length].id);
  }

  function select(id, { animate = true } = {}) {
    selectedID = id;
    renderReadout({ animate });
    for (const mark of marks.children) mark.classList.toggle("is-selected", mark.dataset.id === id);
  }

  function tuneIn(station = selected()) {
    if (station) navigate(stationPath(station.id));
  }

  function placeNeedle(k) {
    needle.style.left = `calc(16px + (100% - 32px) * ${k.toFixed(4)})`;
  }

  function sweepTo(frequency, animate) {
    const target = parseFloat(frequency);
    cancelAnimationFrame(sweepFrame);
    placeNeedle(bandPosition(target));
    const from = shownFrequency;
    shownFrequency = target;
    const decimals = String(frequency).includes(".") ? String(frequency).split(".")[1].length : 1;
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

  function renderReadout({ animate = false } = {}) {
    const station = selected();
    if (!station) {
      setText(freqNum, "—");
      setText(readoutName, stations.length ? "" : "No stations on the band yet");
      setText(readoutNow, stations.length ? "" : "Start one below and you'll be the first.");
      fill(readoutMeta);
      tuneButton.disabled = true;
      prevButton.disabled = nextButton.disabled = true;
      band.setAttribute("aria-valuetext", "No stations");
      return;
    }
    tuneButton.disabled = false;
    prevButton.disabled = nextButton.disabled = stations.length < 2;
    sweepTo(station.frequency, animate);
    setText(readoutName, station.name);
    const np = station.nowPlaying;
    setText(readoutNow, np ? `${np.title} — ${np.artist}` : station.onAir ? "Between songs" : "Quiet until someone tunes in");
    readoutNow.classList.toggle("is-quiet", !np);
    const own = isOwn(station.id);
    fill(
      readoutMeta,
      station.onAir ? h("span", { class: "onair-lamp" }, "On air") : h("span", { class: "offair-lamp" }, "Off air"),
      h("span", { class: "meta-item" }, icon("ear", { size: 16 }), listenersText(station.listeners)),
      own ? h("span", { class: "own-badge" }, "Your station") : null,
    );
    setText(tuneButton.querySelector(".tune-label"), own ? "DJ booth" : "Tune in");
    tuneButton.setAttribute("aria-label", `${own ? "Open the DJ booth of" : "Tune in to"} ${station.name} on ${station.frequency} FM`);
    band.setAttribute("aria-valuenow", String(parseFloat(station.frequency)));
    band.setAttribute("aria-valuetext", `${station.frequency} FM, ${station.name}`);
  }

  function renderMarks() {
    fill(
      marks,
      stations.map((station) => {
        const mark = h("span", {
          class: `mark${station.onAir ? " is-live" : ""}${isOwn(station.id) ? " is-own" : ""}${station.id === selectedID ? " is-selected" : ""}`,
          dataset: { id: station.id },
          title: `${station.frequency} ${station.name}`,
        });
        mark.style.left = `${bandPosition(station.frequency) * 100}%`;
        return mark;
      }),
    );
  }

  function stationCard(station) {
    const own = isOwn(station.id);
    const np = station.nowPlaying;
    return h(
      "li",
      {},
      h(
        "a",
        {
          class: `station-card${station.onAir ? " is-live" : ""}${own ? " is-own" : ""}`,
          href: stationHref(station.id),
          dataset: { stationId: station.id, frequency: station.frequency },
          "aria-label": `${station.frequency} FM, ${station.name}${own ? ", your station" : ""}${station.onAir ? ", on air" : ""}${np ? `, playing ${np.title} by ${np.artist}` : ""}, ${listenersText(station.listeners)}`,
          onfocus: () => select(station.id),
        },
        h("span", { class: "card-freq" }, station.frequency),
        h(
          "span",
          { class: "card-body" },
          h("span", { class: "card-name" }, station.name),
          h("span", { class: "card-owner" }, own ? "Your station · DJ booth" : `by ${station.owner}`),
          h("span", { class: `card-now${np ? "" : " is-quiet"}` }, np ? `${np.title} — ${np.artist}` : station.onAir ? "Between songs" : "Quiet"),
        ),
        h(
          "span",
          { class: "card-side" },
          station.onAir ? h("span", { class: "onair-lamp small" }, "On air") : null,
          h("span", { class: "card-listeners" }, icon("ear", { size: 16 }), String(station.listeners)),
        ),
      ),
    );
  }

  function renderLists() {
    const mine = stations.filter((s) => isOwn(s.id));
    const live = stations.filter((s) => !isOwn(s.id) && s.onAir);
    const quiet = stations.filter((s) => !isOwn(s.id) && !s.onAir);
    const section = (title, items, id) =>
      items.length
        ? h(
            "section",
            { class: "station-section", "aria-labelledby": id },
            h("h2", { id, class: "section-title" }, title),
            h("ul", { class: "station-list" }, items.map(stationCard)),
          )
        : null;
    const focusedID = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.stationId : null;
    fill(
      lists,
      section(mine.length > 1 ? "Your stations" : "Your station", mine, "list-mine"),
      section("On the air", live, "list-live"),
      section("Off the air", quiet, "list-quiet"),
      stations.length ? null : h("p", { class: "empty" }, "No stations yet. Start the first one below."),
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
      const [list, health] = await Promise.all([loadStations(), first ? api.health().catch(() => null) : null]);
      if (destroyed) return;
      if (health) libraryEmpty = health.tracks === 0;
      stations = list;
      if (!stations.some((s) => s.id === selectedID)) {
        selectedID = stations.length ? stations[0].id : null;
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
      if (!stations.length) fill(lists);
      el.dataset.state = "error";
    }
    if (!destroyed) refreshTimer = setTimeout(() => refresh(), REFRESH_MS);
  }

  async function tuneToFrequency(event) {
    event.preventDefault();
    const code = freqInput.value.trim().replace(/\s*fm$/i, "").replace(",", ".");
    setText(freqError, "");
    if (!/^\d{2,3}(\.\d{1,2})?$/.test(code)) {
      setText(freqError, "A frequency looks like 107.3.");
      return;
    }
    const normalized = code.includes(".") ? code : `${code}.0`;
    try {
      const station = await api.byFrequency(normalized);
      navigate(stationPath(station.id));
    } catch (error) {
      setText(freqError, error.code === "not_found" || error.status === 404 ? `Nothing is broadcasting on ${normalized}.` : error.message);
    }
  }

  async function createStation(event) {
    event.preventDefault();
    setText(createError, "");
    const name = nameInput.value.trim();
    if (!name) {
      setText(createError, "Give your station a name.");
      nameInput.focus();
      return;
    }
    try {
      const { station, ownerKey } = await api.createStation(name, ownerInput.value.trim() || undefined);
      ownerKeys.set(station.id, ownerKey);
      toast(`${station.name} is yours, on ${station.frequency} FM.`);
      navigate(stationPath(station.id));
    } catch (error) {
      setText(createError, error.message);
    }
  }

  async function claim(event) {
    event.preventDefault();
    setText(claimError, "");
    const which = claimStation.value.trim();
    const key = claimKey.value.trim();
    if (!which || !key) {
      setText(claimError, "Both fields are needed.");
      return;
    }
    try {
      const station = /^\d{2,3}(\.\d{1,2})?$/.test(which) ? await api.byFrequency(which) : await api.station(which);
      if (!(await checkOwnerKey(station.id, key))) {
        setText(claimError, `That key doesn't open ${station.name}.`);
        return;
      }
      ownerKeys.set(station.id, key);
      toast(`The DJ booth of ${station.name} is yours on this device.`);
      navigate(stationPath(station.id));
    } catch (error) {
      setText(claimError, error instanceof ApiError && error.status === 404 ? `No station ${which}.` : error.message);
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

  refresh({ first: true });

  return {
    el,
    title: "Wavelength",
    update: (route) => route.path.length === 0,
    destroy() {
      destroyed = true;
      clearTimeout(refreshTimer);
      cancelAnimationFrame(sweepFrame);
    },
  };
}
