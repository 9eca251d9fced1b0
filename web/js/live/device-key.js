// This page's device key: said to the station's WebSocket and to the live
// relay (`?listener=`), so that a signed-out listener hearing a live show is
// one listener in the station's count, not an app listener plus a stream
// listener. Random, once per page: a reload closes the page's connection
// and its relay together. 16 random bytes as base64url (22 characters; the
// server takes 8–64 of A–Z a–z 0–9 - _). getRandomValues, unlike
// randomUUID, works on plain-http LAN addresses too.

function makeKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export const deviceKey = makeKey();

/** `url` with this page's device key as `listener`. */
export function withDeviceKey(url) {
  if (typeof url !== "string" || url === "") return url;
  const hash = url.indexOf("#");
  const [base, fragment] = hash < 0 ? [url, ""] : [url.slice(0, hash), url.slice(hash)];
  return `${base}${base.includes("?") ? "&" : "?"}listener=${deviceKey}${fragment}`;
}
