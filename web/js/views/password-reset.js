// #/reset/TOKEN: a password reset link an administrator made. The page says
// whose password it sets, takes a new one (twice, so a slip doesn't lock
// them out again) and sends them to sign in. A used or expired link says so.

import { h, fill } from "../ui/dom.js";
import { request } from "../api/api.js";
import { session } from "../api/session.js";
import { navigate } from "../router.js";
import { toast } from "../ui/toast.js";
import { field, firstInvalid, formShell, glass, showServerError } from "./account-forms.js";

export function createPasswordResetView(route) {
  const token = (route.path[1] || "").slice(0, 128);
  const heading = h("h1", { class: "auth-title", tabindex: "-1" }, "A new password");
  const body = h("div", { class: "auth-body" }, h("p", { class: "muted", role: "status" }, "Reading the link…"));
  let alive = true;
  /** Whose password the link sets, once read. */
  let owner = null;

  const password = field({
    label: "New password",
    hint: "At least 8 characters.",
    id: "reset-password",
    type: "password",
    autocomplete: "new-password",
    minlength: "8",
    maxlength: "128",
    required: true,
  });
  const again = field({
    label: "The same again",
    id: "reset-again",
    type: "password",
    autocomplete: "new-password",
    maxlength: "128",
    required: true,
  });
  const fields = [password, again];
  const { form } = formShell({
    className: "reset-form",
    submitLabel: "Set my password",
    children: fields.map((f) => f.el),
    onSubmit: async ({ alert }) => {
      const bytes = new TextEncoder().encode(password.value).length;
      password.setError(bytes < 8 ? "Use at least 8 characters." : bytes > 72 ? "That's too long (72 bytes at most)." : "");
      again.setError(again.value !== password.value ? "The two don't match." : "");
      if (firstInvalid(fields)) return;
      try {
        await request("/api/auth/password-reset", { method: "POST", body: { token, newPassword: password.value } });
        // The server ended every session of theirs; this page's too, if it was one.
        if (owner && session.person && session.person.handle === owner.handle) await session.logOut().catch(() => {});
        toast("Your new password is set. Sign in with it.");
        navigate(["login"]);
      } catch (error) {
        showServerError(error, alert, { password });
      }
    },
  });
  for (const f of fields) f.input.addEventListener("input", () => f.setError(""));

  request(`/api/auth/password-reset/${encodeURIComponent(token)}`)
    .then((who) => {
      if (!alive) return;
      owner = who;
      fill(
        body,
        h("p", { class: "auth-lead" }, `Choose a new password for ${who.displayName} (@${who.handle}). Every device signed in with the old one is signed out.`),
        form,
      );
    })
    .catch((error) => {
      if (!alive) return;
      fill(
        body,
        h("div", { class: "signup-mode", dataset: { mode: "closed" }, role: "alert" },
          h("p", { class: "signup-mode-title" }, "This link doesn't work"),
          h("p", {}, (error && error.message) || "It can't be read just now.")),
        h("p", { class: "auth-switch" }, h("a", { href: "#/login" }, "Sign in")),
      );
    });

  return {
    el: h("section", { class: "screen auth-screen reset-screen" }, h("div", { class: "auth-card" }, glass("NEW PASSWORD"), heading, body)),
    title: "New password · Wavelength",
    focusTarget: () => heading,
    update: (next) => next.path[0] === "reset" && next.path[1] === route.path[1],
    destroy() {
      alive = false;
    },
  };
}
