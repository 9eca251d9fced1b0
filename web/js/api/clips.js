// Voice clips between songs, and the stations other servers on this network
// announce. A clip's recording goes as the request's body, as it is (the
// MediaRecorder's Blob, e.g. audio/webm;codecs=opus), through the app's
// request helper, so it carries the session cookie and the CSRF token.

import { request } from "./api.js";

const enc = encodeURIComponent;
const base = (stationID) => `/api/stations/${enc(stationID)}/clips`;

export const clipsAPI = {
  /**
   * Sends a recording (a Blob) with an optional note: the owner's and
   * co-DJs' play next (201), a listener's waits for the host (202); both
   * answer a ClipView. Throws ApiError (bad_audio, too_long, too_large,
   * clip_quota, pending_clips, not_on_air, clips_closed, busy, …).
   */
  send: (stationID, blob, note = "", { signal } = {}) =>
    request(`${base(stationID)}${note ? `?note=${enc(note)}` : ""}`, { method: "POST", raw: blob, signal }),
  /** {clips: [ClipView], usedBytes, quotaBytes}: every clip for the host and co-DJs, your own for others. */
  list: (stationID, { signal } = {}) => request(base(stationID), { signal }),
  /** The host approves a waiting clip: it plays next. */
  approve: (stationID, clipID) => request(`${base(stationID)}/${enc(clipID)}/approve`, { method: "POST" }),
  /** Deletes a clip (409 conflict while it is still on the timeline). */
  remove: (stationID, clipID) => request(`${base(stationID)}/${enc(clipID)}`, { method: "DELETE" }),
  /** {browsing, stations: [{stationID, name, frequency, mode, needsCode, serverURL, stationURL}]}. */
  nearby: ({ signal } = {}) => request("/api/nearby", { signal }),
};
