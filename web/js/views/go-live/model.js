// Going live from broadcast software, apart from the DOM: reading the
// server's icecast:// source address into the fields BUTT and Mixxx ask for
// (server, port, mount, user, password) and putting your station into it.
// Plain data and pure functions (with the stream key card at a glance):
// go-live/key-card.js and key-card-view.js render them, and
// e2e/js/go-live tests them. (The station screen's live show comes from
// the timeline: station/live-model.js.)

/** Icecast's own port when an address names none. */
export const ICECAST_PORT = 8000;

function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * "icecast://source:KEY@radio.example.org:8000/live/s1" →
 * {scheme, user, password, host, port, mount}, or null when it isn't such an
 * address. Written by hand: Chromium's URL parser leaves the host of an
 * unknown scheme (icecast:) empty. The password is everything between the
 * first ":" of the user part and the last "@" before the path, so a key with
 * ":" or "@" in it survives; an IPv6 host loses its brackets ("::1"); a
 * missing port is Icecast's 8000.
 */
export function parseSourceURL(text) {
  if (typeof text !== "string") return null;
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/i.exec(text.trim());
  if (!match) return null;
  const [, scheme, authority, path] = match;
  const at = authority.lastIndexOf("@");
  const userinfo = at >= 0 ? authority.slice(0, at) : "";
  const hostport = at >= 0 ? authority.slice(at + 1) : authority;
  const colon = userinfo.indexOf(":");
  const user = decoded(colon >= 0 ? userinfo.slice(0, colon) : userinfo);
  const password = colon >= 0 ? decoded(userinfo.slice(colon + 1)) : "";
  let host;
  let portText;
  if (hostport.startsWith("[")) {
    const close = hostport.indexOf("]");
    if (close < 0) return null;
    host = hostport.slice(1, close);
    const rest = hostport.slice(close + 1);
    if (rest && !rest.startsWith(":")) return null;
    portText = rest ? rest.slice(1) : "";
  } else {
    const last = hostport.lastIndexOf(":");
    host = last >= 0 ? hostport.slice(0, last) : hostport;
    portText = last >= 0 ? hostport.slice(last + 1) : "";
    if (host.includes(":")) return null;
  }
  if (!host || /\s/.test(host)) return null;
  let port = ICECAST_PORT;
  if (portText) {
    if (!/^\d{1,5}$/.test(portText)) return null;
    port = Number(portText);
    if (port < 1 || port > 65535) return null;
  }
  return { scheme: scheme.toLowerCase(), user, password, host, port, mount: decoded(path) || "/" };
}

/** The server's address with "{station}" made `stationID` (the key answers leave it open). */
export function withStation(sourceURL, stationID) {
  if (typeof sourceURL !== "string") return null;
  if (!stationID) return sourceURL;
  return sourceURL.split("{station}").join(encodeURIComponent(stationID));
}

/** Whether an address still has a placeholder for the key ("KEY"). */
export function hasKeyPlaceholder(parsed) {
  return Boolean(parsed) && parsed.password === "KEY";
}

/**
 * What to type into BUTT or Mixxx, in their order: [{id, label, value}].
 * `key` is the password when it is known (right after it is made); else the
 * password row's value is null.
 */
export function sourceFields(sourceURL, stationID, key = null) {
  const parsed = parseSourceURL(withStation(sourceURL, stationID));
  if (!parsed) return null;
  const password = key || (hasKeyPlaceholder(parsed) || !parsed.password ? null : parsed.password);
  return [
    { id: "host", label: "Server (host)", value: parsed.host },
    { id: "port", label: "Port", value: String(parsed.port) },
    { id: "mount", label: "Mount", value: parsed.mount },
    { id: "user", label: "User", value: parsed.user || "source" },
    { id: "password", label: "Password", value: password },
  ];
}

/** The whole address for `stationID` with `key` as its password (the server's own when it has the key in it). */
export function fullSourceURL(sourceURL, stationID, key = null) {
  const url = withStation(sourceURL, stationID);
  if (!url || !key) return url;
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)KEY@/i, (_, head) => `${head}${encodeURIComponent(key)}@`);
}

/** "Made 24 Nov 2026, 01:52" for a key's createdAt (ms). */
export function madeText(createdAt, locale = undefined) {
  if (!Number.isFinite(createdAt)) return "";
  const date = new Date(createdAt);
  const day = date.toLocaleDateString(locale, { day: "numeric", month: "short", year: "numeric" });
  const time = date.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  return `${day}, ${time}`;
}

/**
 * The stream key card at a glance, from the server's `GET /api/me/stream-key`
 * answer (`info`: {createdAt?, sourceURL?}) and a key just made (`fresh`, or
 * null): {hasKey, off, state ("off", "fresh", "key" or "none"), status}.
 */
export function keyCardLook(info, fresh = null) {
  const hasKey = Number.isFinite(info.createdAt);
  const off = !info.sourceURL;
  const state = off ? "off" : fresh ? "fresh" : hasKey ? "key" : "none";
  const status = off
    ? "Going live is turned off on this server: it takes no broadcast software."
    : hasKey
      ? `You have a stream key, made ${madeText(info.createdAt)}.`
      : "You have no stream key yet.";
  return { hasKey, off, state, status };
}

/**
 * After making a key (`answer`: {key, createdAt, sourceURL}): the card's
 * info reads as the GET answer would, KEY in place of the key.
 */
export function infoAfterMaking(info, answer) {
  return { ...info, createdAt: answer.createdAt, sourceURL: answer.sourceURL ? answer.sourceURL.replace(`:${answer.key}@`, ":KEY@") : null };
}
