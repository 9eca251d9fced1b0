"""Private stations: a guest with no account joins a code-protected station
by frequency and access code and hears it (with no booth, and the server
refuses its skip); the host's settings change who can listen, rotate the
code (the old one stops working) and make an invite link whose QR code
loads and through which a second guest tunes in; and a guest who fumbles
the code waits while the guest beside them, on the same address, joins."""

from __future__ import annotations

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from accounts_api import guest, log_in_browser, raw_request, signup
from conftest import ALERT_TITLE, PHONE, Server
from helpers import audio, click, find, no_alert, text_of, wait_for, wait_playing

HOSTILE_NAME = ALERT_TITLE  # "<img src=x onerror=alert(1)>"
PERSON_LIMIT = 5  # AttemptLimiter.Policy.joinPerStationPerson: 5 wrong codes in 15 min, then a wait


# ---------------------------------------------------------------------------
# HTTP helpers: people come from accounts_api (bearer tokens); `call` keeps
# the status and error code of every answer, refusals included.

class Answer:
    def __init__(self, status: int, body, headers):
        self.status = status
        self.body = body
        self.headers = headers

    @property
    def code(self):
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return self.body["error"].get("code")
        return None

    def __repr__(self):
        return f"Answer({self.status}, {self.body!r})"


def call(server, method: str, path: str, body=None, token: str | None = None) -> Answer:
    return Answer(*raw_request(server, method, path, body, token))


def ok(answer: Answer, *statuses: int):
    assert answer.status in (statuses or (200, 201, 204)), answer
    return answer.body


def party_station(server, host, name: str, visibility: str = "code") -> tuple[dict, dict]:
    """A party station of host's with the given visibility, and its {frequency, accessCode}."""
    created = ok(call(server, "POST", "/api/stations", {"name": name, "visibility": visibility}, host.token), 201)
    station = created["station"]
    if station.get("visibility") != visibility:
        station = ok(call(server, "PATCH", f"/api/stations/{station['id']}", {"visibility": visibility}, host.token))
    assert station["visibility"] == visibility
    code = ok(call(server, "GET", f"/api/stations/{station['id']}/code", token=host.token))
    if not code.get("frequency") or (visibility == "code" and not code.get("accessCode")):
        code = ok(call(server, "POST", f"/api/stations/{station['id']}/code", {"expiresInMinutes": None}, host.token))
    assert code["frequency"], code
    return station, code


# ---------------------------------------------------------------------------
# Page helpers.

def station_screen(d) -> dict:
    return d.execute_script(
        "const s = document.querySelector('.station-screen');"
        "return s ? {id: s.dataset.stationId, state: s.dataset.state || null, role: s.dataset.role || null,"
        " connection: s.dataset.connection || null} : null;"
    )


def join_ready(d) -> bool:
    return d.execute_script("return document.querySelector('.join-screen')?.dataset.state") == "ready"


def tries(d) -> int:
    return int(d.execute_script("return document.querySelector('.join-screen')?.dataset.tries || '0'"))


def join_error(d) -> dict:
    return d.execute_script(
        "const e = document.getElementById('join-error') || document.getElementById('invite-error');"
        "return e ? {code: e.dataset.code || null, text: e.textContent} : null;"
    )


def type_into(d, selector: str, text: str) -> None:
    field = find(d, selector)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    if text:
        field.send_keys(text)


def join_by_code(d, server, frequency: str, access_code: str, name: str | None, path: str = "/#/join") -> None:
    """Fills #/join like a person would and presses Tune in."""
    d.get(server.base + path)
    wait_for(d, join_ready)
    type_into(d, "#join-frequency", frequency)
    type_into(d, "#join-code", access_code)
    if name is not None:
        name_field = find(d, "#join-name")
        assert name_field.is_displayed(), "someone not signed in is asked for a name"
        type_into(d, "#join-name", name)
    find(d, "#join-code").send_keys(Keys.ENTER)


