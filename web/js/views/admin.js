// #/admin: the control room, for the server's administrators (made with
// `wavelength admin grant` on the host). Find a person and suspend them
// (every session ends, their stations go off the air, they're told why at
// sign-in) or lift it; who may sign up (admin-signups.js); below, the log
// of everything administrators did.
// Everything from people goes in as text.

import { h, fill, setText, icon } from "../ui/dom.js";
import { request } from "../api/api.js";
import { session } from "../api/session.js";
import { authHref } from "../router.js";
import { toast } from "../ui/toast.js";
import { share } from "../ui/share.js";
import { signupsPanel } from "./admin-signups.js";
import { glancePanel } from "./admin-glance.js";
import { createReportQueue } from "./reports/queue.js";
import { reportsAPI } from "../api/reports.js";
import { uploadsPanel, tagFixPanel, quotaForm } from "./admin-uploads.js";

const ACTIONS = {
  "grant-admin": "made an administrator",
  "revoke-admin": "no longer an administrator",
  suspend: "suspended",
  unsuspend: "reinstated",
  "scan-library": "asked for a full scan",
  "set-registration": "set",
  "approve-signup": "approved",
  "decline-signup": "declined",
  "make-invite": "made",
  "password-reset": "given a password reset link",
  "take-off-air": "taken off the air",
  "delete-station": "deleted",
  "hide-station": "hidden from the dial",
  "show-station": "back on the dial",
  "delete-person": "deleted",
  "delete-account": "deleted (by themselves)",
  "report-dismiss": ": report dismissed",
  "report-delete": ": reported content deleted",
  "report-mute": ": muted from a report",
  "report-ban": ": banned from a report",
  "report-suspend": ": suspended from a report",
  "remove-upload": ": upload removed",
  "set-upload-quota": ": upload quota set",
  "fix-tags": ": tags fixed",
};

/** What the library's rescans say, in words. */
function scanText(status) {
  if (!status.available) return "This server doesn't rescan its library while it runs (several nodes share it). Run `wavelength scan` on the host.";
  if (status.scanning) return `Scanning ${status.folders || "the"} folder${status.folders === 1 ? "" : "s"}…`;
  if (status.queued) return "A scan is about to start…";
  const last = status.last;
  if (!last) return "New music in the library folders shows up by itself within seconds. Scan now to check every file.";
  const changes = [`${last.added} added`, `${last.updated} updated`, `${last.moved} moved`, `${last.removed} removed`];
  if (last.failed) changes.push(`${last.failed} unreadable`);
  return `Last scan: ${changes.join(", ")}, in ${last.seconds.toFixed(1)} s.`;
}

