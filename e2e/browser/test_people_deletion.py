"""The control room hides a station from the dial and deletes a person;
a person unblocks someone and deletes their own account from the account
page, with their password and a second press. Every screen fits at every
width with no sideways scroll."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from accounts_api import PASSWORD, auth_request, log_in_browser, raw_request, signup, unique_handle
from conftest import PHONE, at_every_width
from helpers import click, find, text_of, wait_for
from test_admin import grant


def dial_ids(server, account) -> list[str]:
    dial = auth_request(server, "GET", "/api/dial", token=account.token)
    return [s["id"] for section in dial["sections"] if section["kind"] != "own" for s in section["stations"]]


def test_the_control_room_hides_a_station_and_deletes_a_person(demo_server, browser, shot):
    server = demo_server
    admin = signup(server, unique_handle("adm"), "Station Manager")
    grant(server, admin.handle)
    host = signup(server, unique_handle("hst"), "Rude Name FM")
    fan = signup(server, unique_handle("fan"), "Fan")
    auth_request(server, "PUT", f"/api/people/{host.person['id']}/follow", token=fan.token)
    assert host.station_id in dial_ids(server, fan)

    d = browser(PHONE)
    log_in_browser(d, server, admin)
    d.get(f"{server.base}/#/admin")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".admin-screen #admin-search"), "the control room never opened")
    find(d, "#admin-search").send_keys(host.handle)
    row = f".admin-person[data-person-id='{host.person['id']}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, row), "the person isn't found")
    click(d, f"{row} .admin-detail summary")
    station = f"{row} .admin-station[data-station-id='{host.station_id}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f"{station} .admin-hide-station"), "no way to hide the station")
    find(d, f"{station} .admin-reason").send_keys("Its name is rude")
    click(d, f"{station} .admin-hide-station")
    wait_for(d, lambda d: "hidden from the dial" in (text_of(d, station) or ""), "the station isn't shown as hidden")
    assert host.station_id not in dial_ids(server, fan)
    assert raw_request(server, "GET", f"/api/stations/{host.station_id}", token=fan.token)[0] == 200
    at_every_width(d, shot, "control-room-hidden", [".admin-screen", row, station], reveal=station)

    reason = f"{row} .admin-delete-person-row .admin-reason"
    find(d, reason).send_keys("Asked to be forgotten")
    click(d, f"{row} .admin-delete-person")
    wait_for(d, lambda d: "everything of theirs" in (text_of(d, f"{row} .admin-delete-person") or ""), "no second press asked for")
    click(d, f"{row} .admin-delete-person")
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, row), "the deleted person's row stayed")
    assert raw_request(server, "GET", f"/api/admin/people/{host.person['id']}", token=admin.token)[0] == 404
    assert raw_request(server, "GET", f"/api/stations/{host.station_id}", token=fan.token)[0] == 404
    wait_for(d, lambda d: "deleted" in (text_of(d, ".admin-log") or ""), "the deletion isn't in the log")


def test_a_person_unblocks_someone_and_deletes_their_own_account(demo_server, browser, shot):
    server = demo_server
    me = signup(server, unique_handle("me"), "Leaving Soon")
    pest = signup(server, unique_handle("pst"), "Pest")
    auth_request(server, "PUT", f"/api/blocks/{pest.person['id']}", token=me.token)

    d = browser(PHONE)
    log_in_browser(d, server, me)
    d.get(f"{server.base}/#/account")
    blocked = f".blocks-row[data-person-id='{pest.person['id']}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, blocked), "the blocked person isn't listed")
    at_every_width(d, shot, "account-privacy", [".blocks-card", ".download-card", ".delete-account-card"], reveal=".blocks-card")
    click(d, f"{blocked} .blocks-unblock")
    wait_for(d, lambda d: "You block nobody" in (text_of(d, ".blocks-card") or ""), "the unblock didn't show")
    assert auth_request(server, "GET", "/api/blocks", token=me.token) == []

    # "Download my data": the browser's own session fetches one tar archive.
    assert find(d, ".download-data").get_attribute("href").endswith("/api/auth/export")
    magic = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/auth/export').then(r => r.arrayBuffer()).then(b => done(new TextDecoder().decode(new Uint8Array(b).slice(257, 262))))")
    assert magic == "ustar"

    form = ".delete-account-form"
    find(d, "#delete-password").send_keys("not my password")
    click(d, f"{form} button[type=submit]")
    wait_for(d, lambda d: "delete everything" in (text_of(d, f"{form} button[type=submit]") or ""), "no second press asked for")
    click(d, f"{form} button[type=submit]")
    wait_for(d, lambda d: "not right" in (text_of(d, ".delete-account-card") or ""), "a wrong password wasn't refused")
    field = find(d, "#delete-password")
    field.clear()
    field.send_keys(PASSWORD)
    click(d, f"{form} button[type=submit]")
    wait_for(d, lambda d: d.execute_script("return window.__wavelength.session.person") is None, "still signed in")
    status, _, _ = raw_request(server, "POST", "/api/auth/login", {"handle": me.handle, "password": PASSWORD, "tokens": True})
    assert status == 401
