// Accounts: sign up (which gives you your own station), sign in, and your
// account (name, handle, your station, going live from broadcast software
// with a stream key, change password, sign out, and claiming a station with
// an owner key from before accounts).
//
// This file holds the sign-up and sign-in screens and the account screen's
// controller; the shared form pieces are account-forms.js and the account
// screen's pages and cards account-cards.js.

import { h, fill, setText } from "../ui/dom.js";
import { session } from "../api/session.js";
import { authHref, navigate, navigateTo, safeNext, stationHref, stationPath } from "../router.js";
import { toast } from "../ui/toast.js";
import { goLiveCard } from "./go-live/key-card.js";
import { errorText, field, firstInvalid, formShell, glass, showServerError } from "./account-forms.js";
import { accountPage, guestPage, signedOutPage } from "./account-cards.js";
import { mayTry, modeLines, registrationFor, waitingCard } from "./signup-mode.js";

export { errorText };

const HANDLE = /^[a-z0-9_]{3,24}$/;

function nextOf(route) {
  return safeNext(route.query.get("next"));
}

function signedInNotice(person) {
  return h(
    "div",
    { class: "notice auth-notice", role: "status" },
    h("p", {}, "You're signed in as ", h("strong", {}, person.displayName), person.handle ? ` (@${person.handle})` : "", "."),
    h(
      "p",
      { class: "notice-actions" },
      person.stationID ? h("a", { class: "btn btn-primary btn-small", href: stationHref(person.stationID) }, "Your station") : null,
      h("a", { class: "btn btn-secondary btn-small", href: "#/account" }, "Your account"),
    ),
  );
}

function screen(className, ...children) {
  return h("section", { class: `screen auth-screen ${className}` }, h("div", { class: "auth-card" }, ...children));
}

/** The sign-up and sign-in screens: the form while signed out, a "you're
 * signed in" notice otherwise, kept current as the session changes. */
function authView({ className, caption, heading, title, path, content }) {
  const body = h("div", { class: "auth-body" });
  const render = () => {
    const person = session.person;
    if (person && person.kind === "user") fill(body, signedInNotice(person));
    else fill(body, ...content());
  };
  render();
  const unsubscribe = session.onChange(render);
  return {
    el: screen(className, glass(caption), heading, body),
    title,
    focusTarget: () => heading,
    update: (next) => next.path[0] === path,
    destroy: unsubscribe,
  };
}

// ----------------------------------------------------------- #/signup

export function createSignupView(route) {
  const guest = session.isGuest ? session.person : null;
  const displayName = field({
    label: "Your name on the air",
    hint: "What listeners see. Up to 40 characters.",
    id: "signup-name",
    autocomplete: "nickname",
    maxlength: "40",
    required: true,
    value: guest ? guest.displayName : undefined,
  });
  const handle = field({
    label: "Handle",
    hint: "3–24 letters a–z, digits or _. Friends find you by it.",
    id: "signup-handle",
    prefix: "@",
    autocomplete: "username",
    autocapitalize: "none",
    spellcheck: "false",
    maxlength: "24",
    required: true,
  });
  const password = field({
    label: "Password",
    hint: "At least 8 characters.",
    id: "signup-password",
    type: "password",
    autocomplete: "new-password",
    minlength: "8",
    maxlength: "128",
    required: true,
  });
  const fields = [displayName, handle, password];

  function validate() {
    const name = displayName.value.trim();
    displayName.setError(!name ? "Give yourself a name." : [...name].length > 40 ? "Keep it to 40 characters." : "");
    const hv = handle.value.trim().replace(/^@/, "").toLowerCase();
    handle.setError(!hv ? "Pick a handle." : HANDLE.test(hv) ? "" : "Use 3–24 letters a–z, digits or _ (no spaces).");
    const bytes = new TextEncoder().encode(password.value).length;
    password.setError(bytes < 8 ? "Use at least 8 characters." : bytes > 128 ? "That's too long (128 bytes at most)." : "");
    return { name, handle: hv, password: password.value };
  }

  const invite = (route.query.get("invite") || "").slice(0, 128);
  // Who may sign up here: the server says (signup-mode.js), and the form
  // shows, hides or says it will wait accordingly.
  const modeNote = h("div", { class: "signup-mode", role: "status", "aria-live": "polite" });
  const waitingNote = h("div", { class: "signup-waiting", role: "status", "aria-live": "polite", tabindex: "-1" });

  const { form, submit } = formShell({
    className: "signup-form",
    submitLabel: guest ? "Create my account" : "Create my station",
    children: fields.map((f) => f.el),
    onSubmit: async ({ alert }) => {
      const values = validate();
      if (firstInvalid(fields)) return;
      try {
        const answer = await session.signUp({ handle: values.handle, displayName: values.name, password: values.password, invite });
        if (answer.awaitingApproval) {
          form.hidden = true;
          fill(waitingNote, ...waitingCard(answer));
          waitingNote.focus();
          return;
        }
        const { person, station } = answer;
        const stationID = (station && station.id) || person.stationID;
        toast(station && station.frequency ? `Welcome, ${person.displayName}. You're on ${station.frequency} FM.` : `Welcome, ${person.displayName}.`);
        if (stationID) navigate(stationPath(stationID));
        else navigate(["account"]);
      } catch (error) {
        showServerError(error, alert, { handle, password, name: displayName });
      }
    },
  });
  for (const f of fields) f.input.addEventListener("input", () => f.setError(""));
  registrationFor(invite).then((mode) => {
    if (!mode) return;
    fill(modeNote, ...modeLines(mode));
    modeNote.dataset.mode = mode.mode;
    if (!mayTry(mode)) form.hidden = true;
    else if (mode.mode === "approval" && !(mode.invite && mode.invite.valid)) setText(submit, "Ask to join");
  });

  const heading = h("h1", { class: "auth-title", tabindex: "-1" }, guest ? "Keep your name" : "Get your own station");
  return authView({
    className: "signup-screen",
    caption: "NEW STATION",
    heading,
    title: "Sign up · Wavelength",
    path: "signup",
    content: () => [
      h(
        "p",
        { class: "auth-lead" },
        guest
          ? `You're listening as a guest. Create an account and ${guest.displayName} gets a handle, friends, and a station of your own.`
          : "Sign up and you're on the air: your own station on a free frequency, and the DJ booth.",
      ),
      modeNote,
      form,
      waitingNote,
      h("p", { class: "auth-switch" }, "Already have an account? ", h("a", { href: authHref("login", nextOf(route) || undefined) }, "Sign in")),
    ],
  });
}