function when(ms) {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function errorOf(error) {
  return (error && error.message) || "That didn't work; try again.";
}

/** The reason typed in `input`, or null (focused, with a word) when there is none: every action is logged with one. */
function reasonIn(input) {
  const why = input.value.trim();
  if (why) return why;
  input.focus();
  toast("Say why: it goes in the log.");
  return null;
}

export function createAdminView() {
  let destroyed = false;
  let timer = null;
  let lastQuery = "";

  const heading = h("h1", { class: "screen-title", tabindex: "-1" }, "The control room");
  const notice = h("div", { class: "admin-notice" });
  const input = h("input", {
    id: "admin-search",
    class: "input input-search",
    type: "search",
    autocomplete: "off",
    autocapitalize: "none",
    spellcheck: "false",
    enterkeyhint: "search",
    maxlength: "40",
    placeholder: "Name or @handle",
    "aria-describedby": "admin-status",
    "aria-controls": "admin-results",
  });
  const status = h("p", { class: "lib-status", id: "admin-status", role: "status", "aria-live": "polite" });
  const results = h("ul", { class: "admin-people", id: "admin-results", "aria-label": "People found" });
  const log = h("ol", { class: "admin-log", "aria-label": "What administrators did, newest first" });
  const logStatus = h("p", { class: "lib-status", role: "status", "aria-live": "polite" });

  const peoplePanel = h(
    "section",
    { class: "admin-panel", "aria-labelledby": "admin-people-heading" },
    h("h2", { class: "section-title", id: "admin-people-heading" }, "People"),
    h(
      "form",
      { class: "people-search", role: "search", onsubmit: (e) => (e.preventDefault(), search(true)) },
      h("label", { class: "label", for: "admin-search" }, "Find anyone with an account"),
      h("div", { class: "search-field" }, icon("search", { size: 20 }), input),
    ),
    status,
    results,
  );
  const logPanel = h(
    "section",
    { class: "admin-panel", "aria-labelledby": "admin-log-heading" },
    h("h2", { class: "section-title", id: "admin-log-heading" }, "The log"),
    h("p", { class: "muted" }, "Who did what, to whom, when and why. Nothing here can be changed."),
    logStatus,
    log,
  );
  const scanStatus = h("p", { class: "admin-scan-status", role: "status", "aria-live": "polite" });
  const scanButton = h("button", { class: "btn btn-secondary btn-small admin-scan", type: "button", onclick: () => scanNow() }, "Scan now");
  const libraryPanel = h(
    "section",
    { class: "admin-panel", "aria-labelledby": "admin-library-heading" },
    h("h2", { class: "section-title", id: "admin-library-heading" }, "The library"),
    scanStatus,
    scanButton,
  );
  let scanTimer = null;

  async function showScan(status) {
    if (destroyed) return;
    setText(scanStatus, scanText(status));
    scanButton.disabled = !status.available || status.scanning || status.queued;
    clearTimeout(scanTimer);
    // While a scan runs, its progress is asked for once a second.
    if (status.scanning || status.queued) scanTimer = setTimeout(loadScan, 1000);
  }

  async function loadScan() {
    try {
      showScan(await request("/api/admin/library"));
    } catch (error) {
      if (!destroyed && error.status !== 401 && error.status !== 403) setText(scanStatus, errorOf(error));
    }
  }

  async function scanNow() {
    scanButton.disabled = true;
    try {
      showScan(await request("/api/admin/library/scan", { method: "POST" }));
      loadLog();
    } catch (error) {
      scanButton.disabled = false;
      toast(errorOf(error));
    }
  }

  const signups = signupsPanel({ changed: () => loadLog(), alive: () => !destroyed });
  const glance = glancePanel({ alive: () => !destroyed });
  // Every report on the server, with who made it.
  const reports = createReportQueue({
    id: "admin-reports",
    title: "Reports",
    load: (status) => reportsAPI.admin(status),
    empty: "No reports waiting.",
    closed: () => loadLog(),
  });

  const music = uploadsPanel({ alive: () => !destroyed, changed: () => loadLog() });
  const tagFix = tagFixPanel({ alive: () => !destroyed, changed: () => loadLog() });

  const el = h(
    "section",
    { class: "screen admin-screen" },
    h("p", { class: "admin-caption", "aria-hidden": "true" }, "ON THE DESK"),
    heading,
    h("p", { class: "muted lead" }, "Keep the airwaves friendly. Every action here is written to the log with your reason."),
    notice,
    glance.el,
    h("div", { class: "admin-grid" }, h("div", { class: "admin-col" }, reports.el, peoplePanel, signups.el, libraryPanel, music.el, tagFix.el), logPanel),
  );

  function refuse(error) {
    const text =
      error && error.status === 401
        ? "Sign in with an administrator's account to open the control room."
        : "Only the server's administrators can open the control room. The host makes one with `wavelength admin grant HANDLE`.";
    fill(
      notice,
      h(
        "div",
        { class: "notice notice-error", role: "alert" },
        h("p", {}, text),
        error && error.status === 401 ? h("p", {}, h("a", { class: "btn btn-primary btn-small", href: authHref("login") }, "Sign in")) : null,
      ),
    );
    peoplePanel.hidden = true;
    glance.el.hidden = true;
    signups.el.hidden = true;
    reports.el.hidden = true;
    libraryPanel.hidden = true;
    music.el.hidden = true;
    tagFix.el.hidden = true;
    logPanel.hidden = true;
  }

  async function loadLog() {
    try {
      const entries = await request("/api/admin/audit?limit=50");
      if (destroyed) return;
      setText(logStatus, entries.length ? "" : "Nothing yet.");
      fill(log, ...entries.map(logLine));
    } catch (error) {
      if (destroyed) return;
      if (error.status === 401 || error.status === 403) refuse(error);
      else setText(logStatus, errorOf(error));
    }
  }

  function logLine(entry) {
    return h(
      "li",
      { class: "admin-log-line", dataset: { action: entry.action } },
      h("time", { class: "admin-log-time", datetime: new Date(entry.at).toISOString() }, when(entry.at)),
      h(
        "span",
        { class: "admin-log-what" },
        h("strong", {}, entry.actorName),
        ` · ${entry.subjectName} ${ACTIONS[entry.action] || entry.action}`,
      ),
      h("span", { class: "admin-log-why" }, `“${entry.reason}”`),
    );
  }

  function personRow(view) {
    const person = view.person;
    const suspended = view.suspendedAt != null;
    const reason = h("input", {
      class: "input admin-reason",
      type: "text",
      maxlength: "500",
      required: true,
      "aria-label": `Why ${suspended ? "reinstate" : "suspend"} ${person.displayName}`,
      placeholder: suspended ? "Why reinstate them?" : "Why? They'll be told.",
    });
    const act = h(
      "button",
      { class: `btn btn-small ${suspended ? "btn-secondary" : "btn-danger"} admin-act`, type: "submit" },
      suspended ? "Reinstate" : "Suspend",
    );
    const form = h(
      "form",
      {
        class: "admin-action",
        onsubmit: async (e) => {
          e.preventDefault();
          const why = reasonIn(reason);
          if (!why) return;
          act.disabled = true;
          try {
            const updated = await request(`/api/admin/people/${encodeURIComponent(person.id)}/${suspended ? "unsuspend" : "suspend"}`, {
              method: "POST",
              body: { reason: why },
            });
            if (destroyed) return;
            row.replaceWith(personRow(updated));
            toast(updated.suspendedAt != null ? `${person.displayName} is suspended.` : `${person.displayName} is reinstated.`);
            loadLog();
          } catch (error) {
            act.disabled = false;
            toast(errorOf(error));
          }
        },
      },
      reason,
      act,
    );
    const row = h(
      "li",
      { class: `admin-person${suspended ? " is-suspended" : ""}`, dataset: { personId: person.id } },
      h(
        "div",
        { class: "admin-person-who" },
        h("span", { class: "admin-person-name" }, person.displayName),
        h("span", { class: "admin-person-handle" }, person.handle ? `@${person.handle}` : "guest"),
        view.isAdministrator ? h("span", { class: "admin-badge" }, "Administrator") : null,
      ),
      h(
        "p",
        { class: "admin-person-state" },
        suspended ? `Suspended since ${when(view.suspendedAt)}: “${view.suspensionReason || ""}”` : "In good standing",
      ),
      person.id === session.person?.id ? h("p", { class: "muted" }, "That's you.") : form,
      person.kind === "user" && person.id !== session.person?.id ? resetLink(person) : null,
      stationsAndSessions(person),
    );
    return row;
  }

  /** A person's stations (each can be taken off the air) and sessions, read when opened. */
  function stationsAndSessions(person) {
    const body = h("div", { class: "admin-detail-body", role: "status", "aria-live": "polite" });
    const load = async () => {
      try {
        const detail = await request(`/api/admin/people/${encodeURIComponent(person.id)}`);
        if (destroyed) return;
        const n = detail.sessions.length;
        fill(
          body,
          h("p", { class: "muted" }, n ? `Signed in on ${n} device${n === 1 ? "" : "s"} (newest ${when(detail.sessions[0].createdAt)}).` : "Not signed in anywhere."),
          detail.stations.length
            ? h("ul", { class: "admin-stations", "aria-label": `${person.displayName}'s stations` },
                ...detail.stations.map((station) => stationLine(station, (detail.hiddenStations || []).includes(station.id))))
            : h("p", { class: "muted" }, "No stations."),
          person.kind === "user" ? quotaForm(person, { changed: () => loadLog() }) : null,
          person.id === session.person?.id ? null : deletePerson(person),
        );
      } catch (error) {
        if (!destroyed) setText(body, errorOf(error));
      }
    };
    const stationLine = (station, hidden) => {
      const reason = h("input", { class: "input admin-reason", type: "text", maxlength: "500", "aria-label": `Why take ${station.name} off the air`, placeholder: "Why? (for the log)" });
      const off = h(
        "form",
        {
          class: "admin-action",
          onsubmit: async (e) => {
            e.preventDefault();
            const why = reasonIn(reason);
            if (!why) return;
            try {
              await request(`/api/admin/stations/${encodeURIComponent(station.id)}/off-air`, { method: "POST", body: { reason: why } });
              toast(`${station.name} is off the air.`);
              loadLog();
              load();
            } catch (error) {
              toast(errorOf(error));
            }
          },
        },
        reason,
        station.listeners > 0 ? h("button", { class: "btn btn-secondary btn-small admin-off-air", type: "submit" }, "Take off the air") : null,
        hideButton(station, hidden, reason),
        deleteButton(station, reason),
      );
      return h(
        "li",
        { class: "admin-station", dataset: { stationId: station.id } },
        h("span", { class: "admin-station-name" }, station.name),
        h("span", { class: "admin-station-state" }, `${station.frequency ? `${station.frequency} FM · ` : ""}${station.listeners} listening${hidden ? " · hidden from the dial" : ""}`),
        off,
      );
    };
    // Off the dial and every listing (it still plays by its link), or back on it.
    const hideButton = (station, hidden, reason) =>
      h(
        "button",
        {
          class: "btn btn-secondary btn-small admin-hide-station",
          type: "button",
          onclick: async () => {
            const why = reasonIn(reason);
            if (!why) return;
            try {
              await request(`/api/admin/stations/${encodeURIComponent(station.id)}/${hidden ? "show" : "hide"}`, { method: "POST", body: { reason: why } });
              toast(hidden ? `${station.name} is back on the dial.` : `${station.name} is hidden from the dial.`);
              loadLog();
              load();
            } catch (error) {
              toast(errorOf(error));
            }
          },
        },
        hidden ? "Show on the dial" : "Hide from the dial",
      );
    // A person deleted for good: asked twice, with a reason for the log.
    const deletePerson = (person) => {
      const reason = h("input", { class: "input admin-reason", type: "text", maxlength: "500", "aria-label": `Why delete ${person.displayName}`, placeholder: "Why? (for the log)" });
      const button = h("button", { class: "btn btn-danger btn-small admin-delete-person", type: "button" }, `Delete ${person.displayName}`);
      button.addEventListener("click", async () => {
        const why = reasonIn(reason);
        if (!why) return;
        if (button.dataset.armed !== "true") {
          button.dataset.armed = "true";
          setText(button, "Delete them and everything of theirs?");
          return;
        }
        button.disabled = true;
        try {
          await request(`/api/admin/people/${encodeURIComponent(person.id)}/delete`, { method: "POST", body: { reason: why } });
          toast(`${person.displayName} is deleted.`);
          const row = body.closest(".admin-person");
          if (row) row.remove();
          loadLog();
        } catch (error) {
          button.disabled = false;
          toast(errorOf(error));
        }
      });
      return h("div", { class: "admin-action admin-delete-person-row" }, reason, button);
    };
    // Two presses: the first asks, the second deletes (nothing is kept).
    const deleteButton = (station, reason) => {
      const button = h("button", { class: "btn btn-danger btn-small admin-delete-station", type: "button" }, "Delete station");
      button.addEventListener("click", async () => {
        const why = reasonIn(reason);
        if (!why) return;
        if (button.dataset.armed !== "true") {
          button.dataset.armed = "true";
          setText(button, "Delete for good?");
          return;
        }
        button.disabled = true;
        try {
          await request(`/api/admin/stations/${encodeURIComponent(station.id)}/delete`, { method: "POST", body: { reason: why } });
          toast(`${station.name} is deleted.`);
          loadLog();
          load();
        } catch (error) {
          button.disabled = false;
          toast(errorOf(error));
        }
      });
      return button;
    };
    return h(
      "details",
      { class: "admin-detail", ontoggle: (e) => e.currentTarget.open && load() },
      h("summary", {}, "Stations and sessions"),
      body,
    );
  }

  /** "Password reset link": made on request, shown once, to copy or share. */
  function resetLink(person) {
    const out = h("div", { class: "admin-reset-link", role: "status", "aria-live": "polite" });
    const button = h(
      "button",
      {
        class: "btn btn-secondary btn-small admin-reset",
        type: "button",
        "aria-label": `Make a password reset link for ${person.displayName}`,
        onclick: async () => {
          button.disabled = true;
          try {
            const link = await request(`/api/admin/people/${encodeURIComponent(person.id)}/password-reset`, { method: "POST" });
            if (destroyed) return;
            const url = new URL(link.url, location.href).href;
            const field = h("input", { class: "input invite-link", type: "text", readonly: true, value: url, "aria-label": `${person.displayName}'s reset link` });
            fill(
              out,
              h("p", { class: "invite-made-title" }, "Send this to them: it works once, for a day, and is shown only now."),
              h("div", { class: "invite-link-row" }, field,
                h("button", { class: "btn btn-secondary btn-small", type: "button", onclick: () => share({ title: "Your Wavelength password reset", url, select: field }) }, "Copy or share")),
            );
            loadLog();
          } catch (error) {
            toast(errorOf(error));
          } finally {
            button.disabled = false;
          }
        },
      },
      "Password reset link",
    );
    return h("div", { class: "admin-reset-row" }, button, out);
  }

  async function search(now = false) {
    clearTimeout(timer);
    const query = input.value.trim().replace(/^@/, "");
    if (!now && query === lastQuery) return;
    lastQuery = query;
    if (!query) {
      setText(status, "Type a name or a handle.");
      fill(results);
      return;
    }
    try {
      const found = await request(`/api/admin/people?q=${encodeURIComponent(query)}`);
      if (destroyed || query !== lastQuery) return;
      setText(status, found.length ? `${found.length} found.` : `Nobody matches “${query}”.`);
      fill(results, ...found.map(personRow));
    } catch (error) {
      if (destroyed) return;
      if (error.status === 401 || error.status === 403) refuse(error);
      else setText(status, errorOf(error));
    }
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => search(), 200);
  });
  setText(status, "Type a name or a handle.");
  loadLog();
  reports.refresh();
  loadScan();

  return {
    el,
    title: "Control room · Wavelength",
    focusTarget: () => heading,
    update: (next) => next.path[0] === "admin",
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      clearTimeout(scanTimer);
      glance.stop();
    },
  };
}
