// The HTTP API client. Every error becomes an ApiError carrying the server's
// `{"error": {"message", "code"}}`, or a network error with code "network".

export class ApiError extends Error {
  constructor(message, { status = 0, code = "network" } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

async function request(path, { method = "GET", body, key, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers.Authorization = `Bearer ${key}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: "no-store",
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError("Can't reach the Wavelength server.", { code: "network" });
  }
  let payload = null;
  const text = await response.text();
  if (text) {
    try {
      payload = JSON.parse(text);
    } catch {
      payload = null;
    }
  }
  if (!response.ok) {
    const err = payload && payload.error;
    throw new ApiError((err && err.message) || `The server answered ${response.status}.`, {
      status: response.status,
      code: (err && err.code) || `http_${response.status}`,
    });
  }
  return payload;
}

const enc = encodeURIComponent;

export const api = {
  health: () => request("/health"),
  stations: () => request("/api/stations"),
  station: (id) => request(`/api/stations/${enc(id)}`),
  byFrequency: (code) => request(`/api/frequencies/${enc(code)}`),
  timeline: (id) => request(`/api/stations/${enc(id)}/timeline`),
  createStation: (name, owner) =>
    request("/api/stations", { method: "POST", body: owner ? { name, owner } : { name } }),
  command: (stationID, key, id, command) =>
    request(`/api/stations/${enc(stationID)}/commands`, { method: "POST", key, body: { id, command } }),
  search: (q, { limit = 25, signal } = {}) =>
    request(`/api/library/search?q=${enc(q)}&limit=${limit}`, { signal }),
  artists: ({ signal } = {}) => request("/api/library/artists", { signal }),
  albums: ({ artist, signal } = {}) =>
    request(`/api/library/albums${artist !== undefined ? `?artist=${enc(artist)}` : ""}`, { signal }),
  tracks: ({ artist, album, limit = 100, offset = 0, signal } = {}) => {
    const params = new URLSearchParams();
    if (artist !== undefined) params.set("artist", artist);
    if (album !== undefined) params.set("album", album);
    params.set("limit", String(limit));
    params.set("offset", String(offset));
    return request(`/api/library/tracks?${params}`, { signal });
  },
};

/** Checks an owner key without changing anything: the server answers the caller's role. */
export async function checkOwnerKey(stationID, key) {
  const access = await request(`/api/stations/${encodeURIComponent(stationID)}/access`, { key });
  return access.role === "owner";
}
