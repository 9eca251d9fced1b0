// Joining as a named guest, so each person votes once: a name field and a
// button. Used by the party and the lobby.

import { h } from "../../ui/dom.js";

/** @param {{ id: string, label: string, button: string, onJoin: (name: string) => Promise }} options */
export function createGuestJoin({ id, label, button, onJoin }) {
  const input = h("input", { id, class: "input", type: "text", maxlength: "40", autocomplete: "nickname", required: true });
  const status = h("p", { class: "hint party-join-status", role: "status" });
  const el = h(
    "form",
    {
      class: "party-join",
      hidden: true,
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        const name = input.value.trim();
        if (!name) {
          status.textContent = "Type the name the room will see.";
          input.focus();
          return;
        }
        status.textContent = "Joining…";
        try {
          await onJoin(name);
          status.textContent = "";
        } catch (error) {
          status.textContent = (error && error.message) || "Couldn't join. Try again.";
        }
      },
    },
    h("label", { for: id, class: "label" }, label),
    h("div", { class: "party-join-row" }, input, h("button", { class: "btn btn-primary", type: "submit" }, button)),
    status,
  );
  return { el };
}
