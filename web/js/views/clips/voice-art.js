// A voice clip's "cover": no album art, a microphone on the warm fallback
// instead of the disc, so a clip stands out in now playing, Up Next and
// history.

import { h, icon } from "../../ui/dom.js";

const ICON_SIZE = { lg: 96, md: 40, sm: 28, xs: 20 };

export function voiceArt(size = "md") {
  return h("div", { class: `art art-${size} art-fallback art-voice` }, icon("mic", { size: ICON_SIZE[size] || 28, label: "Voice clip" }));
}
