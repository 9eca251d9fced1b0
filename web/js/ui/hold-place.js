// Keeps the page still when a panel above what someone is reading comes,
// goes or changes size: the lyrics when a song with words ends, a clip
// arriving in the booth's inbox. Without it the chat under a moderator's
// finger jumped 461 px when the song changed, and their tap landed on the
// header.
//
// The browser's own scroll anchoring keeps the top of the window still,
// and fails here: when the panel reaches the top of the window it anchors
// inside the panel, which then goes; with two columns it anchors in the
// other one. So when a panel begins above the top of the window, the first
// thing after it that is on screen is kept where it was. A panel wholly in
// view changes in view, where it is seen.

/** Runs `change` (which shows, hides or redraws `panel`) and keeps what follows it in place on screen. */
export function holdPlace(panel, change) {
  const after = firstShownAfter(panel);
  const top = shown(panel) ? panel.getBoundingClientRect().top : after && after.getBoundingClientRect().top;
  if (!after || top === undefined || top >= 0) {
    change();
    return;
  }
  const before = after.getBoundingClientRect().top;
  change();
  // Read after the change's layout: had the browser moved the page itself, this is 0.
  const moved = after.getBoundingClientRect().top - before;
  if (Math.abs(moved) >= 1) window.scrollBy({ top: moved, behavior: "instant" });
}

function shown(el) {
  return el.getClientRects().length > 0;
}

function firstShownAfter(el) {
  for (let next = el.nextElementSibling; next; next = next.nextElementSibling) {
    if (shown(next)) return next;
  }
  return null;
}
