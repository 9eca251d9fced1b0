// The account screens' form pieces, shared by sign up, sign in and the
// account screen's cards: a labelled field with its hint and inline error
// (a show toggle for passwords), a form that is busy while it submits, a
// server error routed to the field it is about, the first invalid field
// focused, the dial-glass strip over each form, and a refusal's words
// (with the wait from Retry-After). Every word goes in as text.

import { ApiError } from "../api/api.js";
import { h, setText } from "../ui/dom.js";
import { tryAgainText } from "../ui/wait-text.js";

let fieldCounter = 0;

export function errorText(error) {
  if (error instanceof ApiError && error.status === 429 && !/try again/i.test(error.message)) {
    return `${error.message} ${tryAgainText(error.retryAfter)}`.trim();
  }
  return error.message;
}

/**
 * A labelled input with a hint and its own inline error, wired with
 * aria-describedby and aria-invalid. Password fields get a show toggle.
 */
export function field({ label, hint, type = "text", prefix, ...attrs }) {
  const id = attrs.id || `f${++fieldCounter}`;
  const hintID = `${id}-hint`;
  const errorID = `${id}-error`;
  const input = h("input", {
    class: `input${prefix ? " input-prefixed" : ""}`,
    type,
    ...attrs,
    id,
    "aria-describedby": [hint ? hintID : null, errorID].filter(Boolean).join(" "),
  });
  const error = h("p", { class: "field-error", id: errorID });
  let toggle = null;
  if (type === "password") {
    toggle = h(
      "button",
      {
        class: "btn-reveal",
        type: "button",
        "aria-pressed": "false",
        "aria-controls": id,
        "aria-label": `Show ${label.toLowerCase()}`,
        onclick: () => {
          const shown = input.type === "password";
          input.type = shown ? "text" : "password";
          toggle.setAttribute("aria-pressed", String(shown));
          setText(toggle, shown ? "Hide" : "Show");
          input.focus();
        },
      },
      "Show",
    );
  }
  const wrap = h(
    "div",
    { class: "field" },
    h("label", { class: "label", for: id }, label),
    h(
      "div",
      { class: `field-box${toggle ? " has-reveal" : ""}${prefix ? " has-prefix" : ""}` },
      prefix ? h("span", { class: "field-prefix", "aria-hidden": "true" }, prefix) : null,
      input,
      toggle,
    ),
    hint ? h("p", { class: "field-hint", id: hintID }, hint) : null,
    error,
  );
  return {
    el: wrap,
    input,
    get value() {
      return input.value;
    },
    setError(text) {
      setText(error, text || "");
      if (text) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    },
  };
}

/** A form with fields, a submit button, and a form-level alert. */
export function formShell({ className = "", submitLabel, onSubmit, children }) {
  const alert = h("p", { class: "form-error form-alert", role: "alert" });
  const submit = h("button", { class: "btn btn-primary btn-wide", type: "submit" }, submitLabel);
  let busy = false;
  const form = h(
    "form",
    {
      class: `auth-form ${className}`,
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        if (busy) return;
        setText(alert, "");
        busy = true;
        submit.disabled = true;
        form.setAttribute("aria-busy", "true");
        try {
          await onSubmit({ alert });
        } finally {
          busy = false;
          submit.disabled = false;
          form.removeAttribute("aria-busy");
        }
      },
    },
    children,
    alert,
    submit,
  );
  return { form, alert, submit };
}

/** Routes a server error to the field it is about, or to the form. */
export function showServerError(error, alert, fieldsByWord) {
  const text = errorText(error);
  const code = String(error.code || "");
  for (const [word, f] of Object.entries(fieldsByWord)) {
    if (code.includes(word)) {
      f.setError(text);
      f.input.focus();
      return;
    }
  }
  setText(alert, text);
}

export function firstInvalid(fields) {
  const bad = fields.find((f) => f.input.getAttribute("aria-invalid") === "true");
  if (bad) bad.input.focus();
  return Boolean(bad);
}

/** The warm glass strip over each account form: a small dial with a needle. */
export function glass(caption) {
  return h(
    "div",
    { class: "auth-glass", "aria-hidden": "true" },
    h("span", { class: "auth-glass-scale" }),
    h("span", { class: "auth-glass-needle" }),
    h("span", { class: "auth-glass-caption" }, caption),
  );
}
