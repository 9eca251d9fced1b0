// Who is using this browser: a signed-in user, a guest (a display name
// only), or nobody. The server keeps the session in an HttpOnly cookie; this
// module remembers the person and the CSRF token that state-changing
// requests must carry, and tells subscribers when either changes.

import { request, useCsrfToken } from "./api.js";

let person = null;
let csrfToken = null;
let loaded = false;
let loading = null;
const listeners = new Set();

function same(a, b) {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.id === b.id && a.kind === b.kind && a.handle === b.handle && a.displayName === b.displayName && a.stationID === b.stationID;
}

function apply(nextPerson, nextToken) {
  const changed = !same(person, nextPerson) || !loaded;
  person = nextPerson || null;
  csrfToken = nextToken || null;
  loaded = true;
  if (!changed) return;
  for (const listener of [...listeners]) {
    try {
      listener(person);
    } catch (error) {
      console.error(error);
    }
  }
}

/** An AuthResponse ({person, station, csrfToken}) makes its person current. */
function adopt(response) {
  apply(response && response.person, response && response.csrfToken);
  return response;
}

async function load() {
  if (loading) return loading;
  loading = (async () => {
    try {
      const me = await request("/api/auth/me");
      apply(me && me.person, me && me.csrfToken);
    } catch (error) {
      // A server that can't be reached (or predates accounts): nobody is
      // signed in as far as this page can tell; keep a known person on a
      // network error, since the cookie is probably still good.
      if (error.code !== "network") apply(null, null);
      else if (!loaded) apply(null, null);
    } finally {
      loading = null;
    }
    return person;
  })();
  return loading;
}

useCsrfToken(() => csrfToken, () => load());

export const session = {
  /** GET /api/auth/me: who this browser is. Never throws. */
  load,
  /** PersonView ({id, kind, handle, displayName, stationID}) or null. */
  get person() {
    return person;
  },
  get csrfToken() {
    return csrfToken;
  },
  /** True once the first load has answered (or failed). */
  get loaded() {
    return loaded;
  },
  get isUser() {
    return Boolean(person && person.kind === "user");
  },
  get isGuest() {
    return Boolean(person && person.kind === "guest");
  },

  /** The current person, or a new guest named displayName. */
  async ensureGuest(displayName) {
    if (!loaded) await load();
    if (person) return person;
    const response = await request("/api/auth/guest", { method: "POST", body: { displayName } });
    adopt(response);
    return person;
  },

  /** callback(person) after every change of who is signed in; returns unsubscribe. */
  onChange(callback) {
    listeners.add(callback);
    return () => listeners.delete(callback);
  },

  /** Signs up (a guest is upgraded in place). Resolves to {person, station};
   * where the server approves each account, to {awaitingApproval, handle,
   * message} with nobody signed in. */
  async signUp({ handle, displayName, password, invite }) {
    const answer = await request("/api/auth/signup", { method: "POST", body: { handle, displayName, password, invite: invite || undefined } });
    if (answer && answer.awaitingApproval === true) return answer;
    return adopt(answer);
  },

  /** Resolves to {person, station}; wrong details throw ApiError 401 invalid_credentials. */
  async logIn({ handle, password }) {
    return adopt(await request("/api/auth/login", { method: "POST", body: { handle, password } }));
  },

  async logOut() {
    try {
      await request("/api/auth/logout", { method: "POST" });
    } catch (error) {
      // Already signed out on the server (401) is as good as done.
      if (error.code === "network") throw error;
    }
    apply(null, null);
  },

  /** Deletes the account for good (the password again); signed out after. */
  async deleteAccount({ password }) {
    await request("/api/auth/delete-account", { method: "POST", body: { password } });
    apply(null, null);
  },

  /** Every other session of this person is signed out by the server. */
  async changePassword({ currentPassword, newPassword }) {
    await request("/api/auth/password", { method: "POST", body: { currentPassword, newPassword } });
  },
};
