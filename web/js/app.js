// Boots the app: one clock and one player for the page, who is signed in
// (session.js), a hash router that swaps views, the header's account link,
// and the service worker.

import { api, ApiError } from "./api/api.js";
import { h, fill } from "./ui/dom.js";
import { session } from "./api/session.js";
import { parseHash, buildHash, navigate, stationPath, authHref } from "./router.js";
import { ServerClock } from "./playback/clock.js";
import { parseFrequency } from "./ui/frequency.js";
import { createPlayer, createReport } from "./playback/player.js";
import { claimPlayer } from "./playback/early-player.js";
import { toast } from "./ui/toast.js";
import { createDialView } from "./views/dial.js";
import { createStationView } from "./views/station.js";
import { createLibraryView } from "./views/library-screen.js";
import { createPeopleView, createProfileView, initial } from "./views/people.js";
import { createSignupView, createLoginView, createAccountView } from "./views/account.js";
import { startReminders } from "./reminders/reminders.js";
import { ErrorCode } from "./api/error-codes.js";

// A station link may have made them as it opened, and play already.
const early = claimPlayer();
const clock = early ? early.clock : new ServerClock();
const player = early ? early.player : createPlayer(clock);
const main = document.getElementById("view");
let current = null;
let routeToken = 0;

// A marker that survives as long as this page does (tests check reconnects
// happen without a reload).
window.__wavelengthBoot = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
// The measurement hook: tests and the sync benchmark read report().
window.__wavelength = { clock, player, report: createReport(clock, player), session };
// "Remind me": reminders go off while the app is open, for whoever is signed in.
window.__wavelength.reminders = startReminders(session);

// Browsers let audio start only from a user gesture: the first tap or key
// (the tune-in click) lets the player's AudioContext run.
for (const type of ["pointerdown", "keydown", "touchend"]) {
  document.addEventListener(type, () => player.unlock(), { capture: true, passive: true });
}

/**
 * Owner links (`#/station/ID?key=…`) from before accounts no longer open the
 * booth. The key is a secret: take it out of the address bar and history.
 */
function dropOwnerKey(route) {
  if (!route.query.has("key")) return route;
  route.query.delete("key");
  history.replaceState(history.state, "", buildHash(route.path, route.query));
  toast("Owner links don't open the DJ booth any more: sign in, then claim the station with its key on your account page.", { timeout: 9000 });
  return route;
}

function message(title, ...body) {
  return {
    el: h(
      "section",
      { class: "screen message-screen" },
      h("div", { class: "notice notice-error big-notice", role: "alert" }, h("h1", { tabindex: "-1" }, title), ...body),
    ),
    destroy() {},
    update: () => false,
  };
}

async function resolveFrequency(code, token) {
  try {
    // Not a frequency's shape: the server would only say "not found".
    const frequency = parseFrequency(code);
    if (!frequency) throw new ApiError("Not a frequency.", { status: 404, code: ErrorCode.notFound });
    const station = await api.byFrequency(frequency);
    if (token !== routeToken) return;
    navigate(stationPath(station.id), { replace: true });
  } catch (error) {
    if (token !== routeToken) return;
    show(
      message(
        `Static on ${code}`,
        h("p", {}, error.status === 404 ? `Nothing is broadcasting on ${code}.` : error.message),
        error.status === 404
          ? h("p", { class: "muted" }, "A private station? ", h("a", { href: buildHash(["join", code]) }, "Join with an access code"), ".")
          : null,
        h("p", {}, h("a", { class: "btn btn-primary", href: "#/" }, "Back to the dial")),
      ),
      "frequency",
      "Not found",
    );
  }
}

/** Views from other modules that load on first use (join, invites, settings). */
async function showLazy(kind, loader, factoryName, route, token) {
  try {
    const module = await loader();
    if (token !== routeToken) return;
    show(module[factoryName](route), kind);
  } catch (error) {
    if (token !== routeToken) return;
    console.error(error);
    show(
      message(
        "This screen didn't load",
        h("p", {}, "Check your connection and try again."),
        h("p", {}, h("a", { class: "btn btn-primary", href: "#/" }, "Back to the dial")),
      ),
      kind,
      "Wavelength",
    );
  }
}

function navSection(path) {
  const first = path[0] || "";
  if (first === "") return "dial";
  if (first === "library") return "library";
  if (first === "people") return "people";
  if (first === "account" || first === "login" || first === "signup" || first === "admin" || first === "reset") return "account";
  return "";
}