def booth_controls(d) -> list[str]:
    """Every DJ control on the page (none for a listener)."""
    return d.execute_script(
        "return [...document.querySelectorAll('.btn-skip, .btn-hold, .btn-add, .upnext-actions button, .drag-handle,"
        " .add-col .btn-toggle, .progress.is-seekable, .btn-settings:not([hidden]), .booth-settings-card')]"
        ".map(e => e.className.baseVal ?? e.className);"
    )


def forced_skip(d, station_id: str) -> dict:
    """A skip sent from the page's own session, as a listener's devtools would."""
    return d.execute_async_script(
        """
        const [stationID, done] = arguments;
        (async () => {
          const me = await (await fetch('/api/auth/me', {credentials: 'same-origin'})).json();
          const response = await fetch(`/api/stations/${stationID}/commands`, {
            method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json', 'X-CSRF-Token': me.csrfToken},
            body: JSON.stringify({id: 'x1', command: {op: 'skip'}}),
          });
          let body = null;
          try { body = await response.json(); } catch (e) {}
          done({status: response.status, body, person: me.person});
        })().catch((e) => done({status: -1, body: String(e)}));
        """,
        station_id,
    )



def log_in(d, server, user, next_path: str) -> None:
    """Signs in through the web app's login form, which then goes on to next_path."""
    log_in_browser(d, server, user, next_path)


def settings_ready(d) -> bool:
    return d.execute_script("return document.querySelector('.settings-screen')?.dataset.state") == "ready"


def listeners(server, station_id: str, token: str) -> int:
    return ok(call(server, "GET", f"/api/stations/{station_id}", token=token))["listeners"]


# ---------------------------------------------------------------------------


def test_guest_joins_a_code_protected_station_and_cannot_dj(demo_server, browser, shot):
    host = signup(demo_server, display_name="Party Host")
    station, code = party_station(demo_server, host, "Basement Party")
    assert code["accessCode"] and len(code["accessCode"]) == 6

    # Someone without the code can't listen.
    stranger = guest(demo_server, "Stranger")
    refused = call(demo_server, "GET", f"/api/stations/{station['id']}/access", token=stranger.token)
    assert ok(refused)["canListen"] is False

    d = browser(PHONE)
    d.get(demo_server.base + "/#/join")
    wait_for(d, join_ready)
    assert find(d, "#join-code").get_attribute("inputmode") == "numeric"
    assert "No account needed" in text_of(d, ".join-guest")
    type_into(d, "#join-frequency", code["frequency"])
    type_into(d, "#join-code", code["accessCode"])
    type_into(d, "#join-name", HOSTILE_NAME)
    shot(d, "join")
    click(d, ".btn-join")

    # Tuned in: the listener screen is playing, in sync, with no booth.
    wait_for(d, lambda d: (station_screen(d) or {}).get("id") == station["id"], "never reached the station")
    wait_playing(d)
    wait_for(d, lambda d: (station_screen(d) or {}).get("state") == "ready")
    assert station_screen(d)["role"] == "listener"
    wait_for(d, lambda d: audio(d)["connection"] == "live")
    assert text_of(d, ".station-name") == "Basement Party"
    assert booth_controls(d) == []
    assert no_alert(d) and d.execute_script("return window.__xss") is None
    shot(d, "guest-listening")

    # The server, not just the page, refuses a listener's skip.
    answer = forced_skip(d, station["id"])
    assert answer["person"]["kind"] == "guest" and answer["person"]["displayName"] == HOSTILE_NAME
    assert answer["status"] == 403, answer
    assert answer["body"]["error"]["code"] == "forbidden", answer

    # Someone who just has the station's address is told it's private.
    other = browser(PHONE)
    other.get(f"{demo_server.base}/#/station/{station['id']}")
    wait_for(other, lambda d: "Basement Party is private" in (text_of(d, ".station-over") or "")
             or "This station is private" in (text_of(d, ".station-over") or ""))
    assert other.find_element(By.CSS_SELECTOR, ".station-over a[href='#/join']")
    assert audio(other)["paused"]

    # The host sees the guest among the station's people, by name, as text.
    members = ok(call(demo_server, "GET", f"/api/stations/{station['id']}/members", token=host.token))
    mine = [m for m in members if m["person"]["id"] == answer["person"]["id"]]
    assert mine and mine[0]["role"] == "listener" and mine[0]["connected"] is True, members


