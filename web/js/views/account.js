// Accounts: sign up (which gives you your own station), sign in, and your
// account (name, handle, your station, going live from broadcast software
// with a stream key, change password, sign out, and claiming a station with
// an owner key from before accounts).

import { api, ApiError } from "../api/api.js";
import { h, fill, setText, icon } from "../ui/dom.js";
import { session } from "../api/session.js";
import { authHref, navigate, navigateTo, personHref, safeNext, stationHref, stationPath } from "../router.js";
import { toast } from "../ui/toast.js";
import { avatar, countsText } from "./people.js";
import { parseFrequency } from "../ui/frequency.js";
import { tryAgainText } from "../ui/wait-text.js";
import { likedSongsCard } from "./liked-songs.js";
import { goLiveCard } from "./go-live/key-card.js";

const HANDLE = /^[a-z0-9_]{3,24}$/;
const OLD_KEYS = "wavelength.ownerKeys";

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
function field({ label, hint, type = "text", prefix, ...attrs }) {
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
function formShell({ className = "", submitLabel, onSubmit, children }) {
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
function showServerError(error, alert, fieldsByWord) {
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

function firstInvalid(fields) {
  const bad = fields.find((f) => f.input.getAttribute("aria-invalid") === "true");
  if (bad) bad.input.focus();
  return Boolean(bad);
}

/** The warm glass strip over each account form: a small dial with a needle. */
function glass(caption) {
  return h(
    "div",
    { class: "auth-glass", "aria-hidden": "true" },
    h("span", { class: "auth-glass-scale" }),
    h("span", { class: "auth-glass-needle" }),
    h("span", { class: "auth-glass-caption" }, caption),
  );
}

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

  const { form } = formShell({
    className: "signup-form",
    submitLabel: guest ? "Create my account" : "Create my station",
    children: fields.map((f) => f.el),
    onSubmit: async ({ alert }) => {
      const values = validate();
      if (firstInvalid(fields)) return;
      try {
        const { person, station } = await session.signUp({ handle: values.handle, displayName: values.name, password: values.password });
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
      form,
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

function oldOwnerKeys() {
  try {
    const value = JSON.parse(localStorage.getItem(OLD_KEYS) || "{}");
    return value && typeof value === "object" ? Object.entries(value).filter(([, k]) => typeof k === "string") : [];
  } catch {
    return [];
  }
}

function forgetOldKey(stationID) {
  try {
    const value = JSON.parse(localStorage.getItem(OLD_KEYS) || "{}");
    delete value[stationID];
    if (Object.keys(value).length) localStorage.setItem(OLD_KEYS, JSON.stringify(value));
    else localStorage.removeItem(OLD_KEYS);
  } catch {
    // Nothing kept.
  }
}

async function claimStation(which, key) {
  // A frequency is looked up; anything else is taken as a station id.
  const code = parseFrequency(which);
  let stationID = which;
  if (code) {
    const station = await api.byFrequency(code);
    stationID = station.id;
  }
  const station = await api.claim(stationID, key);
  forgetOldKey(stationID);
  return station;
}

export function createAccountView(route = null) {
  let destroyed = false;
  // The "Go live" card, while shown; #/account?go=live (the booth's link) opens on it.
  let goLive = null;
  const wantsGoLive = (r) => Boolean(r && r.query && r.query.get("go") === "live");
  const heading = h("h1", { class: "account-title", tabindex: "-1" }, "Your account");
  const body = h("div", { class: "account-body" });
  const el = h("section", { class: "screen account-screen" }, body);

  function passwordCard(person) {
    const current = field({ label: "Current password", id: "password-current", type: "password", autocomplete: "current-password", maxlength: "128" });
    const next = field({ label: "New password", hint: "At least 8 characters. Your other devices are signed out.", id: "password-new", type: "password", autocomplete: "new-password", minlength: "8", maxlength: "128" });
    const done = h("p", { class: "form-ok", role: "status" });
    const { form } = formShell({
      className: "password-form",
      submitLabel: "Change password",
      children: [
        // For password managers: whose password this is.
        h("input", { type: "text", class: "visually-hidden", autocomplete: "username", value: person.handle || "", readonly: true, tabindex: "-1", "aria-hidden": "true" }),
        current.el,
        next.el,
      ],
      onSubmit: async ({ alert }) => {
        setText(done, "");
        current.setError(current.value ? "" : "Type your current password.");
        const bytes = new TextEncoder().encode(next.value).length;
        next.setError(bytes < 8 ? "Use at least 8 characters." : bytes > 128 ? "That's too long (128 bytes at most)." : "");
        if (firstInvalid([current, next])) return;
        try {
          await session.changePassword({ currentPassword: current.value, newPassword: next.value });
          current.input.value = "";
          next.input.value = "";
          setText(done, "Password changed. Your other devices are signed out.");
        } catch (error) {
          showServerError(error, alert, { wrong_password: current, invalid_password: next });
        }
      },
    });
    for (const f of [current, next]) f.input.addEventListener("input", () => f.setError(""));
    return h(
      "section",
      { class: "card account-card", "aria-labelledby": "password-heading" },
      h("h2", { class: "section-title", id: "password-heading" }, "Change password"),
      form,
      done,
    );
  }

  function claimCard() {
    const which = field({ label: "Frequency or station id", id: "claim-station", autocomplete: "off", autocapitalize: "none", spellcheck: "false", placeholder: "92.5" });
    const key = field({ label: "Owner key", hint: "From owner-keys.txt in the server's data folder, or an old owner link.", id: "claim-key", type: "password", autocomplete: "off", spellcheck: "false", placeholder: "64 hex digits" });
    const { form } = formShell({
      className: "claim-form",
      submitLabel: "Claim station",
      children: [which.el, key.el],
      onSubmit: async ({ alert }) => {
        which.setError(which.value.trim() ? "" : "Which station? Its frequency or id.");
        key.setError(key.value.trim() ? "" : "Paste the owner key.");
        if (firstInvalid([which, key])) return;
        try {
          const station = await claimStation(which.value.trim(), key.value.trim());
          toast(`${station.name} is yours now.`);
          navigate(stationPath(station.id));
        } catch (error) {
          if (error.status === 404) setText(alert, `No station ${which.value.trim()} here.`);
          else showServerError(error, alert, { key: key });
        }
      },
    });
    for (const f of [which, key]) f.input.addEventListener("input", () => f.setError(""));

    // Keys this browser kept from before accounts: one tap claims each.
    const kept = oldOwnerKeys();
    const keptList = kept.length
      ? h(
          "div",
          { class: "notice notice-warn kept-keys" },
          h("p", {}, `This browser still has ${kept.length === 1 ? "an owner key" : `${kept.length} owner keys`} from before accounts.`),
          h(
            "ul",
            { class: "kept-list" },
            kept.map(([stationID, secret]) => {
              const label = h("span", { class: "kept-name" }, "A station");
              api.station(stationID).then((s) => !destroyed && setText(label, `${s.name} (${s.frequency || "—"} FM)`)).catch(() => {});
              const button = h(
                "button",
                {
                  class: "btn btn-secondary btn-small",
                  type: "button",
                  onclick: async () => {
                    button.disabled = true;
                    try {
                      const station = await claimStation(stationID, secret);
                      toast(`${station.name} is yours now.`);
                      navigate(stationPath(station.id));
                    } catch (error) {
                      button.disabled = false;
                      toast(errorText(error), { kind: "error" });
                    }
                  },
                },
                "Claim",
              );
              return h("li", {}, label, button);
            }),
          ),
        )
      : null;

    return h(
      "details",
      { class: "card account-card claim", open: kept.length ? true : undefined },
      h("summary", { class: "summary" }, icon("key", { size: 20 }), "Claim a station with an owner key"),
      h("p", { class: "muted" }, "Stations made before accounts had an owner key. Claim one and it becomes yours; the key stops working."),
      keptList,
      form,
    );
  }

  function stationCard(person) {
    const slot = h("div", { class: "account-station" });
    const render = (station) =>
      fill(
        slot,
        h(
          "a",
          { class: "station-card is-own", href: stationHref(person.stationID), dataset: { stationId: person.stationID } },
          h("span", { class: "card-freq" }, (station && station.frequency) || "—"),
          h(
            "span",
            { class: "card-body" },
            h("span", { class: "card-name" }, station ? station.name : "Your station"),
            h("span", { class: "card-owner" }, "Your station · DJ booth"),
          ),
          h("span", { class: "card-side" }, station && station.onAir ? h("span", { class: "onair-lamp small" }, "On air") : h("span", { class: "offair-lamp" }, "Off air")),
        ),
        h("p", { class: "account-links" }, h("a", { href: stationHref(person.stationID, "settings") }, "Station settings")),
      );
    render(null);
    api.station(person.stationID).then((s) => !destroyed && render(s)).catch(() => {});
    return h("section", { class: "account-section", "aria-labelledby": "your-station-heading" }, h("h2", { class: "section-title", id: "your-station-heading" }, "Your station"), slot);
  }

  function logOutButton(label) {
    const button = h(
      "button",
      {
        class: "btn btn-secondary btn-logout",
        type: "button",
        onclick: async () => {
          button.disabled = true;
          try {
            await session.logOut();
            toast("Signed out. See you on the dial.");
            navigate([]);
          } catch (error) {
            button.disabled = false;
            toast(errorText(error), { kind: "error" });
          }
        },
      },
      label,
    );
    return button;
  }

  function render() {
    const person = session.person;
    if (!person) {
      setText(heading, "Your account");
      fill(
        body,
        h(
          "div",
          { class: "auth-card" },
          glass("OFF AIR"),
          heading,
          h("p", { class: "auth-lead" }, "You're not signed in."),
          h(
            "p",
            { class: "notice-actions" },
            h("a", { class: "btn btn-primary", href: authHref("login", "/account") }, "Sign in"),
            h("a", { class: "btn btn-secondary", href: authHref("signup", "/account") }, "Get your own station"),
          ),
        ),
      );
      return;
    }
    if (person.kind === "guest") {
      setText(heading, person.displayName);
      fill(
        body,
        h(
          "div",
          { class: "auth-card" },
          glass("GUEST"),
          h("div", { class: "account-head" }, avatar(person, "lg"), h("div", {}, heading, h("p", { class: "account-handle" }, "Listening as a guest"))),
          h("p", { class: "auth-lead" }, "Create an account to keep your name, follow friends, and get a station of your own."),
          h(
            "p",
            { class: "notice-actions" },
            h("a", { class: "btn btn-primary btn-guest-signup", href: authHref("signup", "/account") }, "Create an account"),
            logOutButton("Leave"),
          ),
        ),
        // The songs they saved with ♥ as a guest.
        h("div", { class: "account-col guest-liked" }, likedSongsCard(person)),
      );
      return;
    }
    setText(heading, person.displayName);
    goLive = goLiveCard(person, { alive: () => !destroyed });
    const counts = h("p", { class: "account-counts" });
    api
      .person(person.id)
      .then((p) => !destroyed && setText(counts, countsText(p)))
      .catch(() => {});
    fill(
      body,
      h(
        "header",
        { class: "account-hero" },
        avatar(person, "xl"),
        h(
          "div",
          { class: "account-hero-text" },
          heading,
          h("p", { class: "account-handle" }, `@${person.handle}`),
          counts,
          h("p", { class: "account-links" }, h("a", { href: personHref(person.id) }, "Your profile"), " · ", h("a", { href: "#/people" }, "Find people")),
        ),
      ),
      h(
        "div",
        { class: "account-grid" },
        h("div", { class: "account-col" }, person.stationID ? stationCard(person) : null, goLive.el, likedSongsCard(person), h("div", { class: "account-signout" }, logOutButton("Sign out"))),
        h("div", { class: "account-col" }, passwordCard(person), claimCard()),
      ),
    );
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
