// Boots the app: one clock and one player for the page, a hash router that
// swaps views, owner keys taken from links, and the service worker.

import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { ownerKeys, plausibleKey } from "./keys.js";
import { parseHash, buildHash, navigate, stationPath } from "./router.js";
import { ServerClock } from "./clock.js";
import { createPlayer, createReport } from "./player.js";
import { createDialView } from "./views/dial.js";
import { createStationView } from "./views/station.js";
import { createLibraryView } from "./views/library-screen.js";

const clock = new ServerClock();
const player = createPlayer(clock);
const main = document.getElementById("view");
let current = null;

// A marker that survives as long as this page does (tests check reconnects
// happen without a reload).
window.__wavelengthBoot = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
// The measurement hook: tests and the sync benchmark read report().
window.__wavelength = { clock, player, report: createReport(clock, player) };

// Browsers let audio start only from a user gesture: the first tap or key
// (the tune-in click) lets the player's AudioContext run.
for (const type of ["pointerdown", "keydown", "touchend"]) {
  document.addEventListener(type, () => player.unlock(), { capture: true, passive: true });
}

function takeKeyFromURL(route) {
  const key = route.query.get("key");
  if (!key) return route;
  if (route.path[0] === "station" && route.path[1] && plausibleKey(key)) {
    if (ownerKeys.get(route.path[1]) !== key) route.newKey = true;
    ownerKeys.set(route.path[1], key);
  }
  route.query.delete("key");
  // Strip the key from the address bar and from history.
  history.replaceState(history.state, "", buildHash(route.path, route.query));
  return route;
}

async function resolveFrequency(code) {
  try {
    const station = await api.byFrequency(code);
    navigate(stationPath(station.id), { replace: true });
  } catch (error) {
    show(
      {
        el: h(
          "section",
          { class: "screen" },
          h("div", { class: "notice notice-error big-notice", role: "alert" },
            h("h1", { tabindex: "-1" }, "Static on ", code),
            h("p", {}, error.status === 404 ? `Nothing is broadcasting on ${code}.` : error.message),
            h("p", {}, h("a", { class: "btn btn-primary", href: "#/" }, "Back to the dial")),
          ),
        ),
        destroy() {},
        update: () => false,
      },
      "Not found",
    );
  }
}

function show(view, title) {
  if (current) current.destroy();
  current = view;
  fill(main, view.el);
  document.title = title || view.title || "Wavelength";
  document.body.dataset.screen = view.el.classList[1] || "screen";
  const section = location.hash.startsWith("#/library") ? "library" : location.hash.replace(/^#\/?/, "") === "" ? "dial" : "";
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (link.dataset.nav === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const target = view.focusTarget ? view.focusTarget() : view.el.querySelector("h1");
  if (target && route.initialised) target.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

const route = { initialised: false };

function onRoute() {
  const r = takeKeyFromURL(parseHash());
  const [first, second] = r.path;
  // A newly given owner key turns the listener screen into the DJ booth.
  if (current && current.update && !r.newKey && current.update(r)) return;
  if (!first) {
    show(createDialView());
  } else if (first === "station" && second) {
    show(createStationView({ clock, player }, r));
  } else if (first === "f" && second) {
    resolveFrequency(second);
  } else if (first === "library") {
    show(createLibraryView());
  } else {
    navigate([], { replace: true });
  }
  route.initialised = true;
}

window.addEventListener("hashchange", onRoute);
onRoute();

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