def test_host_settings_visibility_code_rotation_and_invite(demo_server, browser, shot):
    host = signup(demo_server, display_name="Settings Host")
    station, code = party_station(demo_server, host, "Rooftop Radio")
    sid = station["id"]

    # The host signs in with the login form and lands on the settings.
    d = browser(PHONE)
    log_in(d, demo_server, host, f"/station/{sid}/settings")
    wait_for(d, settings_ready, "the settings never loaded")
    assert d.execute_script("return document.querySelector('.settings-screen').dataset.role") == "owner"
    readout = lambda d: d.execute_script(
        "const p = document.querySelector('.dial-panel'); return p ? [p.dataset.frequency, p.dataset.accessCode] : null;")
    wait_for(d, lambda d: readout(d) == [code["frequency"], code["accessCode"]])
    assert d.find_element(By.CSS_SELECTOR, "#vis-code").is_selected()
    # Every radio has a label and the group a legend.
    assert text_of(d, ".vis-group legend") == "Who can listen"
    shot(d, "settings")

    # Rotate the code, expiring in a day: the old code stops working.
    Select(find(d, "#code-expiry")).select_by_value("1440")
    click(d, ".code-tools .btn")
    wait_for(d, lambda d: readout(d)[1] and readout(d) != [code["frequency"], code["accessCode"]])
    new_frequency, new_code = readout(d)
    server_code = ok(call(demo_server, "GET", f"/api/stations/{sid}/code", token=host.token))
    assert [server_code["frequency"], server_code["accessCode"]] == [new_frequency, new_code]
    assert server_code["expiresAt"] and server_code["expiresAt"] > time.time() * 1000 + 23 * 3600 * 1000
    assert "expires" in text_of(d, ".dial-expiry")
    late = guest(demo_server, "Late Guest")
    old = call(demo_server, "POST", f"/api/frequencies/{code['frequency']}/join", {"accessCode": code["accessCode"]}, late.token)
    assert old.status in (403, 404), old
    fresh = call(demo_server, "POST", f"/api/frequencies/{new_frequency}/join", {"accessCode": new_code}, late.token)
    assert ok(fresh)["station"]["id"] == sid

    # Change who can listen: invite only.
    click(d, "label[for='vis-invite']")
    click(d, ".station-form button[type='submit']")
    wait_for(d, lambda d: "Saved" in (text_of(d, "#station-status") or ""))
    assert ok(call(demo_server, "GET", f"/api/stations/{sid}", token=host.token))["visibility"] == "invite"
    assert d.execute_script("return document.querySelector('.settings-screen').dataset.visibility") == "invite"

    # An invite link with a QR code that loads, a PNG and a share button.
    click(d, ".invite-form button[type='submit']")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".invite-card img.qr-img"))
    wait_for(d, lambda d: d.execute_script(
        "const i = document.querySelector('.invite-card img.qr-img'); return i.complete && i.naturalWidth > 0;"),
        "the invite's QR code never loaded")
    img = find(d, ".invite-card img.qr-img")
    assert img.get_attribute("alt") == "QR code for the invite link"
    link = find(d, "#invite-link").get_attribute("value")
    token = link.split("#/i/", 1)[1]
    assert link == f"{demo_server.base}/#/i/{token}"
    assert find(d, ".btn-qr-png").get_attribute("href").endswith(f"/api/invites/{token}/qr.png")
    wait_for(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".invite-row")) == 1)
    # Share without a share sheet copies the link.
    d.execute_script(
        "window.__copied = null; Object.defineProperty(navigator, 'share', {value: undefined, configurable: true});"
        "navigator.clipboard.writeText = (t) => { window.__copied = t; return Promise.resolve(); };")
    click(d, ".btn-share")
    wait_for(d, lambda d: d.execute_script("return window.__copied") == link)
    wait_for(d, lambda d: "Link copied" in (text_of(d, "#toasts") or ""))
    d.execute_script("document.querySelector('.invite-card').scrollIntoView()")
    shot(d, "settings-invite")

    # A second guest opens the link, sees the station and tunes in.
    g = browser(PHONE)
    g.get(link)
    wait_for(g, lambda g: g.execute_script("return document.querySelector('.invite-screen')?.dataset.state") == "ready")
    assert text_of(g, ".invite-screen .readout-name") == "Rooftop Radio"
    assert "Settings Host" in text_of(g, ".invite-owner")
    type_into(g, "#invite-name", "Second Guest")
    shot(g, "invite")
    click(g, ".invite-screen .btn-join")
    wait_for(g, lambda g: (station_screen(g) or {}).get("id") == sid)
    wait_playing(g)
    assert booth_controls(g) == []

    # The host's people list shows them, connected.
    row = "[data-person-id] .person-name"
    wait_for(d, lambda d: any("Second Guest" in e.text for e in d.find_elements(By.CSS_SELECTOR, row)))
    wait_for(d, lambda d: d.execute_script(
        "return [...document.querySelectorAll('.person-row')].some(r => r.textContent.includes('Second Guest')"
        " && r.dataset.connected === 'true')"))
    uses = ok(call(demo_server, "GET", f"/api/stations/{sid}/invites", token=host.token))
    assert uses[0]["uses"] >= 1

    # Revoked, the link says so clearly.
    click(d, ".invite-row [data-action='revoke']")
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, ".invite-card"))
    wait_for(d, lambda d: "Revoked" in (text_of(d, ".invite-row") or ""))
    late_comer = browser(PHONE)
    late_comer.get(link)
    wait_for(late_comer, lambda d: d.execute_script("return document.querySelector('.invite-screen')?.dataset.state") == "invalid")
    assert "expired or was revoked" in text_of(late_comer, ".invite-invalid")


