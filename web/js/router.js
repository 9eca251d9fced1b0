// Hash routes: #/ (the dial), #/f/107.3, #/station/ID, #/station/ID/add,
// #/station/ID/settings, #/station/ID/history, #/station/ID/schedule(?week=2026-11-23),
// #/station/ID/show/SHOW, #/station/ID/show/SHOW/edit, #/station/ID/shows/new, #/library, #/people, #/people/ID, #/signup,
// #/login, #/account, #/join, #/join/107.3, #/i/TOKEN, #/admin.

export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#/, "");
  const [pathPart, queryPart = ""] = raw.split("?");
  const path = pathPart
    .split("/")
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
  return { path, query: new URLSearchParams(queryPart) };
}

export function buildHash(path, query) {
  const q = query && query.toString();
  return `#/${path.map(encodeURIComponent).join("/")}${q ? `?${q}` : ""}`;
}

export function navigate(path, { replace = false, query } = {}) {
  const hash = buildHash(path, query);
  if (replace) {
    history.replaceState(history.state, "", hash);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  } else if (location.hash === hash) {
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  } else {
    location.hash = hash;
  }
}

export function stationPath(id, ...rest) {
  return ["station", id, ...rest];
}

export function stationHref(id, ...rest) {
  return buildHash(stationPath(id, ...rest));
}

export function personHref(id) {
  return buildHash(["people", id]);
}

/** The current route as a path string for `?next=` ("/people/u1"). */
export function currentPath() {
  const { path, query } = parseHash();
  return buildHash(path, query).slice(1);
}

/**
 * A `?next=` value is only ever a path inside this app ("/people"), never
 * another site; anything else is dropped.
 */
export function safeNext(value) {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return null;
  if (/^\/(login|signup)(\/|\?|$)/.test(value)) return null;
  return value;
}

/** #/login?next=/people/u1 */
export function authHref(kind, next = currentPath()) {
  const query = new URLSearchParams();
  const safe = safeNext(next);
  if (safe && safe !== "/") query.set("next", safe);
  return buildHash([kind], query);
}

/** Goes to a `?next=` path (see safeNext). */
export function navigateTo(pathString, { replace = false } = {}) {
  const { path, query } = parseHash(`#${pathString}`);
  navigate(path, { replace, query });
}
