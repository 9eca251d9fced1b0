// The dial's forms: tuning by frequency, and the card about your own
// station: a party station for signed-in users (private: its frequency and
// an access code), an invitation to sign up for guests and strangers.

import { api } from "../../api/api.js";
import { h, fill, setText } from "../../ui/dom.js";
import { session } from "../../api/session.js";
import { authHref, navigate, stationPath } from "../../router.js";
import { toast } from "../../ui/toast.js";
import { parseFrequency } from "../../ui/frequency.js";
import { createFrequencyInput } from "../../ui/frequency-input.js";
import { ErrorCode } from "../../api/error-codes.js";

/** "Know a frequency?": a public station opens, any other asks for its access code. */
export function createFrequencyForm() {
  const freqInput = createFrequencyInput({ id: "tune-frequency", describedBy: "tune-frequency-hint" });
  const freqError = h("p", { class: "form-error", id: "tune-frequency-hint", role: "status" });

  async function tuneToFrequency(event) {
    event.preventDefault();
    const normalized = parseFrequency(freqInput.value);
    setText(freqError, "");
    if (!normalized) {
      setText(freqError, "A frequency looks like 107.3.");
      return;
    }
    try {
      const station = await api.byFrequency(normalized);
      navigate(stationPath(station.id));
    } catch (error) {
      // Not a public station: it may be a private one that needs its access code.
      if (error.code === ErrorCode.notFound || error.status === 404) navigate(["join", normalized]);
      else setText(freqError, error.message);
    }
  }

  return h(
    "form",
    { class: "tune-form", onsubmit: (e) => tuneToFrequency(e) },
    h("label", { for: "tune-frequency", class: "label" }, "Know a frequency?"),
    h(
      "div",
      { class: "input-row" },
      freqInput,
      h("button", { class: "btn btn-secondary", type: "submit" }, "Tune"),
    ),
    freqError,
  );
}

function partyForm() {
  const partyName = h("input", { id: "party-name", class: "input", type: "text", maxlength: "80", placeholder: "Saturday Night", autocomplete: "off", "aria-describedby": "party-hint" });
  const partyError = h("p", { class: "form-error", role: "status" });

  async function startParty(event) {
    event.preventDefault();
    setText(partyError, "");
    const name = partyName.value.trim();
    if (!name) {
      setText(partyError, "Give your party a name.");
      partyName.focus();
      return;
    }
    try {
      const created = await api.createStation(name, "code");
      const station = created && created.station ? created.station : created;
      toast(`${station.name} is ready. Share its frequency and access code.`);
      navigate(stationPath(station.id, "settings"));
    } catch (error) {
      setText(partyError, error.status === 401 ? "Sign in first to start a party station." : error.message);
    }
  }

  return h(
    "form",
    { class: "card form-card party-card", onsubmit: (e) => startParty(e), "aria-labelledby": "party-heading" },
    h("h2", { id: "party-heading", class: "section-title" }, "Start a party station"),
    h("p", { class: "muted", id: "party-hint" }, "A private station for tonight: friends tune in with its frequency and an access code."),
    h("label", { for: "party-name", class: "label" }, "Party name"),
    partyName,
    h("button", { class: "btn btn-primary btn-wide", type: "submit" }, "Start a party station"),
    partyError,
  );
}

/**
 * The "your own station" area, redrawn by `render` when who is signed in
 * changes. The party form is built once, so what's typed in it survives.
 */
export function createOwnStationForms() {
  const el = h("div", { class: "dial-forms" });
  const party = partyForm();

  function render() {
    const person = session.person;
    if (person && person.kind === "user") {
      fill(el, party);
    } else if (person && person.kind === "guest") {
      fill(
        el,
        h(
          "section",
          { class: "card form-card join-card", "aria-labelledby": "own-heading" },
          h("h2", { id: "own-heading", class: "section-title" }, "Your own station"),
          h("p", { class: "muted" }, `You're listening as ${person.displayName}. Create an account to keep your name and get a station of your own.`),
          h("a", { class: "btn btn-primary btn-wide", href: authHref("signup", "/") }, "Create an account"),
        ),
      );
    } else {
      fill(
        el,
        h(
          "section",
          { class: "card form-card join-card", "aria-labelledby": "own-heading" },
          h("h2", { id: "own-heading", class: "section-title" }, "Your own station"),
          h("p", { class: "muted" }, "Sign up and you're on the air: a free frequency, the DJ booth, and your friends first on the dial."),
          h(
            "div",
            { class: "join-actions" },
            h("a", { class: "btn btn-primary", href: authHref("signup", "/") }, "Sign up"),
            h("a", { class: "btn btn-secondary", href: authHref("login", "/") }, "Sign in"),
          ),
        ),
      );
    }
  }

  return { el, render };
}
