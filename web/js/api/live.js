// Live sources' API: your stream key (what broadcast software sends as its
// password to go live) and a station's live source. Errors are ApiErrors
// with the server's message (guests get 403: they can't go live).

import { request } from "./api.js";

const enc = encodeURIComponent;

export const liveApi = {
  /** StreamKeyView without the key: {createdAt?, sourceURL?} (createdAt absent: no key yet). */
  streamKey: ({ signal } = {}) => request("/api/me/stream-key", { signal }),
  /** 201 {key, createdAt, sourceURL}: a new key replacing the old one, shown in this answer only. */
  newStreamKey: () => request("/api/me/stream-key", { method: "POST" }),
  /** 204: no key any more (broadcast software using it can't go live). */
  removeStreamKey: () => request("/api/me/stream-key", { method: "DELETE" }),
  /** LiveSourceView: {onAir, since?, name?, genre?, description?, audioInfo?, title?, listenURL?, sourceURL?}. */
  source: (stationID, { signal } = {}) => request(`/api/stations/${enc(stationID)}/source`, { signal }),
};
