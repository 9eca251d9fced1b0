// The voice clip recorder's preview: the recording played here in an
// <audio> of its own (an object URL, revoked when the recording changes),
// the Preview button pressed while it plays, and the waveform lit as it
// goes (an animation frame per redraw). The panel's data-preview says
// "none", "playing", "paused" or "ended" (the browser tests read it).

import { setText } from "../../ui/dom.js";
import { showPreviewPlaying } from "./recorder-view.js";

/**
 * The preview for `view` (recorder-view.js); `draw(progress)` redraws the
 * waveform lit up to `progress` (null for all): {use(blob), stop(), toggle(), for}.
 */
export function createPreview(view, draw) {
  const audio = new Audio();
  audio.preload = "auto";
  let url = null;
  let frame = 0;
  const preview = { for: null, use, stop, toggle };

  /** Takes `blob` (or null) as the recording to preview. */
  function use(blob) {
    stop();
    if (url) URL.revokeObjectURL(url);
    url = null;
    preview.for = blob;
    view.el.dataset.preview = "none";
    if (blob) {
      url = URL.createObjectURL(blob);
      audio.src = url;
    } else {
      audio.removeAttribute("src");
    }
  }

  function stop() {
    if (!audio.paused) audio.pause();
    cancelAnimationFrame(frame);
    frame = 0;
  }

  function nextFrame() {
    frame = 0;
    if (audio.paused) return;
    const d = audio.duration;
    draw(Number.isFinite(d) && d > 0 ? audio.currentTime / d : null);
    frame = requestAnimationFrame(nextFrame);
  }

  async function toggle() {
    if (!url) return;
    if (!audio.paused) {
      audio.pause();
      return;
    }
    try {
      if (audio.ended) audio.currentTime = 0;
      await audio.play();
    } catch (error) {
      if (error && error.name === "AbortError") return;
      setText(view.problem, "The preview won't play in this browser; the clip can still be sent.");
    }
  }

  audio.addEventListener("playing", () => {
    showPreviewPlaying(view, true);
    view.el.dataset.preview = "playing";
    if (!frame) frame = requestAnimationFrame(nextFrame);
  });
  const stopped = (ended) => {
    showPreviewPlaying(view, false);
    if (ended) view.el.dataset.preview = "ended";
    else if (view.el.dataset.preview === "playing") view.el.dataset.preview = "paused";
    draw(null);
  };
  audio.addEventListener("pause", () => stopped(false));
  audio.addEventListener("ended", () => stopped(true));
  return preview;
}
