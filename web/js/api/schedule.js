// The schedule's API: a station's week of episodes (ScheduleView), a show's
// page (ShowPage), adding, changing and deleting shows (ShowSpec → ShowView,
// for the owner and co-DJs), "Remind me" and the caller's reminders, and
// calendar links for private stations. Errors
// are ApiErrors with the server's message (a clash is 409 "schedule_clash").

import { request } from "./api.js";
import { scheduleURL } from "../views/schedule/model.js";

const enc = encodeURIComponent;
const station = (id) => `/api/stations/${enc(id)}`;
const show = (id, showID) => `${station(id)}/shows/${enc(showID)}`;

export const scheduleApi = {
  /** ScheduleView for [from, to) (epoch ms), read in `tz`. */
  schedule: (stationID, { from, to, tz }, { signal } = {}) => request(scheduleURL(stationID, { from, to, tz }), { signal }),
  /** ShowPage: {show, upcoming, past, reminded, canEdit, serverTime}. */
  show: (stationID, showID, { signal } = {}) => request(show(stationID, showID), { signal }),
  /** 201 ShowView. */
  create: (stationID, spec) => request(`${station(stationID)}/shows`, { method: "POST", body: spec }),
  /** ShowView. */
  update: (stationID, showID, spec) => request(show(stationID, showID), { method: "PUT", body: spec }),
  remove: (stationID, showID) => request(show(stationID, showID), { method: "DELETE" }),
  /** ReminderView. */
  remind: (stationID, showID, leadMinutes = 10) =>
    request(`${show(stationID, showID)}/reminder`, { method: "PUT", body: { leadMinutes } }),
  unremind: (stationID, showID) => request(`${show(stationID, showID)}/reminder`, { method: "DELETE" }),
  /** CalendarLink {schedule, token?}: a link of your own to a private station's feeds (`linkURL` from the server). */
  calendarLink: (linkURL) => request(linkURL, { method: "POST" }),
  /** Revokes all of them (404 when there were none). */
  stopCalendarLinks: (linkURL) => request(linkURL, { method: "DELETE" }),
  /** [ReminderView], soonest first. */
  reminders: ({ signal } = {}) => request("/api/me/reminders", { signal }),
};
