// The library on its own screen: browse by artist, album and song.

import { h } from "../dom.js";
import { createLibraryBrowser } from "./library.js";

export function createLibraryView() {
  const browser = createLibraryBrowser({ initialTab: "artists" });
  const el = h(
    "section",
    { class: "screen library-screen" },
    h("h1", { class: "screen-title", tabindex: "-1" }, "The library"),
    h("p", { class: "muted" }, "Every track this server can put on the air."),
    h("div", { class: "panel" }, browser.el),
  );
  return {
    el,
    title: "Library · Wavelength",
    update: (route) => route.path[0] === "library",
    destroy: () => browser.destroy(),
  };
}