def test_a_guest_who_fumbles_the_code_waits_and_the_guest_beside_them_joins(browser, shot, tmp_path):
    # Its own server: waits are kept per station, person and address, and
    # every browser here comes from 127.0.0.1, like a party behind one NAT.
    server = Server(tmp_path / "data", name="lockout").start()
    try:
        host = signup(server, display_name="Lock Host")
        station, code = party_station(server, host, "Fort Knox FM")
        right = code["accessCode"]
        wrong = [c for c in ("000000", "111111", "222222", "333333", "999999") if c != right]

        d = browser(PHONE)
        join_by_code(d, server, code["frequency"], wrong[0], "Fumbler")
        wait_for(d, lambda d: tries(d) == 1)
        for attempt in range(1, PERSON_LIMIT + 1):
            if attempt > 1:
                type_into(d, "#join-code", wrong[attempt % len(wrong)])
                find(d, "#join-code").send_keys(Keys.ENTER)
                wait_for(d, lambda d: tries(d) == attempt)
            error = join_error(d)
            assert error["code"] == "wrong_code", f"try {attempt}: {error}"
            assert error["text"], "a refused code is explained"
        shot(d, "wrong-code")

        # The next try waits, even with the right code, and says for how long.
        type_into(d, "#join-code", right)
        find(d, "#join-code").send_keys(Keys.ENTER)
        wait_for(d, lambda d: tries(d) == PERSON_LIMIT + 1)
        error = join_error(d)
        assert error["code"] == "locked_out", error
        assert "Try again in" in error["text"], error
        assert station_screen(d) is None
        shot(d, "locked-out")

        # The guest beside them, on the same Wi-Fi, types the right code and
        # is in. (Ten wrong codes used to lock the whole address out for 15
        # minutes, and a party behind one NAT with it.)
        friend = browser(PHONE)
        join_by_code(friend, server, code["frequency"], right, "Friend")
        wait_for(friend, lambda d: (station_screen(d) or {}).get("id") == station["id"])
        shot(friend, "friend-joined")
    finally:
        server.stop()
