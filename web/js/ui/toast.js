// Short messages in a polite live region: confirmations and errors.

import { h } from "./dom.js";

export function toast(message, { kind = "info", timeout = 4500 } = {}) {
  const region = document.getElementById("toasts");
  if (!region) return;
  const item = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  region.append(item);
  setTimeout(() => {
    item.classList.add("toast-out");
    setTimeout(() => item.remove(), 400);
  }, timeout);
}
