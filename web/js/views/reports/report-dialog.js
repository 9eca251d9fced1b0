// "Report…": a modal <dialog> (focus stays inside, Esc closes) asking why,
// from a short list, with a note, and for a person "Also block them". It
// says who will read it and that the reported person is never told who
// reported. Names go in as text.

import { h, setText } from "../../ui/dom.js";
import { REASONS, reportsAPI, setBlocked } from "../../api/reports.js";
import { ErrorCode } from "../../api/error-codes.js";
import { toast } from "../../ui/toast.js";

let count = 0;

const WHO_READS = {
  chat: "The station's host and co-DJs, and the server's administrators, will see it.",
  clip: "The station's host and co-DJs, and the server's administrators, will hear it.",
  station: "The server's administrators will see it.",
  person: "The server's administrators will see it.",
};

/**
 * Opens the dialog for a report about `subject` (chat, clip, station,
 * person) `id` (with `stationID` for a chat message), named `name`;
 * `personID`, when given, may also be blocked. Resolves true once sent.
 */
export function openReportDialog({ subject, id, stationID = null, name, personID = null }) {
  return new Promise((resolve) => {
    count += 1;
    const base = `report-${count}`;
    const opener = document.activeElement;
    const finish = (sent) => {
      if (dialog.open) dialog.close();
      dialog.remove();
      if (opener && opener.isConnected) opener.focus({ preventScroll: true });
      resolve(sent);
    };
    const reasons = REASONS.map(([value, label], index) =>
      h(
        "label",
        { class: "report-reason" },
        h("input", { type: "radio", name: `${base}-reason`, value, checked: index === 0 }),
        h("span", {}, label),
      ),
    );
    const note = h("textarea", { id: `${base}-note`, class: "input report-note", rows: "3", maxlength: "1000", placeholder: "What happened? (optional)" });
    const alsoBlock = personID
      ? h("label", { class: "report-block" }, h("input", { type: "checkbox", class: "report-also-block" }), h("span", {}, `Also block ${name}: you won't see their messages or clips`))
      : null;
    const error = h("p", { class: "report-error", role: "alert" });
    const send = h("button", { class: "btn btn-primary report-send", type: "submit" }, "Send report");
    const cancel = h("button", { class: "btn btn-secondary report-cancel", type: "button", onclick: () => finish(false) }, "Cancel");
    const form = h(
      "form",
      { class: "report-form", novalidate: true },
      h("fieldset", { class: "report-reasons" }, h("legend", { class: "label" }, "Why?"), reasons),
      h("label", { for: `${base}-note`, class: "label" }, "A note for the moderators"),
      note,
      alsoBlock,
      h("p", { class: "hint report-privacy" }, `${WHO_READS[subject] || ""} ${name} is never told who reported.`),
      error,
      h("div", { class: "confirm-actions" }, cancel, send),
    );
    const dialog = h(
      "dialog",
      { class: "confirm-dialog report-dialog", "aria-labelledby": `${base}-title` },
      h("h2", { id: `${base}-title`, class: "confirm-title" }, `Report ${name}`),
      form,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const chosen = form.querySelector(`input[name="${base}-reason"]:checked`);
      send.disabled = true;
      setText(error, "");
      try {
        await reportsAPI.file({ subject, id, stationID: stationID || undefined, reason: chosen ? chosen.value : "other", note: note.value });
        if (alsoBlock && alsoBlock.querySelector("input").checked) await setBlocked(personID, true);
        finish(true);
        toast("Thanks: your report was sent to the moderators.");
      } catch (failure) {
        send.disabled = false;
        setText(
          error,
          failure.code === ErrorCode.signInRequired
            ? "Sign in, or join the station with a name, to report."
            : failure.message || "The report couldn't be sent: try again.",
        );
      }
    });
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish(false);
    });
    document.body.append(dialog);
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    const first = form.querySelector("input[type=radio]");
    if (first) first.focus();
  });
}
