// The HTTP API client. Every error becomes an ApiError carrying the server's
// `{"error": {"message", "code"}}`, or a network error with code "network".
//
// Requests go with this site's cookies (the session cookie `wl_session`);
// state-changing ones carry the session's CSRF token in `X-CSRF-Token`. The
// token comes from session.js (which registers it here with `useCsrfToken`)
// or, before the session has loaded, from the readable cookie `wl_csrf`.

import { ErrorCode } from "./error-codes.js";

export class ApiError extends Error {
  constructor(message, { status = 0, code = "network", retryAfter = null } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    /** Seconds to wait before trying again (429 answers), or null. */
    this.retryAfter = retryAfter;
  }
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

let csrfSource = () => null;
let csrfRefresh = null;

/**
 * session.js tells the client where the CSRF token lives and how to fetch a
 * fresh one (a 403 `csrf` answer is retried once after a refresh: another
 * tab may have signed in or out since this page loaded).
 */
export function useCsrfToken(source, refresh = null) {
  csrfSource = source;
  csrfRefresh = refresh;
}

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) {
      try {
        return decodeURIComponent(v.join("="));
      } catch {
        return v.join("=");
      }
    }
  }
  return null;
}

/** The session's CSRF token, for a request made without `request` (an upload's XHR, for its progress). */
export function currentCsrfToken() {
  return csrfSource() || cookie("wl_csrf");
}

function retryAfterSeconds(response) {
  const value = response.headers.get("Retry-After");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - Date.now()) / 1000)) : null;
}

/**
 * request("/api/…", {method, body, signal}) → the parsed JSON answer (or
 * null for an empty one). Throws ApiError. `raw` (a Blob) is sent as the
 * body as it is instead of JSON, with `contentType` (or the Blob's type).
 */
export async function request(path, { method = "GET", body, raw, contentType, signal } = {}, retried = false) {
  method = method.toUpperCase();
  const headers = { Accept: "application/json" };
  if (raw !== undefined) headers["Content-Type"] = contentType || raw.type || "application/octet-stream";
  else if (body !== undefined) headers["Content-Type"] = "application/json";
  if (UNSAFE.has(method)) {
    const token = currentCsrfToken();
    if (token) headers["X-CSRF-Token"] = token;
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: raw !== undefined ? raw : body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: "no-store",
      credentials: "same-origin",
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
    const code = (err && err.code) || `http_${response.status}`;
    if (response.status === 403 && code === ErrorCode.csrf && !retried && csrfRefresh) {
      try {
        await csrfRefresh();
      } catch {
        // Fall through to the original error.
      }
      return request(path, { method, body, raw, contentType, signal }, true);
    }
    throw new ApiError((err && err.message) || `The server answered ${response.status}.`, {
      status: response.status,
      code,
      retryAfter: response.status === 429 || response.status === 503 ? retryAfterSeconds(response) : null,
    });
  }
  return payload;
}

const enc = encodeURIComponent;

/**
 * A ProfileView is a PersonView plus {followers, following, youFollow}; a
 * server that nests the person (`{person: {…}, followers, …}`) is read the
 * same way.
 */
function profile(value) {
  if (value && value.person && typeof value.person === "object") {
    const { person, ...rest } = value;
    return { ...person, ...rest };
  }
  return value;
}

export const api = {
  health: () => request("/health"),
  stations: () => request("/api/stations"),
  station: (id) => request(`/api/stations/${enc(id)}`),
  byFrequency: (code) => request(`/api/frequencies/${enc(code)}`),
  timeline: (id) => request(`/api/stations/${enc(id)}/timeline`),
  access: (id) => request(`/api/stations/${enc(id)}/access`),
  /** A party station of the signed-in user: 201 {station}. */
  createStation: (name, visibility = "code") =>
    request("/api/stations", { method: "POST", body: { name, visibility } }),
  /** An owner key from before accounts makes the signed-in user the owner. */
  claim: (stationID, key) => request(`/api/stations/${enc(stationID)}/claim`, { method: "POST", body: { key } }),
  /** A DJ command, authenticated by the session cookie (and its CSRF token). */
  command: (stationID, id, command, epoch) =>
    request(`/api/stations/${enc(stationID)}/commands`, { method: "POST", body: { id, command, epoch } }),
  dial: ({ signal } = {}) => request("/api/dial", { signal }),
  /**
   * "What's this song?": a recorded clip (a Blob of audio, at most 2 MiB)
   * → {match: {track, offsetMs, similarity}} or {match: null} (or {}).
   */
  identify: (clip, { signal } = {}) => request("/api/identify", { method: "POST", raw: clip, signal }),

  // People and follows.
  people: (q, { signal } = {}) => request(`/api/people?q=${enc(q)}`, { signal }),
  person: (id, { signal } = {}) => request(`/api/people/${enc(id)}`, { signal }).then(profile),
  followers: (id, { signal } = {}) => request(`/api/people/${enc(id)}/followers`, { signal }),
  following: (id, { signal } = {}) => request(`/api/people/${enc(id)}/following`, { signal }),
  follow: (id) => request(`/api/people/${enc(id)}/follow`, { method: "PUT" }).then(profile),
  unfollow: (id) => request(`/api/people/${enc(id)}/follow`, { method: "DELETE" }).then(profile),

  // The library.
  search: (q, { limit = 25, signal } = {}) =>
    request(`/api/library/search?q=${enc(q)}&limit=${limit}`, { signal }),
  artists: ({ signal } = {}) => request("/api/library/artists", { signal }),
  /** TrackDetails: {track, codec, isrc, musicBrainzRecordingID, hasLyrics, lyricsURL}. */
  track: (id, { signal } = {}) => request(`/api/tracks/${enc(id)}`, { signal }),
  /** The lyrics as plain text (LRC time tags left in), or null when there are none. */
  lyrics: async (id, { signal } = {}) => {
    let response;
    try {
      response = await fetch(`/api/tracks/${enc(id)}/lyrics`, { signal, credentials: "same-origin" });
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new ApiError("Can't reach the Wavelength server.", { code: "network" });
    }
    if (response.status === 404) return null;
    if (!response.ok) throw new ApiError(`The server answered ${response.status}.`, { status: response.status, code: `http_${response.status}` });
    return response.text();
  },
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
  // How far the background audio analysis has come: {analyzed, total, running}.
  analysis: ({ signal } = {}) => request("/api/library/analysis", { signal }),
};
