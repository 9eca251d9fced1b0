// A moderation queue: the DJ booth's (reports about the room's chat and
// clips) and the control room's (every report, with who made it). Each
// report shows what was reported as it was, why, the note, and the
// buttons the server says this moderator may press; pressing one asks
// for a note and closes it. Everything from users goes in as text.

import { h, fill, setText } from "../../ui/dom.js";
import { ACTION_WORDS, REASONS, reportsAPI } from "../../api/reports.js";

const REASON_WORDS = Object.fromEntries(REASONS);
const SUBJECT_WORDS = { chat: "Chat message", clip: "Voice clip", station: "Station", person: "Person" };

function when(ms) {
  return ms ? new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : "";
}

/**
 * @param {{ id: string, title: string, load: (status: string) => Promise<object[]>, empty: string, closed?: () => void }} options
 */
export function createReportQueue({ id, title, load, empty, closed = () => {} }) {
  const status = h("select", { id: `${id}-status`, class: "input select report-status" },
    h("option", { value: "open" }, "Waiting"),
    h("option", { value: "all" }, "All"),
  );
  const list = h("ul", { class: "report-list", "aria-labelledby": `${id}-title` });
  const line = h("p", { class: "hint report-line", role: "status" });
  const el = h(
    "section",
    { class: "panel report-queue", id, "aria-labelledby": `${id}-title` },
    h("div", { class: "report-queue-head" },
      h("h2", { id: `${id}-title`, class: "section-title" }, title),
      h("label", { for: `${id}-status`, class: "visually-hidden" }, "Which reports"),
      status,
    ),
    line,
    list,
  );
  const queue = { el, list, line, reports: [] };

  async function refresh() {
    try {
      queue.reports = await load(status.value);
      draw();
    } catch (error) {
      setText(line, `Couldn't load the reports: ${error.message || "try again later."}`);
    }
  }

  function draw() {
    setText(line, queue.reports.length ? "" : empty);
    fill(list, queue.reports.map(row));
  }

  function row(report) {
    const note = h("input", { class: "input report-close-note", type: "text", maxlength: "1000", placeholder: "A note for the record (optional)", "aria-label": "A note for the record" });
    const said = h("p", { class: "report-said", role: "status" });
    const buttons = report.actions.map((action) =>
      h(
        "button",
        {
          type: "button",
          class: `btn btn-small ${action === "dismiss" ? "btn-secondary" : "btn-danger-outline"} report-act`,
          dataset: { action },
          onclick: async (event) => {
            event.target.disabled = true;
            try {
              const closed = await reportsAPI.close(report.id, action, note.value);
              queue.reports = queue.reports.map((r) => (r.id === report.id ? closed : r));
              if (status.value === "open") queue.reports = queue.reports.filter((r) => r.status === "open");
              draw();
              setText(line, `Done: ${ACTION_WORDS[action].toLowerCase()}.`);
              closed();
            } catch (error) {
              event.target.disabled = false;
              setText(said, error.message || "That didn't work: try again.");
            }
          },
        },
        ACTION_WORDS[action] || action,
      ),
    );
    const about = [report.reportedName, report.stationName && `on ${report.stationName}`].filter(Boolean).join(" ");
    return h(
      "li",
      { class: `report-row is-${report.status}`, dataset: { reportId: report.id } },
      h("p", { class: "report-kind" },
        h("span", { class: "report-subject" }, SUBJECT_WORDS[report.subject] || report.subject),
        h("span", { class: "report-reason-tag" }, REASON_WORDS[report.reason] || report.reason),
        h("time", { class: "report-time", datetime: new Date(report.createdAt).toISOString() }, when(report.createdAt)),
      ),
      about ? h("p", { class: "report-about" }, about) : null,
      h("blockquote", { class: "report-content" }, report.content),
      report.hasEvidence ? h("audio", { class: "report-evidence", controls: true, preload: "none", src: reportsAPI.evidenceURL(report.id), "aria-label": "The reported clip" }) : null,
      report.note ? h("p", { class: "report-note-text" }, `“${report.note}”`) : null,
      report.reporterName ? h("p", { class: "hint report-by" }, `Reported by ${report.reporterName}`) : null,
      report.status === "open"
        ? h("div", { class: "report-actions" }, note, h("div", { class: "report-buttons" }, buttons), said)
        : h("p", { class: "report-closed" }, `${ACTION_WORDS[report.action] || report.action} · ${report.closedByName || ""}${report.closingNote ? `: ${report.closingNote}` : ""}`),
    );
  }

  status.addEventListener("change", refresh);
  Object.assign(queue, { refresh });
  return queue;
}
