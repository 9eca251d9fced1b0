// Hash routes: #/, #/f/107.3, #/station/ID, #/station/ID/add, #/library.

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
