// Small pieces the settings panels share: a modal confirmation, a <select>
// of choices, a status line each panel speaks through, and the words for a
// failed request.

import { ApiError } from "../../api/api.js";
import { h, setText } from "../../ui/dom.js";

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

/** A <select> of `options` ({value, label}) with `value` chosen. */
export function select(id, options, value = "") {
  return h(
    "select",
    { id, class: "input select" },
    options.map((o) => h("option", { value: o.value, selected: o.value === value }, o.label)),
  );
}

/** A panel's status line, read out politely. */
export function status(id) {
  return h("p", { class: "settings-status", id, role: "status", "aria-live": "polite" });
}

/** Says `text` on a status line; `kind` "error" shows it as one. */
export function say(el, text, kind = "ok") {
  el.dataset.kind = kind;
  setText(el, text);
}

export function errorText(error) {
  if (error instanceof ApiError || (error && error.message)) return error.message;
  return "Something went wrong.";
}
