// @-autocomplete for the chat's input: typing @ and the start of a handle
// offers the handles of people seen in the chat, as an ARIA combobox with
// a listbox (the input keeps focus; the option in play is its
// aria-activedescendant). ↓/↑ move, Enter or Tab pick, Esc closes; a
// click picks too. What to offer and how the text changes come from
// chat-model.js (mentionAt, handleSuggestions, completeMention).
//
// Handles and names go in as text.

import { h, fill } from "../../ui/dom.js";
import { completeMention, mentionAt } from "./chat-model.js";

/**
 * @param {HTMLInputElement} input the chat's input (role="combobox")
 * @param {HTMLElement} listbox its listbox (role="listbox")
 * @param {{ suggest: (query: string) => {handle: string, name: string}[], onPick?: () => void }} options
 */
export function attachMentions(input, listbox, { suggest, onPick = () => {} }) {
  const state = { open: false, options: [], active: -1, mention: null };
  const optionID = (i) => `${listbox.id}-${i}`;

  function close() {
    if (!state.open && listbox.hidden) return;
    state.open = false;
    state.options = [];
    state.active = -1;
    state.mention = null;
    listbox.hidden = true;
    fill(listbox);
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function mark(index) {
    state.active = index;
    [...listbox.children].forEach((li, i) => {
      const on = i === index;
      li.setAttribute("aria-selected", String(on));
      li.classList.toggle("is-active", on);
    });
    if (index >= 0) {
      input.setAttribute("aria-activedescendant", optionID(index));
      const li = listbox.children[index];
      if (li && li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function refresh() {
    const mention = mentionAt(input.value, input.selectionStart ?? input.value.length);
    const options = mention ? suggest(mention.query) : [];
    if (!mention || !options.length) {
      close();
      return;
    }
    state.mention = mention;
    state.options = options;
    state.open = true;
    fill(
      listbox,
      options.map((person, i) =>
        h(
          "li",
          {
            id: optionID(i),
            class: "chat-suggestion",
            role: "option",
            "aria-selected": "false",
            dataset: { handle: person.handle },
            // Keeps focus in the input: the pick happens on click.
            onmousedown: (event) => event.preventDefault(),
            onclick: () => pick(i),
          },
          h("span", { class: "chat-suggestion-handle" }, `@${person.handle}`),
          person.name ? h("span", { class: "chat-suggestion-name" }, person.name) : null,
        ),
      ),
    );
    listbox.hidden = false;
    input.setAttribute("aria-expanded", "true");
    // The first is in play, so Enter or Tab takes it at once.
    mark(Math.min(Math.max(state.active, 0), options.length - 1));
  }

  function pick(index) {
    const person = state.options[index];
    if (!person || !state.mention) return;
    const { text, caret } = completeMention(input.value, state.mention, person.handle);
    input.value = text;
    input.setSelectionRange(caret, caret);
    close();
    input.focus();
    onPick();
  }

  input.addEventListener("input", () => {
    state.active = 0;
    refresh();
  });
  // The caret moved (arrows left and right, a click): the word under it may be another.
  input.addEventListener("click", refresh);
  input.addEventListener("keyup", (event) => {
    if (event.key === "ArrowLeft" || event.key === "ArrowRight" || event.key === "Home" || event.key === "End") refresh();
  });
  input.addEventListener("blur", () => close());
  input.addEventListener("keydown", (event) => {
    if (!state.open) return;
    const count = state.options.length;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      mark((state.active + 1) % count);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      mark((state.active - 1 + count) % count);
    } else if ((event.key === "Enter" || event.key === "Tab") && !event.shiftKey && state.active >= 0) {
      // The handle is typed out in full already: Enter sends, Tab moves on.
      const typed = input.value.slice(state.mention.start + 1, state.mention.end).toLowerCase();
      if (typed === state.options[state.active].handle.toLowerCase()) {
        close();
        return;
      }
      // Picks instead of sending or leaving the field.
      event.preventDefault();
      event.stopPropagation();
      pick(state.active);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  });

  return {
    close,
    refresh,
    get open() {
      return state.open;
    },
  };
}
