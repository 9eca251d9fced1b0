// Joining a private station, with no account needed:
// - #/join and #/join/<frequency>: the frequency and the host's 6-digit
//   access code (and a name, for someone not signed in);
// - #/i/<token>: an invite link, which shows the station and tunes in.
// A guest session is made only when someone actually joins. The server's
// refusals are shown as they come: a wrong code, a lockout after too many
// wrong tries (with how long to wait), a locked or full station, a ban.

import { request } from "../api/api.js";
import { h, fill, setText, listenersText } from "../ui/dom.js";
import { navigate, stationPath } from "../router.js";
import { session } from "../api/session.js";
import { visibilityLabel } from "./settings/labels.js";
import { parseFrequency } from "../ui/frequency.js";
import { createFrequencyInput } from "../ui/frequency-input.js";
import { tryAgainText } from "../ui/wait-text.js";
import { ErrorCode } from "../api/error-codes.js";

const enc = encodeURIComponent;

/** The words for a refused join: the server's, with the wait in minutes from Retry-After. */
export function joinErrorText(error) {
  const message = (error && error.message) || "Couldn't join.";
  switch (error && error.code) {
    case ErrorCode.lockedOut: {
      // The server may say how long itself; say it once, from Retry-After.
      const reason = message.replace(/\s*Try again\b[^.]*\.?\s*$/i, "").trim() || "Too many wrong codes from your network.";
      return error.retryAfter != null ? `${reason} ${tryAgainText(error.retryAfter)}` : `${reason} Try again later.`;
    }
    case ErrorCode.stationLocked:
      return /invite/i.test(message) ? message : `${message} Ask the host for an invite link instead.`;
    case ErrorCode.notAMember:
      return /invite/i.test(message) ? message : `${message} Ask the host for an invite link.`;
    case "network":
      return "Can't reach the Wavelength server. Check your connection and try again.";
    default:
      return message;
  }
}

function loaded() {
  return typeof session.load === "function" ? Promise.resolve(session.load()).catch(() => null) : Promise.resolve(null);
}

/** The "Your name" field for people who aren't signed in, and a line for those who are. */
function identityBlock(idPrefix) {
  const nameInput = h("input", {
    id: `${idPrefix}-name`,
    class: "input",
    type: "text",
    maxlength: "40",
    autocomplete: "nickname",
    autocapitalize: "words",
    spellcheck: "false",
    "aria-describedby": `${idPrefix}-name-hint`,
  });
  const guest = h(
    "div",
    { class: "join-guest", hidden: true },
    h("label", { for: `${idPrefix}-name`, class: "label" }, "Your name"),
    nameInput,
    h(
      "p",
      { class: "hint join-note", id: `${idPrefix}-name-hint` },
      h("strong", {}, "No account needed. "),
      "This is the name the host and the other listeners see. ",
      h("a", { href: "#/login" }, "Have an account? Sign in"),
    ),
  );
  const who = h("p", { class: "join-who", hidden: true });
  function render() {
    const person = session.person;
    guest.hidden = Boolean(person);
    who.hidden = !person;
    if (person) setText(who, `You'll tune in as ${person.displayName || person.handle}.`);
  }
  return { el: h("div", { class: "join-identity" }, guest, who), nameInput, render };
}

/** Makes a guest when nobody is signed in; returns false (and says why) when the name won't do. */
async function ensurePerson(identity, showError) {
  if (session.person) return true;
  const name = identity.nameInput.value.trim();
  if (!name) {
    showError("Tell the host your name: 1 to 40 characters.", "name");
    identity.nameInput.focus();
    return false;
  }
  if (Array.from(name).length > 40) {
    showError("Your name can be at most 40 characters.", "name");
    identity.nameInput.focus();
    return false;
  }
  try {
    await session.ensureGuest(name);
  } catch (error) {
    showError(joinErrorText(error), error.code || "guest");
    identity.nameInput.focus();
    return false;
  }
  return true;
}

