// The account screen's parts (#/account; account.js holds the screen's
// controller): the page for someone signed out, a guest and a signed-in
// person, and its cards: your station, change password, claim a station
// with an owner key from before accounts (keys this browser kept from then
// are offered too), and sign out. Names from the server go in as text.

import { api, request } from "../api/api.js";
import { h, fill, setText, icon } from "../ui/dom.js";
import { session } from "../api/session.js";
import { authHref, navigate, personHref, stationHref, stationPath } from "../router.js";
import { toast } from "../ui/toast.js";
import { parseFrequency } from "../ui/frequency.js";
import { ErrorCode } from "../api/error-codes.js";
import { avatar, countsText } from "./people.js";
import { likedSongsCard } from "./liked-songs.js";
import { errorText, field, firstInvalid, formShell, glass, showServerError } from "./account-forms.js";
import { inviteFriendsCard } from "./server-invites.js";
import { blocksCard, deleteAccountCard, downloadCard } from "./account-privacy.js";

const OLD_KEYS = "wavelength.ownerKeys";

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

/** Change password: the current one and a new one (other devices are signed out). */
export function passwordCard(person) {
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
        showServerError(error, alert, { [ErrorCode.wrongPassword]: current, [ErrorCode.invalidPassword]: next });
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


/** Claim a station with an owner key from before accounts (and any keys this browser kept). */
export function claimCard(alive) {
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
            api.station(stationID).then((s) => alive() && setText(label, `${s.name} (${s.frequency || "—"} FM)`)).catch(() => {});
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


/** Your station's card, with its name and whether it is on the air once they are fetched. */
export function stationCard(person, alive) {
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
  api.station(person.stationID).then((s) => alive() && render(s)).catch(() => {});
  return h("section", { class: "account-section", "aria-labelledby": "your-station-heading" }, h("h2", { class: "section-title", id: "your-station-heading" }, "Your station"), slot);
}


export function logOutButton(label) {
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

/** Signed out: the account screen asks you to sign in. */
export function signedOutPage(heading) {
  setText(heading, "Your account");
  return h(
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
  );
}

/** A guest: create an account (keeping the name), leave, and the songs they liked. */
export function guestPage(person, heading) {
  setText(heading, person.displayName);
  return [
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
  ];
}

/** The way to the control room, shown only to the server's administrators
 * (the server says who is one; everyone else sees nothing here). */
export function controlRoomCard(alive) {
  const slot = h("div", { class: "account-control-room" });
  request("/api/auth/me")
    .then((me) => {
      if (!alive() || !me || me.isAdministrator !== true) return;
      fill(
        slot,
        h(
          "section",
          { class: "account-section", "aria-labelledby": "control-room-heading" },
          h("h2", { class: "section-title", id: "control-room-heading" }, "Run the server"),
          h("p", { class: "muted" }, "You're one of this server's administrators."),
          h("a", { class: "btn btn-secondary btn-small control-room-link", href: "#/admin" }, "Open the control room"),
        ),
      );
    })
    .catch(() => {});
  return slot;
}

/** A signed-in person's account: who they are, their station, Go live (`goLive`'s card), liked songs, password, claim. */
export function accountPage(person, heading, { alive, goLive }) {
  setText(heading, person.displayName);
  const counts = h("p", { class: "account-counts" });
  api
    .person(person.id)
    .then((p) => alive() && setText(counts, countsText(p)))
    .catch(() => {});
  return [
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
      h("div", { class: "account-col" }, person.stationID ? stationCard(person, alive) : null, goLive.el, likedSongsCard(person), h("div", { class: "account-signout" }, logOutButton("Sign out"))),
      h("div", { class: "account-col" }, controlRoomCard(alive), inviteFriendsCard(alive), passwordCard(person), claimCard(alive), blocksCard(alive), downloadCard(), deleteAccountCard(person)),
    ),
  ];
}
