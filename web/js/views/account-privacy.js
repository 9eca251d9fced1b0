// The account page's privacy cards: the people you block (each with
// Unblock), and "Delete my account" (the password again, then a second
// press; everything of yours goes, see docs/ARCHITECTURE.md "Deleting a
// person"). Names go in as text.

import { h, fill, setText } from "../ui/dom.js";
import { session } from "../api/session.js";
import { navigate } from "../router.js";
import { toast } from "../ui/toast.js";
import { ErrorCode } from "../api/error-codes.js";
import { reportsAPI, setBlocked } from "../api/reports.js";
import { field, firstInvalid, formShell, showServerError } from "./account-forms.js";

/** Whom you block: you don't see their messages or clips; they aren't told. */
export function blocksCard(alive) {
  const list = h("ul", { class: "blocks-list", "aria-labelledby": "blocks-heading" });
  const line = h("p", { class: "hint blocks-line", role: "status" });
  const draw = (people) => {
    setText(line, people.length ? "You don't see their chat messages or voice clips. They aren't told." : "You block nobody.");
    fill(
      list,
      people.map((person) =>
        h(
          "li",
          { class: "blocks-row", dataset: { personId: person.id } },
          h("span", { class: "blocks-name" }, person.displayName),
          h("span", { class: "blocks-handle" }, person.handle ? `@${person.handle}` : "guest"),
          h(
            "button",
            {
              class: "btn btn-secondary btn-small blocks-unblock",
              type: "button",
              "aria-label": `Unblock ${person.displayName}`,
              onclick: async () => {
                try {
                  await setBlocked(person.id, false);
                  toast(`You unblocked ${person.displayName}.`);
                  load();
                } catch (error) {
                  toast(error.message || "That didn't work: try again.", { kind: "error" });
                }
              },
            },
            "Unblock",
          ),
        ),
      ),
    );
  };
  const load = () =>
    reportsAPI
      .blocks()
      .then((people) => alive() && draw(people))
      .catch((error) => alive() && setText(line, error.message || "Couldn't load whom you block."));
  load();
  return h(
    "section",
    { class: "card account-card blocks-card", "aria-labelledby": "blocks-heading" },
    h("h2", { class: "section-title", id: "blocks-heading" }, "People you block"),
    h("p", { class: "muted blocks-about" }, "A block works both ways: neither of you gets the other's chat, follows, requests or votes, and their clips don't reach you. Reports still go to the moderators."),
    line,
    list,
  );
}

/** "Download my data": one archive of everything the server keeps of you. */
export function downloadCard() {
  return h(
    "section",
    { class: "card account-card download-card", "aria-labelledby": "download-heading" },
    h("h2", { class: "section-title", id: "download-heading" }, "Your data"),
    h("p", { class: "hint" }, "One archive (.tar) of your account, stations and shows, likes, follows, chat messages and voice clips, to keep or take elsewhere."),
    h("a", { class: "btn btn-secondary download-data", href: "/api/auth/export", download: "" }, "Download my data"),
  );
}

/** "Delete my account": your password, then a second press. */
export function deleteAccountCard(person) {
  const password = field({ label: "Your password", id: "delete-password", type: "password", autocomplete: "current-password", maxlength: "128" });
  let armed = false;
  const { form, submit } = formShell({
    className: "delete-account-form",
    submitLabel: "Delete my account",
    children: [
      h("input", { type: "text", class: "visually-hidden", autocomplete: "username", value: person.handle || "", readonly: true, tabindex: "-1", "aria-hidden": "true" }),
      password.el,
    ],
    onSubmit: async ({ alert }) => {
      password.setError(password.value ? "" : "Type your password.");
      if (firstInvalid([password])) return;
      if (!armed) {
        armed = true;
        if (submit) setText(submit, "Yes, delete everything of mine");
        return;
      }
      try {
        await session.deleteAccount({ password: password.value });
        toast("Your account is deleted. Thanks for listening.");
        navigate("/");
      } catch (error) {
        showServerError(error, alert, { [ErrorCode.wrongPassword]: password });
      }
    },
  });
  password.input.addEventListener("input", () => password.setError(""));
  return h(
    "section",
    { class: "card account-card delete-account-card", "aria-labelledby": "delete-account-heading" },
    h("h2", { class: "section-title", id: "delete-account-heading" }, "Delete my account"),
    h(
      "p",
      { class: "hint" },
      "Your stations, shows, chat messages, voice clips, likes and follows go for good, and your handle is free again. The server's log keeps your name beside what administrators did.",
    ),
    form,
  );
}
