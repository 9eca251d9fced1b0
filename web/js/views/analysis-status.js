// One line on the library screen that says how far the server has come
// measuring every song's loudness and rhythm (GET /api/library/analysis).
// While it runs, it asks again every few seconds; it stops when the work is
// done or the screen goes.

import { api } from "../api/api.js";
import { h, setText } from "../ui/dom.js";

const pollMs = 4000;

/** The words for a progress answer; exported for the unit tests. */
export function analysisText({ analyzed, total, running }) {
  if (!total) return "";
  const songs = total === 1 ? "song" : "songs";
  if (analyzed >= total) return `Every ${songs === "song" ? "song" : `one of the ${total} songs`} is measured for loudness and tempo.`;
  const share = Math.floor((analyzed / total) * 100);
  return running
    ? `Measuring loudness and tempo: ${analyzed} of ${total} ${songs} (${share}%).`
    : `${analyzed} of ${total} ${songs} measured for loudness and tempo.`;
}

export function createAnalysisStatus() {
  const el = h("p", { class: "analysis-status muted", role: "status", "aria-live": "polite" });
  const controller = new AbortController();
  let timer = null;

  async function refresh() {
    timer = null;
    try {
      const progress = await api.analysis({ signal: controller.signal });
      setText(el, analysisText(progress));
      if (progress.running && !controller.signal.aborted) timer = setTimeout(refresh, pollMs);
    } catch (error) {
      // The line is a courtesy: without an answer it stays empty.
      if (error.name !== "AbortError") setText(el, "");
    }
  }
  refresh();

  return {
    el,
    destroy() {
      controller.abort();
      if (timer) clearTimeout(timer);
    },
  };
}
