// The Go live panel's outgoing level meter, at animation rate: the bar and
// its held peak every frame, aria-valuenow at most once a second (the
// numbers are broadcast-model.js's meterFall, peakHold and shouldAnnounce).
// One job: the requestAnimationFrame loop and the meter's attributes.

import { meterFall, meterText, meterValue, peakHold, shouldAnnounce, toDb } from "./broadcast-model.js";

/**
 * A meter drawn on `meter` (the role="meter" element) from `deskNow()`'s
 * levels (the BroadcastDesk, or null while there is none; the loop stops
 * then): {start(), reset()}.
 */
export function createMeter(meter, deskNow) {
  let frame = 0;
  let shown = 0;
  let lastFrameAt = 0;
  let held = null;
  let announced = null;

  function draw(now) {
    const desk = deskNow();
    let value = 0;
    if (desk) value = meterValue(toDb(desk.levels().peak));
    const dt = lastFrameAt ? now - lastFrameAt : 0;
    lastFrameAt = now;
    shown = meterFall(shown, value, dt);
    held = peakHold(held, value, now);
    meter.style.setProperty("--level", shown.toFixed(1));
    meter.style.setProperty("--peak", String(Math.max(held.value, shown)));
    meter.dataset.hot = String(value >= 95);
    const rounded = Math.round(shown);
    if (shouldAnnounce(announced, rounded, now)) {
      announced = { value: rounded, at: now };
      meter.setAttribute("aria-valuenow", String(rounded));
      meter.setAttribute("aria-valuetext", meterText(rounded));
    }
  }

  function loop(now) {
    frame = 0;
    if (!deskNow()) return;
    draw(now);
    frame = requestAnimationFrame(loop);
  }

  return {
    start() {
      if (!frame) frame = requestAnimationFrame(loop);
    },
    reset() {
      cancelAnimationFrame(frame);
      frame = 0;
      shown = 0;
      held = null;
      lastFrameAt = 0;
      announced = null;
      draw(performance.now());
    },
  };
}