function markNav(path) {
  const section = navSection(path);
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (link.dataset.nav === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

function show(view, kind, title) {
  if (current) current.destroy();
  current = view;
  document.body.dataset.route = kind || "";
  fill(main, view.el);
  document.title = title || view.title || "Wavelength";
  document.body.dataset.screen = view.el.classList[1] || "screen";
  markNav(parseHash().path);
  const target = view.focusTarget ? view.focusTarget() : view.el.querySelector("h1");
  if (target && route.initialised) target.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

const route = { initialised: false };

/** Which view a route belongs to. */
function kindOf(path) {
  const [first, second, third, fourth, fifth] = path;
  if (!first) return "dial";
  if (first === "station" && second) {
    if (third === "schedule") return "schedule";
    if (third === "shows" && fourth === "new") return "show-new";
    if (third === "show" && fourth) return fifth === "edit" ? "show-edit" : "show";
    return third === "settings" ? "settings" : third === "history" ? "history" : "station";
  }
  if (first === "f" && second) return "frequency";
  if (first === "library") return "library";
  if (first === "people") return second ? "profile" : "people";
  if (first === "signup" || first === "login" || first === "account") return first;
  if (first === "join") return "join";
  if (first === "i" && second) return "invite";
  if (first === "admin") return "admin";
  if (first === "reset" && second) return "reset";
  return null;
}

function onRoute() {
  const r = dropOwnerKey(parseHash());
  const kind = kindOf(r.path);
  const token = ++routeToken;
  markNav(r.path);
  // The current view keeps routes it handles itself (the station screen
  // opens its add panel and, for its DJs, settings over the playing station).
  if (current && current.update && current.update(r)) return;
  switch (kind) {
    case "dial":
      show(createDialView(), kind);
      break;
    case "station":
      // The previous screen goes first: its destroy() stops the shared
      // player, which the station screen may start as it is built.
      if (current) current.destroy();
      current = null;
      show(createStationView({ clock, player }, r), kind);
      break;
    case "settings":
      showLazy(kind, () => import("./views/settings.js"), "createSettingsView", r, token);
      break;
    case "history":
      showLazy(kind, () => import("./views/history/screen.js"), "createHistoryView", r, token);
      break;
    case "schedule":
      showLazy(kind, () => import("./views/schedule/screen.js"), "createScheduleView", r, token);
      break;
    case "show":
      showLazy(kind, () => import("./views/schedule/show-page.js"), "createShowView", r, token);
      break;
    case "show-new":
    case "show-edit":
      showLazy(kind, () => import("./views/schedule/editor.js"), "createShowEditor", r, token);
      break;
    case "frequency":
      resolveFrequency(r.path[1], token);
      break;
    case "library":
      show(createLibraryView(), kind);
      break;
    case "people":
      show(createPeopleView(r), kind);
      break;
    case "profile":
      show(createProfileView(r), kind);
      break;
    case "signup":
      show(createSignupView(r), kind);
      break;
    case "login":
      show(createLoginView(r), kind);
      break;
    case "account":
      show(createAccountView(r), kind);
      break;
    case "join":
      showLazy(kind, () => import("./views/join.js"), "createJoinView", r, token);
      break;
    case "invite":
      showLazy(kind, () => import("./views/join.js"), "createInviteView", r, token);
      break;
    case "admin":
      showLazy(kind, () => import("./views/admin.js"), "createAdminView", r, token);
      break;
    case "reset":
      showLazy(kind, () => import("./views/password-reset.js"), "createPasswordResetView", r, token);
      break;
    default:
      navigate([], { replace: true });
  }
  route.initialised = true;
}

// The header: "Sign in", a guest's "Sign up" (create an account), or the signed-in
// person's name (a round initial on phones) linking to their account.
function renderAccountLink(person) {
  const link = document.getElementById("account-link");
  if (!link) return;
  if (person && person.kind === "user") {
    link.href = "#/account";
    link.dataset.state = "user";
    fill(
      link,
      h("span", { class: "avatar avatar-sm", "aria-hidden": "true" }, initial(person.displayName)),
      h("span", { class: "account-name" }, person.displayName),
      h("span", { class: "visually-hidden" }, ", your account"),
    );
  } else if (person && person.kind === "guest") {
    // A guest's own page: their liked songs, and "Create an account" (which
    // keeps their name and likes).
    link.href = "#/account";
    link.dataset.state = "guest";
    fill(
      link,
      h("span", { class: "avatar avatar-sm", "aria-hidden": "true" }, initial(person.displayName)),
      // Short enough for any header ("Create an account" was cut to
      // "Create an acco…"); the full words are for screen readers.
      h("span", { class: "account-name account-name-always", "aria-hidden": "true" }, "Guest"),
      h("span", { class: "visually-hidden" }, `${person.displayName}, listening as a guest: your liked songs, or create an account keeping your name`),
    );
  } else {
    link.href = "#/login";
    link.dataset.state = "signed-out";
    fill(link, h("span", { class: "account-name account-name-always" }, "Sign in"));
  }
}

session.onChange(renderAccountLink);
window.addEventListener("hashchange", onRoute);
// Signed in or out in another tab: notice when this one is looked at again.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) session.load();
});

// Who is here decides what the first screen shows; don't wait long for it.
Promise.race([session.load(), new Promise((resolve) => setTimeout(resolve, 2500))]).then(() => {
  renderAccountLink(session.person);
  onRoute();
});

// Keyboard: a skip link jumps to the content.
document.getElementById("skip-link")?.addEventListener("click", (event) => {
  event.preventDefault();
  const target = main.querySelector("h1");
  if (target) target.focus();
});

if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  });
}
