// "On this network" on the dial, in words (no DOM): the stations other
// Wavelength servers on the LAN announce over mDNS, as this server found
// them (GET /api/nearby; a browser can't browse mDNS itself). Anything on
// the LAN can announce, so every name is text to be set with textContent,
// and a link is kept only when it is a plain http(s) address. Unit-tested
// in e2e/js/nearby.test.js.

/** How often the dial asks again while it is open (ms). */
export const NEARBY_REFRESH_MS = 10_000;
/** At most this many are listed. */
export const NEARBY_MAX = 50;
const NAME_MAX = 80;

const MODES = { dj: "DJ", requests: "Requests", lobby: "Lobby vote" };

function cleanName(value) {
  if (typeof value !== "string") return "";
  const line = value.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, " ").replace(/\s+/g, " ").trim();
  const chars = Array.from(line);
  return chars.length > NAME_MAX ? `${chars.slice(0, NAME_MAX - 1).join("")}…` : line;
}

/** An http(s) address as a URL, or null (javascript:, data:, relative and broken ones). */
export function safeURL(value) {
  if (typeof value !== "string" || !value) return null;
  let url;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password) return null;
  return url;
}

/**
 * What the section shows: {visible, browsing, stations: [{key, name,
 * frequency, mode, needsCode, href, host, label}]}: the announced stations
 * with a safe address, once each, in the server's order.
 */
export function nearbyModel(payload) {
  const browsing = Boolean(payload && payload.browsing);
  const list = payload && Array.isArray(payload.stations) ? payload.stations : [];
  const seen = new Set();
  const stations = [];
  for (const s of list) {
    if (!s || typeof s !== "object") continue;
    const url = safeURL(s.stationURL);
    if (!url || seen.has(url.href)) continue;
    seen.add(url.href);
    const name = cleanName(s.name) || "A Wavelength station";
    const frequency = typeof s.frequency === "string" && /^\d{2,3}(\.\d{1,3})?$/.test(s.frequency) ? s.frequency : null;
    const needsCode = s.needsCode === true;
    const mode = MODES[s.mode] || "";
    const label = [
      frequency ? `${frequency} FM, ${name}` : name,
      `on another Wavelength server at ${url.host}`,
      needsCode ? "needs an access code" : null,
    ].filter(Boolean).join(", ");
    stations.push({ key: url.href, name, frequency, mode, needsCode, href: url.href, host: url.host, label });
    if (stations.length >= NEARBY_MAX) break;
  }
  return { visible: stations.length > 0, browsing, stations };
}
