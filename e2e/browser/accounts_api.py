"""HTTP and WebSocket helpers for accounts, guests and follows, for the
browser tests: people made through the API with bearer tokens, a Selenium
browser signed in through the real login form, and Python listeners that
keep a station on the air.

    from accounts_api import signup, auth_request, guest, make_browser_user
"""

from __future__ import annotations

import itertools
import json
import os
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from helpers import PATIENCE, wait_for

PASSWORD = "correct horse battery"

_counter = itertools.count(1)


def unique_handle(prefix: str = "u") -> str:
    """A handle no other test (or test process) uses: 3–24 of a-z 0-9 _."""
    prefix = "".join(c for c in prefix.lower() if c.isalnum() or c == "_")[:9] or "u"
    return f"{prefix}_{os.getpid() % 100000}_{next(_counter)}"[:24]


class ApiFailure(Exception):
    """A 4xx/5xx answer: status, the server's error code and message, the
    parsed body and the response headers."""

    def __init__(self, status: int, code: str | None, message: str, body, headers):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body
        self.headers = headers


def _base(server) -> str:
    return server.base if hasattr(server, "base") else str(server)


def raw_request(server, method: str, path: str, body=None, token: str | None = None, headers: dict | None = None):
    """(status, parsed JSON or None, headers), never raising for HTTP errors."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(_base(server) + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            text = response.read().decode()
            return response.status, (json.loads(text) if text else None), dict(response.headers)
    except urllib.error.HTTPError as error:
        text = error.read().decode(errors="replace")
        try:
            payload = json.loads(text) if text else None
        except ValueError:
            payload = text
        return error.code, payload, dict(error.headers)


def auth_request(server, method: str, path: str, body=None, token: str | None = None, headers: dict | None = None):
    """The parsed JSON answer (None when empty); raises ApiFailure on 4xx/5xx."""
    status, payload, response_headers = raw_request(server, method, path, body, token, headers)
    if status >= 400:
        err = payload.get("error", {}) if isinstance(payload, dict) else {}
        raise ApiFailure(status, err.get("code"), err.get("message", str(payload)), payload, response_headers)
    return payload


@dataclass
class Account:
    """A person with a bearer session: person (PersonView), station
    (StationView or None), token (access token), and what they signed up with."""

    person: dict
    station: dict | None
    token: str
    refresh_token: str | None = None
    handle: str | None = None
    password: str | None = None
    display_name: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.person["id"]

    @property
    def station_id(self) -> str | None:
        return (self.station or {}).get("id") or self.person.get("stationID")


def _account(answer: dict, **kw) -> Account:
    tokens = answer.get("tokens") or {}
    return Account(
        person=answer["person"], station=answer.get("station"), token=tokens.get("accessToken"),
        refresh_token=tokens.get("refreshToken"), **kw,
    )


def signup(server, handle: str | None = None, display_name: str | None = None, password: str = PASSWORD) -> Account:
    """POST /api/auth/signup with tokens: a new user with their own station."""
    handle = handle or unique_handle()
    display_name = display_name or handle.replace("_", " ").title()
    answer = auth_request(server, "POST", "/api/auth/signup",
                          {"handle": handle, "displayName": display_name, "password": password, "tokens": True})
    return _account(answer, handle=handle, password=password, display_name=display_name)


def login(server, handle: str, password: str = PASSWORD) -> Account:
    answer = auth_request(server, "POST", "/api/auth/login", {"handle": handle, "password": password, "tokens": True})
    return _account(answer, handle=handle, password=password, display_name=answer["person"]["displayName"])


def guest(server, name: str) -> Account:
    """POST /api/auth/guest with tokens: a guest named `name`."""
    answer = auth_request(server, "POST", "/api/auth/guest", {"displayName": name, "tokens": True})
    return _account(answer, display_name=name)


def follow(server, account: Account, person_id: str) -> dict:
    return auth_request(server, "PUT", f"/api/people/{person_id}/follow", token=account.token)


def profile(server, person_id: str, token: str | None = None) -> dict:
    """GET /api/people/{id} as a flat dict: PersonView fields plus followers,
    following and youFollow (whether the server nests the person or not)."""
    answer = auth_request(server, "GET", f"/api/people/{person_id}", token=token)
    if isinstance(answer.get("person"), dict):
        flat = dict(answer["person"])
        flat.update({k: v for k, v in answer.items() if k != "person"})
        return flat
    return answer


def give_frequency(server, account: Account) -> str:
    """A new user's station has no frequency until it first goes on the air;
    the owner asking for a code (POST /api/stations/{id}/code) gives it one."""
    code = auth_request(server, "POST", f"/api/stations/{account.station_id}/code", {}, token=account.token)
    account.station = auth_request(server, "GET", f"/api/stations/{account.station_id}", token=account.token)
    return code["frequency"]


# ---------------------------------------------------------------- browsers


def session_person(driver) -> dict | None:
    return driver.execute_script(
        "const w = window.__wavelength; return w && w.session ? w.session.person : undefined;"
    )


def log_in_browser(driver, server, account: Account, next_path: str | None = None) -> None:
    """Signs `driver` in through the web app's login form."""
    suffix = f"?next={next_path}" if next_path else ""
    driver.get(f"{_base(server)}/#/login{suffix}")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#login-handle"), "no login form")
    driver.find_element(By.CSS_SELECTOR, "#login-handle").send_keys(account.handle)
    driver.find_element(By.CSS_SELECTOR, "#login-password").send_keys(account.password, Keys.ENTER)
    wait_for(driver, lambda d: (session_person(d) or {}).get("id") == account.id,
             "the login form never signed in")
    wait_for(driver, lambda d: d.execute_script(
        "return document.getElementById('account-link')?.dataset.state") == "user")