// ------------------------------------------------------------ #/login

export function createLoginView(route) {
  const handle = field({
    label: "Handle",
    id: "login-handle",
    prefix: "@",
    autocomplete: "username",
    autocapitalize: "none",
    spellcheck: "false",
    maxlength: "24",
    required: true,
  });
  const password = field({
    label: "Password",
    id: "login-password",
    type: "password",
    autocomplete: "current-password",
    maxlength: "128",
    required: true,
  });
  const fields = [handle, password];

  const { form } = formShell({
    className: "login-form",
    submitLabel: "Sign in",
    children: fields.map((f) => f.el),
    onSubmit: async ({ alert }) => {
      const hv = handle.value.trim().replace(/^@/, "").toLowerCase();
      handle.setError(hv ? "" : "Type your handle.");
      password.setError(password.value ? "" : "Type your password.");
      if (firstInvalid(fields)) return;
      try {
        const { person } = await session.logIn({ handle: hv, password: password.value });
        toast(`Welcome back, ${person.displayName}.`);
        const next = nextOf(route);
        if (next) navigateTo(next);
        else navigate([]);
      } catch (error) {
        // The server says the same thing whether or not the handle exists.
        setText(alert, errorText(error));
        password.input.select();
        password.input.focus();
      }
    },
  });
  for (const f of fields) f.input.addEventListener("input", () => f.setError(""));

  const heading = h("h1", { class: "auth-title", tabindex: "-1" }, "Welcome back");
  return authView({
    className: "login-screen",
    caption: "SIGN IN",
    heading,
    title: "Sign in · Wavelength",
    path: "login",
    content: () => [
      h("p", { class: "auth-lead" }, "Sign in to DJ your station, follow friends and hear them first on the dial."),
      form,
      h("p", { class: "auth-switch" }, "New here? ", h("a", { href: authHref("signup", nextOf(route) || undefined) }, "Get your own station")),
    ],
  });
}

// ---------------------------------------------------------- #/account

export function createAccountView(route = null) {
  let destroyed = false;
  // The "Go live" card, while shown; #/account?go=live (the booth's link) opens on it.
  let goLive = null;
  const wantsGoLive = (r) => Boolean(r && r.query && r.query.get("go") === "live");
  const heading = h("h1", { class: "account-title", tabindex: "-1" }, "Your account");
  const body = h("div", { class: "account-body" });
  const el = h("section", { class: "screen account-screen" }, body);
  const alive = () => !destroyed;

  function render() {
    const person = session.person;
    if (!person) fill(body, signedOutPage(heading));
    else if (person.kind === "guest") fill(body, ...guestPage(person, heading));
    else {
      goLive = goLiveCard(person, { alive });
      fill(body, ...accountPage(person, heading, { alive, goLive }));
    }
  }

  render();
  const unsubscribe = session.onChange(render);
  // After the app has shown the screen (which focuses the heading and
  // scrolls to the top): the booth's "Go live" link lands on the card.
  if (wantsGoLive(route)) {
    requestAnimationFrame(() => {
      if (!destroyed && goLive) goLive.focus();
    });
  }

  return {
    el,
    title: "Your account · Wavelength",
    focusTarget: () => heading,
    update: (next) => {
      if (next.path[0] !== "account") return false;
      if (wantsGoLive(next) && goLive) goLive.focus();
      return true;
    },
    destroy() {
      destroyed = true;
      unsubscribe();
    },
  };
}
