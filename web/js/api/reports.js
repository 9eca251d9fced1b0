// Reports, the moderation queues and blocks (see docs/ARCHITECTURE.md,
// "Reports and blocks"). The reporter is never shown to the reported, and
// only administrators see who reported.

import { request } from "./api.js";

const enc = encodeURIComponent;

export const reportsAPI = {
  /** {subject: chat|clip|station|person, id, stationID?, reason, note} → {id, createdAt}. */
  file: (report) => request("/api/reports", { method: "POST", body: report }),
  /** The station's queue (owner and co-DJs): its chat's and clips' reports. */
  station: (stationID, status = "open") => request(`/api/stations/${enc(stationID)}/reports?status=${enc(status)}`),
  /** Every report (administrators). */
  admin: (status = "open") => request(`/api/admin/reports?status=${enc(status)}`),
  /** dismiss, delete, mute, ban or suspend, with a note → the closed ReportView. */
  close: (reportID, action, note = "") => request(`/api/reports/${enc(reportID)}/close`, { method: "POST", body: { action, note } }),
  evidenceURL: (reportID) => `/api/reports/${enc(reportID)}/evidence`,
  blocks: () => request("/api/blocks"),
  block: (personID) => request(`/api/blocks/${enc(personID)}`, { method: "PUT" }),
  unblock: (personID) => request(`/api/blocks/${enc(personID)}`, { method: "DELETE" }),
};

/** The people you block, as a set of ids, kept for the page (empty while signed out). */
let blocked = null;
const listeners = new Set();

export async function blockedIDs() {
  if (blocked) return blocked;
  try {
    blocked = new Set((await reportsAPI.blocks()).map((p) => p.id));
    return blocked;
  } catch {
    // Signed out (or no signal): nobody is blocked, and we ask again next time.
    return new Set();
  }
}

/** Blocks (or unblocks) someone, and tells whoever draws their messages. */
export async function setBlocked(personID, on) {
  await (on ? reportsAPI.block(personID) : reportsAPI.unblock(personID));
  blocked = null;
  const set = await blockedIDs();
  if (on) set.add(personID);
  else set.delete(personID);
  for (const listener of listeners) listener(set);
}

export function onBlocksChanged(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forget the list (another person signed in). */
export function forgetBlocks() {
  blocked = null;
}

export const REASONS = [
  ["spam", "Spam or ads"],
  ["harassment", "Harassment or bullying"],
  ["hate", "Hate"],
  ["sexual", "Sexual content"],
  ["violence", "Violence or threats"],
  ["illegal", "Something illegal"],
  ["other", "Something else"],
];

export const ACTION_WORDS = {
  dismiss: "Dismiss",
  delete: "Delete it",
  mute: "Mute 1 hour",
  ban: "Ban from the station",
  suspend: "Suspend the account",
};
