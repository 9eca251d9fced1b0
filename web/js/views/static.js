// Radio static over the album art while a station is being tuned in. It
// dissolves once the audio plays, so the art "blooms" through.

import { h } from "../ui/dom.js";

export function createStatic() {
  const canvas = h("canvas", { class: "static", width: "96", height: "96", "aria-hidden": "true" });
  const ctx = canvas.getContext("2d");
  const image = ctx ? ctx.createImageData(canvas.width, canvas.height) : null;
  let frame = null;
  let last = 0;
  let stopTimer = null;
  const reduced = matchMedia("(prefers-reduced-motion: reduce)").matches;

  function draw(t) {
    frame = requestAnimationFrame(draw);
    if (t - last < 60) return;
    last = t;
    const data = image.data;
    for (let i = 0; i < data.length; i += 4) {
      const v = (Math.random() * 255) | 0;
      // Warm static: amber-tinted grain.
      data[i] = v;
      data[i + 1] = (v * 0.78) | 0;
      data[i + 2] = (v * 0.55) | 0;
      data[i + 3] = 255;
    }
    ctx.putImageData(image, 0, 0);
  }

  return {
    el: canvas,
    /** Show static: the signal isn't there yet. */
    on() {
      canvas.classList.remove("is-clear");
      if (!image || reduced) return;
      if (frame === null) frame = requestAnimationFrame(draw);
    },
    /** The signal locked: fade the static out, then stop drawing. */
    off() {
      canvas.classList.add("is-clear");
      clearTimeout(stopTimer);
      stopTimer = setTimeout(() => {
        if (canvas.classList.contains("is-clear")) {
          cancelAnimationFrame(frame);
          frame = null;
        }
      }, 900);
    },
    destroy() {
      clearTimeout(stopTimer);
      cancelAnimationFrame(frame);
      frame = null;
    },
  };
}
