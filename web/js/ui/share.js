// Sharing a link: the system share sheet where there is one (phones),
// otherwise the clipboard, otherwise the text is selected for the person to
// copy themselves. Always says what happened in a toast.

import { toast } from "./toast.js";

/**
 * @param {{title: string, text?: string, url: string, select?: HTMLInputElement|HTMLTextAreaElement|null}} what
 * @returns {Promise<"shared"|"copied"|"selected"|"cancelled">}
 */
export async function share({ title, text = "", url, select = null }) {
  const data = { title, text, url };
  if (typeof navigator.share === "function" && (typeof navigator.canShare !== "function" || navigator.canShare(data))) {
    try {
      await navigator.share(data);
      return "shared";
    } catch (error) {
      // Dismissing the sheet is a choice, not an error.
      if (error && error.name === "AbortError") return "cancelled";
      // Not allowed here (no user gesture, insecure context): copy instead.
    }
  }
  return copy(url, { select });
}

/** Copies text to the clipboard, or selects it in `select` when the clipboard is out of reach. */
export async function copy(text, { select = null, done = "Link copied" } = {}) {
  if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
    try {
      await navigator.clipboard.writeText(text);
      toast(done);
      return "copied";
    } catch {
      // Permission refused or not a secure context: fall through.
    }
  }
  if (select) {
    select.focus();
    select.select();
    select.setSelectionRange(0, select.value.length);
    let copied = false;
    try {
      copied = document.execCommand && document.execCommand("copy");
    } catch {
      copied = false;
    }
    if (copied) {
      toast(done);
      return "copied";
    }
    toast("The link is selected: copy it now.");
    return "selected";
  }
  toast("Couldn't reach the clipboard here.", { kind: "error" });
  return "cancelled";
}
