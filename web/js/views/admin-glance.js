// The control room's "At a glance": what's on the air, who listens, how
// hard the machine works, how full the disk is, and the log's last
// warnings. Asked for again every 10 s while the room is open. The log's
// words go in as text.

import { h, fill, setText } from "../ui/dom.js";
import { request } from "../api/api.js";

function bytes(n) {
  if (n == null) return "measuring…";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v < 10 && i > 0 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

function duration(seconds) {
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}

/** A tile: a figure, what it is, and a meter when it has a share (0–1). */
function tile(key, label, figure, detail, share) {
  return h(
    "li",
    { class: "glance-tile", dataset: { figure: key } },
    h("span", { class: "glance-label" }, label),
    h("span", { class: "glance-figure" }, figure),
    detail ? h("span", { class: "glance-detail" }, detail) : null,
    share == null
      ? null
      : h("span", { class: "glance-meter", role: "presentation" }, h("span", { class: "glance-level", style: { width: `${Math.round(Math.min(1, Math.max(0, share)) * 100)}%` } })),
  );
}

export function glancePanel({ alive }) {
  const tiles = h("ul", { class: "glance-tiles", "aria-label": "The server now" });
  const warnings = h("ol", { class: "glance-warnings", "aria-label": "The log's last warnings, newest first" });
  const status = h("p", { class: "lib-status", role: "status", "aria-live": "polite" });
  let timer = null;

  function show(o) {
    const cpu = o.cpuPercent == null ? "—" : `${Math.round(o.cpuPercent)} %`;
    fill(
      tiles,
      tile("on-air", "On the air", String(o.stationsOnAir), `of ${o.stations} stations`),
      tile("listeners", "Listening", String(o.listeners), `${o.appListeners} in the app · ${o.streamListeners} on the stream`),
      tile("live", "Live sources", String(o.liveSources), o.liveSources === 1 ? "DJ on the air" : "DJs on the air"),
      tile("cpu", "CPU", cpu, `${o.cores} core${o.cores === 1 ? "" : "s"}`, o.cpuPercent == null ? null : o.cpuPercent / (100 * o.cores)),
      tile("memory", "Memory", bytes(o.memoryBytes), "the server's own"),
      tile("disk", "Disk", bytes(o.dataFolderBytes), `data folder · library ${bytes(o.libraryBytes)}`),
      tile("analysis", "Songs measured", `${o.tracksAnalyzed} / ${o.tracks}`, "loudness and tempo", o.tracks ? o.tracksAnalyzed / o.tracks : null),
      tile("people", "People", String(o.people), o.waitingSignups ? `${o.waitingSignups} waiting for approval` : "with accounts"),
      tile("uptime", "On for", duration(o.uptimeSeconds), "since the last start"),
    );
    setText(status, o.warnings.length ? "" : "No warnings in the log since the server started.");
    fill(
      warnings,
      ...o.warnings.map((w) =>
        h(
          "li",
          { class: `glance-warning is-${w.level}` },
          h("time", { datetime: new Date(w.at).toISOString() }, new Date(w.at).toLocaleTimeString()),
          h("span", { class: "glance-warning-text" }, w.message),
        ),
      ),
    );
  }

  async function load() {
    clearTimeout(timer);
    try {
      const overview = await request("/api/admin/overview");
      if (!alive()) return;
      show(overview);
    } catch (error) {
      if (!alive() || error.status === 401 || error.status === 403) return;
      setText(status, (error && error.message) || "The figures can't be read just now.");
    }
    if (alive()) timer = setTimeout(load, 10_000);
  }
  load();

  const el = h(
    "section",
    { class: "admin-panel glance-panel", "aria-labelledby": "admin-glance-heading" },
    h("h2", { class: "section-title", id: "admin-glance-heading" }, "At a glance"),
    tiles,
    h("h3", { class: "admin-subtitle" }, "Warnings from the log"),
    status,
    warnings,
  );
  return { el, stop: () => clearTimeout(timer) };
}