export function createJoinView(route) {
  let destroyed = false;
  let busy = false;
  let tries = 0; // answers seen: tests count refusals by it

  const freqNum = h("span", { class: "freq-num" }, "--.-");
  const readoutName = h("p", { class: "readout-name" }, "A private station");
  const readout = h(
    "div",
    { class: "readout join-readout", "aria-hidden": "true" },
    h("p", { class: "readout-freq" }, freqNum, h("span", { class: "freq-unit" }, "FM")),
    readoutName,
    h("p", { class: "readout-now" }, "Enter the frequency and access code from the host."),
  );
  const heading = h("h1", { class: "screen-title join-title", tabindex: "-1" }, "Join with a code");

  const freqInput = createFrequencyInput({ id: "join-frequency", describedBy: "join-frequency-hint", required: true });
  const codeInput = h("input", {
    id: "join-code",
    class: "input input-code",
    type: "text",
    inputmode: "numeric",
    autocomplete: "one-time-code",
    pattern: "[0-9]*",
    maxlength: "7",
    placeholder: "••••••",
    "aria-describedby": "join-code-hint",
  });
  const identity = identityBlock("join");
  const submit = h("button", { class: "btn btn-primary btn-wide btn-join", type: "submit" }, "Tune in");
  const error = h("p", { class: "form-error join-error", id: "join-error", role: "alert", "aria-live": "assertive" });
  const form = h(
    "form",
    { class: "card join-form", novalidate: true, onsubmit: (e) => join(e), "aria-labelledby": "join-form-title" },
    h("h2", { class: "visually-hidden", id: "join-form-title" }, "Frequency and access code"),
    h("label", { for: "join-frequency", class: "label" }, "Frequency"),
    freqInput,
    h("p", { class: "hint", id: "join-frequency-hint" }, "Like 107.3: the host can see it in the station's settings."),
    h("label", { for: "join-code", class: "label" }, "Access code"),
    codeInput,
    h("p", { class: "hint", id: "join-code-hint" }, "6 digits. Not needed for a public station."),
    identity.el,
    submit,
    error,
  );

  const el = h(
    "section",
    { class: "screen join-screen", dataset: { state: "loading" } },
    heading,
    h("div", { class: "radio join-radio" }, readout),
    form,
    h("p", { class: "join-foot muted" }, "Got an invite link? Just open it: no code needed. ", h("a", { href: "#/" }, "Back to the dial")),
  );

  function prefill(r) {
    const frequency = r.path[1] || "";
    if (frequency) freqInput.value = frequency;
    renderReadout();
  }

  function renderReadout() {
    const value = freqInput.value.trim();
    setText(freqNum, value || "--.-");
    freqNum.parentElement.parentElement.classList.toggle("is-set", parseFrequency(value) !== null);
  }

  freqInput.addEventListener("input", () => {
    renderReadout();
    clearError();
  });
  codeInput.addEventListener("input", () => {
    // Digits only, and a pasted "482 913" works too.
    const digits = codeInput.value.replace(/\D/g, "").slice(0, 6);
    if (digits !== codeInput.value) codeInput.value = digits;
    clearError();
  });

  function clearError() {
    if (error.dataset.code === ErrorCode.lockedOut) return; // stays until a try succeeds
    setText(error, "");
    delete error.dataset.code;
    for (const input of [freqInput, codeInput, identity.nameInput]) input.removeAttribute("aria-invalid");
  }

  function showError(text, code, field = null) {
    error.dataset.code = code || "error";
    setText(error, text);
    el.dataset.error = code || "error";
    for (const input of [freqInput, codeInput, identity.nameInput]) input.removeAttribute("aria-invalid");
    if (field) field.setAttribute("aria-invalid", "true");
  }

  async function join(event) {
    event.preventDefault();
    if (busy) return;
    const frequency = parseFrequency(freqInput.value);
    const accessCode = codeInput.value.replace(/\D/g, "");
    if (!frequency) {
      showError("Type the frequency the host gave you, like 107.3.", "frequency", freqInput);
      freqInput.focus();
      return;
    }
    if (accessCode && accessCode.length !== 6) {
      showError("The access code has 6 digits.", "code", codeInput);
      codeInput.focus();
      return;
    }
    busy = true;
    submit.disabled = true;
    el.dataset.state = "joining";
    setText(submit, "Tuning in…");
    try {
      if (!(await ensurePerson(identity, (text, code) => showError(text, code, identity.nameInput)))) return;
      identity.render();
      const body = accessCode ? { accessCode } : {};
      const answer = await request(`/api/frequencies/${enc(frequency)}/join`, { method: "POST", body });
      if (destroyed) return;
      delete error.dataset.code;
      setText(error, "");
      el.dataset.state = "joined";
      navigate(stationPath(answer.station.id));
    } catch (failure) {
      if (destroyed) return;
      // A wrong frequency or code (the server doesn't say which: that would
      // help a guesser) points at the code when one was typed.
      const wrong = failure.code === ErrorCode.wrongCode || (failure.status === 404 && failure.code !== ErrorCode.lockedOut);
      const field = wrong ? (accessCode ? codeInput : freqInput) : null;
      showError(joinErrorText(failure), failure.code, field);
      if (field) field.select();
    } finally {
      busy = false;
      tries += 1;
      el.dataset.tries = String(tries);
      if (!destroyed && el.dataset.state !== "joined") {
        submit.disabled = false;
        setText(submit, "Tune in");
        el.dataset.state = "ready";
      }
    }
  }

  prefill(route);
  loaded().then(() => {
    if (destroyed) return;
    identity.render();
    el.dataset.state = "ready";
  });
  const unsubscribe = typeof session.onChange === "function" ? session.onChange(() => identity.render()) : () => {};

  return {
    el,
    title: "Join a station · Wavelength",
    update(next) {
      if (next.path[0] !== "join") return false;
      prefill(next);
      return true;
    },
    focusTarget: () => (freqInput.value ? codeInput : heading),
    destroy() {
      destroyed = true;
      unsubscribe();
    },
  };
}

