"""A crowd guessing a password or an access code never locks out the real
person (issue 10, item 6), seen from the real person's browser.

Five wrong passwords used to lock an account out of logging in from
anywhere (and a handle is public), and twenty wrong codes blocked every join
to a station for an hour. Now a crowd of addresses that fails past the
handle's or the station's own limit is held back, each address that failed
there lately; the owner, or the guest with the right code, who typed nothing
wrong, gets in at once.

The crowd comes through a trusted proxy (`--trusted-proxy 127.0.0.1`), each
guesser with an address of its own in `X-Forwarded-For`; the browser comes
straight from 127.0.0.1.
"""

from __future__ import annotations

from accounts_api import log_in_browser, raw_request, session_person, signup
from conftest import PHONE, Server
from helpers import wait_for
from test_private import join_by_code, party_station, station_screen

# The crowd limits of the shipped policies (docs/ARCHITECTURE.md, "The
# rate-limit model"): failures from every address, per handle and per station.
HANDLE_CROWD_LIMIT = 100
STATION_CROWD_LIMIT = 200
# Each guesser stays under its own limits (5 per handle or person, 30 per
# address at a station, 50 per address), so only the crowd limit trips.
EACH = 4


def crowd_server(tmp_path, name: str) -> Server:
    return Server(tmp_path / "data", name=name, options=[
        "--signups-per-hour", "100000", "--guests-per-hour", "100000", "--bcrypt-cost", "4",
        "--trusted-proxy", "127.0.0.1"]).start()


def address(n: int) -> dict:
    return {"X-Forwarded-For": f"198.51.{100 + n // 250}.{1 + n % 250}"}


def test_a_crowd_guessing_a_password_never_locks_the_owner_out(browser, tmp_path, shot):
    server = crowd_server(tmp_path, "password-crowd")
    try:
        owner = signup(server, display_name="Popular Owner")
        guessers = HANDLE_CROWD_LIMIT // EACH
        for n in range(guessers):
            for _ in range(EACH):
                status, body, _ = raw_request(server, "POST", "/api/auth/login", {
                    "handle": owner.handle, "password": "not the password", "tokens": True}, headers=address(n))
                assert status == 401, (n, status, body)
        # The crowd is held back now: a guesser gets a wait even with the
        # right password.
        status, body, headers = raw_request(server, "POST", "/api/auth/login", {
            "handle": owner.handle, "password": owner.password, "tokens": True}, headers=address(0))
        assert status == 429 and body["error"]["code"] == "rate_limited", (status, body)
        assert int(headers.get("Retry-After", "0")) > 0, headers

        # The owner, who typed nothing wrong, signs in through the form.
        d = browser(PHONE)
        log_in_browser(d, server, owner)
        assert session_person(d)["id"] == owner.id
        shot(d, "owner-signed-in")
    finally:
        server.stop()


def test_a_crowd_guessing_a_code_never_keeps_the_real_guest_out(browser, tmp_path, shot):
    server = crowd_server(tmp_path, "code-crowd")
    try:
        host = signup(server, display_name="Vault Host")
        station, code = party_station(server, host, "Vault FM")
        right = code["accessCode"]
        wrong = [c for c in ("000000", "111111", "222222", "333333", "444444") if c != right][:EACH]
        join = f"/api/frequencies/{code['frequency']}/join"
        guessers = STATION_CROWD_LIMIT // EACH
        tokens = []
        for n in range(guessers):
            status, body, _ = raw_request(server, "POST", "/api/auth/guest",
                                          {"displayName": f"Guesser {n}", "tokens": True}, headers=address(n))
            assert status in (200, 201), body
            tokens.append(body["tokens"]["accessToken"])
            for guess in wrong:
                status, body, _ = raw_request(server, "POST", join, {"accessCode": guess},
                                              token=tokens[-1], headers=address(n))
                assert status == 404 and body["error"]["code"] == "wrong_code", (n, status, body)
        # The crowd is held back: a guesser waits even with the right code.
        status, body, headers = raw_request(server, "POST", join, {"accessCode": right},
                                            token=tokens[0], headers=address(0))
        assert status == 429 and body["error"]["code"] == "station_locked", (status, body)
        assert int(headers.get("Retry-After", "0")) > 0, headers

        # The real guest types the right code and is in.
        d = browser(PHONE)
        join_by_code(d, server, code["frequency"], right, "Real Guest")
        wait_for(d, lambda d: (station_screen(d) or {}).get("id") == station["id"])
        shot(d, "real-guest-joined")
    finally:
        server.stop()
