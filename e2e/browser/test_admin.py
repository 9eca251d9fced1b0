"""The control room: an administrator made from the host's shell
(`wavelength admin grant`) finds it in their account, finds a person,
suspends them with a reason (the person's own browser is signed out and
told why at sign-in), sees it in the log and reinstates them. Someone who
isn't an administrator sees no way in, and is refused at the door. Every
width fits with no sideways scroll."""

from __future__ import annotations

import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import LiveListener, auth_request, log_in_browser, make_browser_user, raw_request, session_person, signup
from conftest import PHONE, at_every_width, server_binary
from helpers import click, find, text_of, wait_for


def grant(server, handle: str) -> None:
    done = subprocess.run(
        [str(server_binary()), "admin", "grant", handle, "--data", str(server.data), "--reason", "runs the station"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_administrator_suspends_and_reinstates_from_the_control_room(demo_server, browser, shot):
    d = browser(PHONE)
    admin = make_browser_user(d, demo_server, display_name="Station Manager")
    grant(demo_server, admin.handle)
    subject = signup(demo_server, display_name="Chat Spammer")

    # The way in is on the account page, for administrators only.
    d.get(f"{demo_server.base}/#/account")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".control-room-link"), "no way to the control room")
    find(d, ".control-room-link").click()
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".admin-screen #admin-search"))
    wait_for(d, lambda d: "made an administrator" in (text_of(d, ".admin-log") or ""), "the shell's grant isn't in the log")
    # At a glance: the server's figures, read from the server.
    wait_for(d, lambda d: (text_of(d, ".glance-tile[data-figure='people'] .glance-figure") or "").isdigit(), "no figures at a glance")
    assert int(text_of(d, ".glance-tile[data-figure='people'] .glance-figure")) >= 2
    assert "%" in (text_of(d, ".glance-tile[data-figure='cpu'] .glance-figure") or "")
    at_every_width(d, shot, "control-room-glance", [".admin-screen", ".glance-tiles", ".glance-warnings"])

    find(d, "#admin-search").send_keys(subject.handle)
    row = f".admin-person[data-person-id='{subject.person['id']}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, row), "the person isn't found")
    assert "In good standing" in (text_of(d, row) or "")
    at_every_width(d, shot, "control-room", [".admin-screen", ".admin-panel", ".glance-tiles", row], reveal=row)

    # Their stations and sessions; a station with a listener taken off the air.
    listener = LiveListener(demo_server, subject.station["id"], token=subject.token)
    try:
        wait_for(d, lambda d: listener.messages, "the listener never heard the station")
        click(d, f"{row} .admin-detail summary")
        station = f"{row} .admin-station[data-station-id='{subject.station['id']}']"
        wait_for(d, lambda d: "1 listening" in (text_of(d, station) or ""), "the person's station isn't listed with its listener")
        assert "Signed in on 1 device" in (text_of(d, f"{row} .admin-detail-body") or "")
        at_every_width(d, shot, "control-room-person", [".admin-screen", row, station], reveal=station)
        find(d, f"{station} .admin-reason").send_keys("Testing the off switch")
        click(d, f"{station} .admin-off-air")
        wait_for(d, lambda d: listener.closed.is_set(), "the listener was never let go")
        assert any(m.get("type") == "ended" for m in listener.messages)
        wait_for(d, lambda d: "taken off the air" in (text_of(d, ".admin-log") or ""), "taking it off the air isn't in the log")
    finally:
        listener.close()

    # A station of theirs deleted for good: two presses, and it's gone from the list.
    party = auth_request(demo_server, "POST", "/api/stations", {"name": "Doomed Party"}, token=subject.token)["station"]
    click(d, f"{row} .admin-detail summary")  # closed
    click(d, f"{row} .admin-detail summary")  # opened again: read afresh
    doomed = f"{row} .admin-station[data-station-id='{party['id']}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, doomed), "the new station isn't listed")
    find(d, f"{doomed} .admin-reason").send_keys("A spam station")
    click(d, f"{doomed} .admin-delete-station")
    assert "for good" in (text_of(d, f"{doomed} .admin-delete-station") or "")
    click(d, f"{doomed} .admin-delete-station")
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, doomed), "the deleted station is still listed")
    wait_for(d, lambda d: "Doomed Party deleted" in (text_of(d, ".admin-log") or ""))
    assert raw_request(demo_server, "GET", f"/api/stations/{party['id']}")[0] == 404

    # Scan now: the whole library is read again, and the panel says how it went.
    wait_for(d, lambda d: find(d, ".admin-scan").is_enabled())
    click(d, ".admin-scan")
    wait_for(d, lambda d: (text_of(d, ".admin-scan-status") or "").startswith("Last scan:"), "the scan never said how it went")
    wait_for(d, lambda d: "asked for a full scan" in (text_of(d, ".admin-log") or ""))

    # A suspension needs a reason; with one, it's done and logged.
    click(d, f"{row} .admin-act")
    assert d.switch_to.active_element.get_attribute("class").find("admin-reason") >= 0
    find(d, f"{row} .admin-reason").send_keys("Spam in three chats", Keys.ENTER)
    wait_for(d, lambda d: "Suspended since" in (text_of(d, row) or ""), "the row never said suspended")
    assert "Spam in three chats" in (text_of(d, row) or "")
    wait_for(d, lambda d: "Chat Spammer" in (text_of(d, ".admin-log") or "") or subject.handle in (text_of(d, ".admin-log") or ""))
    wait_for(d, lambda d: "suspended" in (text_of(d, ".admin-log-line[data-action='suspend']") or ""))
    shot(d, "control-room-suspended")

    # The person's own browser: signing in says why.
    other = browser(PHONE)
    other.get(f"{demo_server.base}/#/login")
    wait_for(other, lambda o: o.find_elements(By.CSS_SELECTOR, "#login-handle"))
    other.find_element(By.CSS_SELECTOR, "#login-handle").send_keys(subject.handle)
    other.find_element(By.CSS_SELECTOR, "#login-password").send_keys(subject.password, Keys.ENTER)
    wait_for(other, lambda o: "Spam in three chats" in (o.find_element(By.CSS_SELECTOR, ".login-form").text or ""),
             "signing in never said why")
    assert session_person(other) is None

    # Reinstated: they sign in again.
    find(d, f"{row} .admin-reason").send_keys("Apologised")
    click(d, f"{row} .admin-act")
    wait_for(d, lambda d: "In good standing" in (text_of(d, row) or ""))
    other.get("about:blank")  # a fresh login form
    log_in_browser(other, demo_server, subject)

    # A password reset link: made in the control room, used once in the person's browser.
    click(d, f"{row} .admin-reset")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f"{row} .admin-reset-link .invite-link"), "no reset link was made")
    link = find(d, f"{row} .admin-reset-link .invite-link").get_attribute("value")
    assert "/#/reset/" in link
    wait_for(d, lambda d: "password reset link" in (text_of(d, ".admin-log") or ""))
    other.get("about:blank")
    other.get(link)
    wait_for(other, lambda o: o.find_elements(By.CSS_SELECTOR, "#reset-password"), "the reset page has no form")
    assert subject.handle in (text_of(other, ".reset-screen .auth-lead") or "")
    at_every_width(other, shot, "password-reset", [".reset-screen", ".reset-form"])
    subject.password = "a brand new password"
    find(other, "#reset-password").send_keys(subject.password)
    find(other, "#reset-again").send_keys(subject.password, Keys.ENTER)
    wait_for(other, lambda o: o.current_url.endswith("#/login"), "setting the password didn't lead to sign-in")
    assert session_person(other) is None  # every session of theirs ended
    log_in_browser(other, demo_server, subject)
    # Used: the link says so.
    other.get("about:blank")
    other.get(link)
    wait_for(other, lambda o: "doesn't work" in (text_of(o, ".reset-screen") or ""), "a used link still offered a form")


def test_someone_who_isnt_an_administrator_sees_no_way_in(demo_server, browser):
    d = browser(PHONE)
    make_browser_user(d, demo_server, display_name="Plain Listener")
    d.get(f"{demo_server.base}/#/account")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".password-form"))
    assert not d.find_elements(By.CSS_SELECTOR, ".control-room-link")
    d.get(f"{demo_server.base}/#/admin")
    wait_for(d, lambda d: "Only the server's administrators" in (text_of(d, ".admin-notice") or ""), "no refusal at the door")
    assert not find(d, ".admin-grid .admin-panel").is_displayed()
