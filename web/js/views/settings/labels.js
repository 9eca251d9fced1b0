// The words and marks the station settings share with other screens: who
// can listen (VISIBILITIES, with their labels for chips) and the gear icon
// that opens the settings.

const SVG_NS = "http://www.w3.org/2000/svg";

export const VISIBILITIES = [
  { value: "public", label: "Public", short: "Public", line: "On the dial for everyone: anyone can tune in." },
  { value: "unlisted", label: "Unlisted (link only)", short: "Link only", line: "Not on the dial; anyone with the station's link can listen." },
  { value: "code", label: "Code-protected", short: "Private", line: "Listeners type the frequency and the 6-digit access code." },
  // Following needs no approval, so this is a soft door: the words say so.
  { value: "followers", label: "Anyone who follows you", short: "Followers", line: "Anyone with an account who taps Follow (no approval needed), and anyone you let in with a code or invite." },
  { value: "invite", label: "Invite only", short: "Invite only", line: "Only people who open an invite link you made." },
];

/** "Code-protected" → "Private" etc., for chips; null for public. */
export function visibilityLabel(visibility, { short = false } = {}) {
  const found = VISIBILITIES.find((v) => v.value === visibility);
  if (!found || found.value === "public") return null;
  return short ? found.short : found.label;
}

/** A small gear (settings) icon, drawn from fixed path data. */
export function gearIcon(size = 24) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("class", "icon icon-gear");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of [
    "M12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z",
    "M19.4 13.5l1.6 1.2-2 3.4-1.9-.7a7.6 7.6 0 0 1-2 1.2l-.3 2h-3.9l-.3-2a7.6 7.6 0 0 1-2-1.2l-1.9.7-2-3.4 1.6-1.2a7.5 7.5 0 0 1 0-3l-1.6-1.2 2-3.4 1.9.7a7.6 7.6 0 0 1 2-1.2l.3-2h3.9l.3 2a7.6 7.6 0 0 1 2 1.2l1.9-.7 2 3.4-1.6 1.2a7.5 7.5 0 0 1 0 3z",
  ]) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "1.8");
    path.setAttribute("stroke-linejoin", "round");
    svg.append(path);
  }
  return svg;
}