export function createInviteView(route) {
  const token = route.path[1] || "";
  let destroyed = false;
  let station = null;

  const heading = h("h1", { class: "screen-title join-title invite-title", tabindex: "-1" }, "You're invited");
  const freqNum = h("span", { class: "freq-num" }, "··.·");
  const freqUnit = h("span", { class: "freq-unit" }, "FM");
  const name = h("p", { class: "readout-name" }, "Tuning…");
  const owner = h("p", { class: "invite-owner" });
  const now = h("p", { class: "readout-now" });
  const meta = h("p", { class: "readout-meta" });
  const readout = h("div", { class: "readout invite-readout" }, h("p", { class: "readout-freq" }, freqNum, freqUnit), name, owner, now, meta);
  const identity = identityBlock("invite");
  const submit = h("button", { class: "btn btn-primary btn-wide btn-join", type: "submit" }, "Tune in");
  const error = h("p", { class: "form-error join-error", id: "invite-error", role: "alert" });
  const form = h(
    "form",
    { class: "card join-form invite-form-card", novalidate: true, onsubmit: (e) => join(e), hidden: true, "aria-labelledby": "invite-form-title" },
    h("h2", { class: "visually-hidden", id: "invite-form-title" }, "Tune in"),
    identity.el,
    submit,
    error,
  );
  const body = h("div", { class: "invite-body" }, h("div", { class: "radio join-radio" }, readout), form);
  const el = h("section", { class: "screen join-screen invite-screen", dataset: { state: "loading" } }, heading, body);

  function renderStation() {
    const frequency = station.frequency;
    setText(freqNum, frequency || visibilityLabel(station.visibility, { short: true }) || "··.·");
    freqUnit.hidden = !frequency;
    readout.classList.toggle("is-private", !frequency);
    setText(name, station.name);
    setText(owner, station.owner ? `Hosted by ${station.owner}` : "");
    const np = station.nowPlaying;
    setText(now, np ? `${np.title} — ${np.artist}` : station.onAir ? "Between songs" : "Quiet until someone tunes in");
    now.classList.toggle("is-quiet", !np);
    fill(
      meta,
      station.onAir ? h("span", { class: "onair-lamp" }, "On air") : h("span", { class: "offair-lamp" }, "Off air"),
      h("span", { class: "meta-item" }, listenersText(station.listeners)),
    );
  }

  function showInvalid(failure) {
    el.dataset.state = "invalid";
    const gone = failure.status === 404;
    setText(heading, gone ? "This invite doesn't work" : "Can't open this invite");
    fill(
      body,
      h(
        "div",
        { class: "notice notice-error big-notice invite-invalid", role: "alert" },
        h("h2", {}, gone ? "The link has expired or was revoked" : "Something went wrong"),
        h(
          "p",
          {},
          gone
            ? "Invite links work until they expire or the host takes them back. Ask the host for a new one, or for the station's frequency and access code."
            : joinErrorText(failure),
        ),
        h(
          "p",
          { class: "over-actions" },
          gone ? h("a", { class: "btn btn-secondary", href: "#/join" }, "I have a code") : null,
          h("a", { class: "btn btn-primary", href: "#/" }, "Back to the dial"),
        ),
      ),
    );
  }

  async function load() {
    try {
      const [answer] = await Promise.all([request(`/api/invites/${enc(token)}`), loaded()]);
      if (destroyed) return;
      station = answer.station;
      renderStation();
      identity.render();
      form.hidden = false;
      if (answer.expiresAt) form.prepend(h("p", { class: "hint invite-expiry" }, `This invite works until ${new Date(answer.expiresAt).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}.`));
      el.dataset.state = "ready";
      document.title = `Invite to ${station.name} · Wavelength`;
    } catch (failure) {
      if (!destroyed) showInvalid(failure);
    }
  }

  async function join(event) {
    event.preventDefault();
    if (submit.disabled) return;
    submit.disabled = true;
    setText(submit, "Tuning in…");
    setText(error, "");
    el.dataset.state = "joining";
    try {
      const show = (text, code) => {
        error.dataset.code = code || "error";
        setText(error, text);
      };
      if (!(await ensurePerson(identity, show))) return;
      identity.render();
      const answer = await request(`/api/invites/${enc(token)}/join`, { method: "POST" });
      if (destroyed) return;
      el.dataset.state = "joined";
      navigate(stationPath(answer.station.id));
    } catch (failure) {
      if (destroyed) return;
      if (failure.status === 404) {
        showInvalid(failure);
        return;
      }
      error.dataset.code = failure.code || "error";
      setText(error, joinErrorText(failure));
    } finally {
      if (!destroyed && el.dataset.state !== "joined" && el.dataset.state !== "invalid") {
        submit.disabled = false;
        setText(submit, "Tune in");
        el.dataset.state = "ready";
      }
    }
  }

  load();
  const unsubscribe = typeof session.onChange === "function" ? session.onChange(() => identity.render()) : () => {};

  return {
    el,
    title: "You're invited · Wavelength",
    update: () => false,
    focusTarget: () => heading,
    destroy() {
      destroyed = true;
      unsubscribe();
    },
  };
}
