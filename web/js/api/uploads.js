// Music people upload (see docs/ARCHITECTURE.md, "Uploads"). The upload
// itself goes by XMLHttpRequest, the one browser API that reports an
// upload's progress; everything else through `request`.

import { ApiError, currentCsrfToken, request } from "./api.js";

const enc = encodeURIComponent;

export const uploadsAPI = {
  /** {uploads, usedBytes, quotaBytes, maxFileBytes} */
  mine: () => request("/api/uploads"),
  share: (trackID) => request(`/api/uploads/${enc(trackID)}/share`, { method: "POST" }),
  unshare: (trackID) => request(`/api/uploads/${enc(trackID)}/unshare`, { method: "POST" }),
  remove: (trackID, reason = "") =>
    request(`/api/uploads/${enc(trackID)}${reason ? `?reason=${enc(reason)}` : ""}`, { method: "DELETE" }),
  /** Administrators: everyone's uploads, newest first. */
  everyone: (offset = 0) => request(`/api/admin/uploads?offset=${offset}`),
  setQuota: (personID, megabytes) =>
    request(`/api/admin/people/${enc(personID)}/upload-quota`, { method: "POST", body: { megabytes } }),
  fixTags: (trackID, tags) => request(`/api/admin/tracks/${enc(trackID)}/tags`, { method: "PUT", body: tags }),
};

/**
 * Sends one file; `onProgress(sent, total)` as it goes. Resolves to
 * {status, receipt} (201: a new upload; 200: already on the server),
 * rejects with an ApiError. `abort()` on the returned handle stops it.
 */
export function uploadFile(file, onProgress) {
  const xhr = new XMLHttpRequest();
  const done = new Promise((resolve, reject) => {
    xhr.open("POST", `/api/uploads?name=${enc(file.name)}`);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    const token = currentCsrfToken();
    if (token) xhr.setRequestHeader("X-CSRF-Token", token);
    xhr.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    xhr.addEventListener("load", () => {
      let payload = null;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = null;
      }
      if (xhr.status === 200 || xhr.status === 201) {
        resolve({ status: xhr.status, receipt: payload || {} });
        return;
      }
      const err = payload && payload.error;
      reject(
        new ApiError((err && err.message) || `The server answered ${xhr.status}.`, {
          status: xhr.status,
          code: (err && err.code) || `http_${xhr.status}`,
        }),
      );
    });
    xhr.addEventListener("error", () => reject(new ApiError("Can't reach the Wavelength server.", { code: "network" })));
    xhr.addEventListener("abort", () => reject(new ApiError("Stopped.", { code: "aborted" })));
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}

/** "1.2 GB", "340 MB", "12 KB". */
export function sizeText(bytes) {
  if (bytes >= 1 << 30) return `${(bytes / (1 << 30)).toFixed(bytes % (1 << 30) === 0 ? 0 : 1)} GB`;
  if (bytes >= 1 << 20) return `${Math.round(bytes / (1 << 20))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
