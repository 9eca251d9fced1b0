// DOM helpers. Everything from tags or users goes in as text nodes or
// attribute values, never as markup: this module has no innerHTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "Play"}, "text", child)
 * Strings and numbers become text nodes; null/false/undefined are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

function applyAttrs(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      el.className = value;
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (name === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (name === "text") {
      el.textContent = String(value);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** Sets textContent only when it changed (keeps screen readers quiet). */
export function setText(el, value) {
  const text = value === undefined || value === null ? "" : String(value);
  if (el.textContent !== text) el.textContent = text;
}

// Icons: fixed path data from this file, never from data.
const ICONS = {
  play: "M8 5v14l11-7z",
  stop: "M6 6h12v12H6z",
  pause: "M6 5h4v14H6zM14 5h4v14h-4z",
  skip: "M5 5l9 7-9 7zM16 5h3v14h-3z",
  prev: "M15 5l-8 7 8 7z",
  next: "M9 5l8 7-8 7z",
  back: "M15 5l-7 7 7 7",
  plus: "M12 5v14M5 12h14",
  check: "M5 12.5l4.5 4.5L19 7.5",
  close: "M6 6l12 12M18 6L6 18",
  up: "M12 6l-6 7h12z",
  down: "M12 18l-6-7h12z",
  drag: "M8 6h.01M16 6h.01M8 12h.01M16 12h.01M8 18h.01M16 18h.01",
  search: "M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM15.5 15.5L20 20",
  ear: "M8 10a4 4 0 1 1 8 0c0 2.5-2 3.2-2.6 4.6-.5 1.3-.3 2.4-1.4 3.4-1 .9-2.5.8-3.5-.1M10.5 10a1.5 1.5 0 0 1 3 0",
  disc: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4z",
  library: "M5 4v16M9 4v16M13 5l4 15M18.5 4.5l1 .3",
  key: "M14 10a4 4 0 1 0-3.5 4L12 15.5h2v2h2v2h3v-3l-5.5-5.5A4 4 0 0 0 14 10zM8.5 9.5h.01",
  radio: "M4 9h16v11H4zM7 9l10-5M8 16h.01M15 14.5a2 2 0 1 0 0-.01",
  calendar: "M5 6h14v14H5zM5 10h14M9 4v4M15 4v4",
  bell: "M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15zM10 20a2 2 0 0 0 4 0",
  mic: "M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM6 11a6 6 0 0 0 12 0M12 17v4M9 21h6",
  record: "M12 6a6 6 0 1 0 0 12 6 6 0 0 0 0-12z",
};
const FILLED = new Set(["play", "stop", "pause", "skip", "prev", "next", "up", "down", "record"]);

export function icon(name, { size = 24, label } = {}) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("class", `icon icon-${name}`);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", ICONS[name] || "");
  if (FILLED.has(name)) {
    path.setAttribute("fill", "currentColor");
  } else {
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", name === "drag" ? "3.2" : "2");
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
  }
  svg.append(path);
  return svg;
}

/** 83_500 → "1:23" */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms < 0) ms = 0;
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function listenersText(count) {
  const n = Number(count) || 0;
  return n === 1 ? "1 listening" : `${n} listening`;
}

/** Album art with a warm fallback when there is none or it fails to load. */
export function artwork(track, { size = "md", alt = "" } = {}) {
  const box = h("div", { class: `art art-${size}` });
  const fallback = () => {
    box.classList.add("art-fallback");
    box.replaceChildren(icon("disc", { size: size === "lg" ? 96 : 28 }));
  };
  if (track && track.artworkURL) {
    const img = h("img", { alt, loading: "lazy", decoding: "async", draggable: "false" });
    img.addEventListener("error", fallback, { once: true });
    img.src = track.artworkURL;
    box.append(img);
  } else {
    fallback();
  }
  return box;
}

/** A client-chosen id that works outside secure contexts too. */
export function randomID(prefix = "w") {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