def make_browser_user(driver, server, handle: str | None = None, display_name: str | None = None) -> Account:
    """A new user (signed up through the API, so the test also has their
    bearer token) signed in to `driver` through the login form."""
    account = signup(server, handle, display_name)
    log_in_browser(driver, server, account)
    return account


def log_out_browser(driver) -> None:
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.__wavelength.session.logOut().then(() => done(true), () => done(false));"
    )


# --------------------------------------------------------------- listeners


class LiveListener:
    """A Python WebSocket listener tuned in to a station (keeping it on the
    air), with or without a bearer token. Messages are collected in
    `messages`; WebSocket pings are answered while it reads."""

    def __init__(self, server, station_id: str, token: str | None = None):
        import websocket  # websocket-client

        url = _base(server).replace("http://", "ws://") + f"/api/stations/{station_id}/live?v=1"
        headers = [f"Authorization: Bearer {token}"] if token else []
        self.ws = websocket.create_connection(url, header=headers, timeout=PATIENCE)
        self.messages: list[dict] = []
        self.closed = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        import websocket

        self.ws.settimeout(None)
        try:
            while True:
                text = self.ws.recv()
                if not text:
                    break
                try:
                    self.messages.append(json.loads(text))
                except ValueError:
                    pass
        except (websocket.WebSocketException, OSError):
            pass
        finally:
            self.closed.set()

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass
        self.closed.wait(5)

    def __enter__(self) -> "LiveListener":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def leave_out_of_the_pool(server, station_id: str, token: str, track_ids) -> None:
    """The robot's pool for the station: every track but `track_ids`. A
    test that has the DJ add a track sets this first: when a song ends while
    the test works, the robot may line up that very track, and the DJ's
    toggle would then show it as added already, or take it off."""
    keep = [t["id"] for t in server.tracks() if t["id"] not in set(track_ids)]
    status, _, _ = raw_request(server, "PUT", f"/api/stations/{station_id}/pool", {"trackIDs": keep}, token)
    assert status == 200, status
