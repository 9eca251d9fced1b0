"""Frequencies with two decimals, as the server hands out once the FM band's
103 odd tenths are taken ("98.35"; FrequencyDial.fineBand): a guest joins a
code-protected station on one through the join form (which used to refuse
any frequency with two decimals), and the dial's "Know a frequency?" form
reaches a public one typed with a decimal comma. The parsing itself is
unit-tested in e2e/js/frequency.test.js."""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.keys import Keys

from conftest import PHONE, Server
from helpers import find, wait_for

FINE = re.compile(r"^\d{2,3}\.\d\d$")
BAND_SIZE = 103  # 87.5 … 107.9, odd tenths


@pytest.fixture(scope="module")
def full_band(tmp_path_factory):
    """A server of its own whose FM band is full, so new stations get
    two-decimal frequencies: (server, host account, [fine-step stations])."""
    server = Server(
        tmp_path_factory.mktemp("full-band-data"), name="full-band",
        options=["--stations-per-account", "1000", "--signups-per-hour", "100000"],
    ).start()
    try:
        host = server.signup(display_name="Band Filler")
        public = None
        for n in range(BAND_SIZE + 2):
            station = server.request("POST", "/api/stations", {"name": f"Filler {n}"}, host.token)["station"]
            if FINE.match(station.get("frequency") or ""):
                public = station
                break
        assert public, "no station got a two-decimal frequency"
        # The band is full now: a party station gets a two-decimal code too.
        party = server.request("POST", "/api/stations", {"name": "Fine Party", "visibility": "code"}, host.token)["station"]
        if party.get("visibility") != "code":
            party = server.request("PATCH", f"/api/stations/{party['id']}", {"visibility": "code"}, host.token)
        fine = [public, party]
        yield server, host, fine
    finally:
        server.stop()


def screen_station_id(d):
    return d.execute_script("return document.querySelector('.station-screen')?.dataset.stationId || null")


def test_a_guest_joins_a_station_on_a_two_decimal_frequency(full_band, browser):
    server, host, fine = full_band
    station = next(s for s in fine if s["visibility"] == "code")
    code = server.request("GET", f"/api/stations/{station['id']}/code", token=host.token)
    assert FINE.match(code["frequency"]) and code["accessCode"], code

    d = browser(PHONE)
    d.get(f"{server.base}/#/join")
    wait_for(d, lambda d: d.execute_script("return document.querySelector('.join-screen')?.dataset.state") == "ready")
    find(d, "#join-frequency").send_keys(code["frequency"])
    find(d, "#join-code").send_keys(code["accessCode"])
    find(d, "#join-name").send_keys("Fine Tuner")
    find(d, "#join-code").send_keys(Keys.ENTER)
    wait_for(
        d, lambda d: screen_station_id(d) == station["id"],
        f"never tuned in to {code['frequency']}: "
        + str(d.execute_script("return document.querySelector('.join-screen .form-error, .join-screen [role=alert]')?.textContent")),
    )


def test_the_dial_tunes_to_a_two_decimal_frequency_typed_with_a_comma(full_band, browser):
    server, _, fine = full_band
    station = next(s for s in fine if s["visibility"] == "public")
    d = browser(PHONE)
    d.get(f"{server.base}/#/")
    wait_for(d, lambda d: d.execute_script("return document.querySelector('.dial-screen')?.dataset.state") == "ready")
    find(d, "#tune-frequency").send_keys(station["frequency"].replace(".", ","), Keys.ENTER)
    wait_for(d, lambda d: screen_station_id(d) == station["id"], f"never tuned in to {station['frequency']}")
