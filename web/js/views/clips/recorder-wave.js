// The voice clip recorder's waveform on its canvas: while taking, the
// microphone's recent levels scrolling in from the right; afterwards the
// recording's shape, lit up to where the preview has played; an empty
// panel shows a faint row of dots. Drawing only (the bars' numbers are
// recorder-model.js's pushLevel and downsample).

const BAR_PX = 5; // a bar and its gap, in CSS pixels

/** How many bars the canvas has room for. */
export function barsThatFit(canvas) {
  return Math.max(8, Math.floor((canvas.clientWidth || 300) / BAR_PX));
}

/** Sizes the canvas for the screen's pixels: its 2D context, set to CSS pixels, or null. */
function context(canvas, width, height) {
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const g = canvas.getContext("2d");
  if (g) g.setTransform(ratio, 0, 0, ratio, 0, 0);
  return g;
}

/**
 * Draws `bars` (0…1 each) on `canvas`: `taking` the live levels (red,
 * right-aligned), else the recording's shape, lit up to `progress` (0…1,
 * or null for all).
 */
export function drawWave(canvas, { taking, bars, progress = null }) {
  const width = canvas.clientWidth || 300;
  const height = canvas.clientHeight || 56;
  const g = context(canvas, width, height);
  if (!g) return;
  g.clearRect(0, 0, width, height);
  const count = barsThatFit(canvas);
  const mid = height / 2;
  // The dial's glass: a faint centre line.
  g.fillStyle = "rgba(247, 234, 213, 0.12)";
  g.fillRect(0, mid - 0.5, width, 1);
  bars.forEach((value, i) => {
    const x = taking ? width - (bars.length - i) * BAR_PX : i * BAR_PX;
    const barH = Math.max(2, value * (height - 6));
    const lit = progress === null || i / Math.max(1, bars.length) <= progress;
    g.fillStyle = taking ? "#ff6a4d" : lit ? "#ffb347" : "rgba(255, 179, 71, 0.35)";
    g.fillRect(x, mid - barH / 2, BAR_PX - 2, barH);
  });
  if (!taking && !bars.length && count) {
    g.fillStyle = "rgba(255, 179, 71, 0.25)";
    for (let i = 0; i < count; i++) g.fillRect(i * BAR_PX, mid - 1, BAR_PX - 2, 2);
  }
}
