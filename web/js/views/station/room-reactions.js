// Emoji reactions to the moment, for every listener (signed in, a guest
// or nobody): a row of the station's palette under the now-playing art,
// each button with the song's total beside it; pressing one sends a
// `react` for the entry playing. What the room sends comes back in bursts
// (a few a second) that float up over the art for a moment; with
// prefers-reduced-motion nothing floats and only the totals change.
//
// The numbers and choices are room-reactions-model.js's; the sending is
// chat-actions.js's. (reactions.js, thumbs and ♥, is another thing.)

import { h, fill, setText } from "../../ui/dom.js";
import { burstParticles, compactCount, reactionLabel, reactionRow } from "./room-reactions-model.js";

/** Emoji floating at once, at most (a room tapping hard stays light). */
const MAX_FLOATING = 40;
/** A particle's life when its animation never ends (a hidden tab). */
const PARTICLE_MS = 2600;

const reducedMotion = () => Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

/** @param {{ onReact: (emoji: string) => void }} actions */
export function createRoomReactions({ onReact }) {
  const buttons = h("div", { class: "room-reactions-buttons" });
  const status = h("p", { class: "room-react-status", role: "status" });
  const el = h("div", { class: "room-reactions", role: "group", "aria-label": "React to this moment", hidden: true }, buttons, status);
  // The row's room is kept from the start: the palette comes with the
  // chat's first message, and a row that appeared then pushed the controls
  // down under a finger (or a test's click) already on its way.
  const slot = h("div", { class: "room-reactions-slot" }, el);
  // Over the art: seen, not read (the totals are on the buttons).
  const layer = h("div", { class: "reaction-burst", "aria-hidden": "true", dataset: { bursts: "0" } });
  const row = {
    el: slot,
    group: el,
    layer,
    status,
    /** The palette drawn, joined: the buttons are built again only when it changes. */
    drawn: "",
    byEmoji: new Map(),
    statusTimer: null,
  };

  function build(items) {
    row.byEmoji.clear();
    fill(
      buttons,
      items.map((item) => {
        const count = h("span", { class: "room-react-count", "aria-hidden": "true" });
        const button = h(
          "button",
          { type: "button", class: "btn-room-react", dataset: { emoji: item.emoji }, onclick: () => onReact(item.emoji) },
          h("span", { class: "room-react-emoji", "aria-hidden": "true" }, item.emoji),
          count,
        );
        row.byEmoji.set(item.emoji, { button, count });
        return button;
      }),
    );
  }

  /**
   * Shows the palette with the totals for the entry playing ({palette,
   * reactions, entryID}); no entry, no buttons to press.
   */
  row.render = ({ palette, reactions, entryID, visible = true }) => {
    el.hidden = !visible;
    if (!visible) return;
    const items = reactionRow(palette, reactions, entryID);
    const key = items.map((i) => i.emoji).join("|");
    if (key !== row.drawn) {
      row.drawn = key;
      build(items);
    }
    el.dataset.entryId = entryID || "";
    for (const item of items) {
      const parts = row.byEmoji.get(item.emoji);
      if (!parts) continue;
      setText(parts.count, compactCount(item.count));
      parts.button.dataset.count = String(item.count);
      parts.button.classList.toggle("has-count", item.count > 0);
      const label = reactionLabel(item);
      if (parts.button.getAttribute("aria-label") !== label) parts.button.setAttribute("aria-label", label);
      parts.button.disabled = !entryID;
    }
  };

  /** A burst from the room: floats over the art (not with reduced motion). */
  row.burst = (burst, palette) => {
    layer.dataset.bursts = String(Number(layer.dataset.bursts || 0) + 1);
    if (reducedMotion() || document.visibilityState === "hidden") return;
    const particles = burstParticles(burst, { palette });
    const room = Math.max(0, MAX_FLOATING - layer.childElementCount);
    // They rise about three quarters of the way up the art, whatever its size.
    const rise = `${Math.round(Math.max(120, layer.clientHeight * 0.78))}px`;
    particles.slice(0, room).forEach((emoji, i) => {
      const p = h("span", { class: "burst-emoji" }, emoji);
      // Where it rises, how it sways, when it starts, how big: custom properties the CSS reads.
      p.style.setProperty("--x", `${8 + Math.random() * 80}%`);
      p.style.setProperty("--drift", `${Math.round((Math.random() - 0.5) * 60)}px`);
      p.style.setProperty("--delay", `${i * 70}ms`);
      p.style.setProperty("--rise", rise);
      p.style.setProperty("--size", `${(1.6 + Math.random() * 1.1).toFixed(2)}rem`);
      const done = () => p.remove();
      p.addEventListener("animationend", done, { once: true });
      setTimeout(done, PARTICLE_MS + i * 70);
      layer.append(p);
    });
    // A small pop on the buttons that were pressed, for those who see the row rather than the art.
    for (const emoji of Object.keys(burst || {})) {
      const parts = row.byEmoji.get(emoji);
      if (!parts) continue;
      parts.button.classList.remove("is-popping");
      void parts.button.offsetWidth;
      parts.button.classList.add("is-popping");
    }
  };

  /** A short word under the row (too fast, the song ended), gone after a while. */
  row.say = (text) => {
    setText(status, text);
    clearTimeout(row.statusTimer);
    row.statusTimer = setTimeout(() => setText(status, ""), 4000);
  };

  row.destroy = () => {
    clearTimeout(row.statusTimer);
    fill(layer);
  };
  return row;
}
