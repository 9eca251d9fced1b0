"""Who may sign up, in each of the four modes, on a server of its own
(the mode is the server's): an administrator turns the control room's
switch; a newcomer's sign-up page says what the mode means; in approval
the sign-up waits, sign-in says so, and the administrator lets them in;
in invite mode only a link opens the form; closed, nobody signs up but
guests still join; open again, the page says nothing extra. Every screen
fits at five widths with no sideways scroll. Waits are for the page."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import PASSWORD, guest, log_out_browser, make_browser_user, session_person, unique_handle
from conftest import PHONE, Server, at_every_width
from helpers import click, find, text_of, wait_for
from test_admin import grant


@pytest.fixture(scope="module")
def signup_server(tmp_path_factory, tone_library):
    server = Server(tmp_path_factory.mktemp("signups-data"), libraries=[tone_library], name="signups").start()
    yield server
    server.stop()


def set_mode(d, mode: str, members_invite: bool = False) -> None:
    click(d, f".mode-stop[data-mode='{mode}'] input")
    if find(d, "#members-may-invite").is_selected() != members_invite:
        click(d, "#members-may-invite")
    find(d, "#signup-mode-reason").send_keys(f"Testing {mode}")
    click(d, ".signup-settings button[type=submit]")
    wait_for(d, lambda d: find(d, f".mode-stop[data-mode='{mode}']").get_attribute("class").find("is-on") >= 0)
    wait_for(d, lambda d: f"Testing {mode}" in (text_of(d, ".admin-log") or ""), "the change isn't in the log")


def open_signup(d, server, query: str = "") -> None:
    d.get("about:blank")
    d.get(f"{server.base}/#/signup{query}")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#signup-handle"), "no sign-up page")


def fill_signup(d, handle: str, name: str) -> None:
    find(d, "#signup-name").send_keys(name)
    find(d, "#signup-handle").send_keys(handle)
    find(d, "#signup-password").send_keys(PASSWORD, Keys.ENTER)


def mode_note(d) -> str:
    return text_of(d, ".signup-mode") or ""


def test_the_four_registration_modes_from_the_control_room_to_the_signup_page(signup_server, browser, shot):
    server = signup_server
    admin_d = browser(PHONE)
    admin = make_browser_user(admin_d, server, display_name="Station Engineer")
    grant(server, admin.handle)
    admin_d.get(f"{server.base}/#/admin")
    wait_for(admin_d, lambda d: d.find_elements(By.CSS_SELECTOR, ".mode-stop.is-on[data-mode='open']"),
             "the switch doesn't show the loopback server's open default")
    assert "default" in (text_of(admin_d, ".signup-default") or "")

    # Approval: the page says so, the sign-up waits, sign-in says it waits.
    set_mode(admin_d, "approval")
    at_every_width(admin_d, shot, "control-room-signups", [".admin-screen", ".signups-panel", ".mode-dial"], reveal=".signups-panel")
    newcomer = browser(PHONE)
    open_signup(newcomer, server)
    wait_for(newcomer, lambda d: "Approval needed" in mode_note(d), "the page doesn't say sign-ups are approved")
    at_every_width(newcomer, shot, "signup-approval", [".signup-screen", ".signup-mode", ".signup-form"])
    handle = unique_handle("wait")
    fill_signup(newcomer, handle, "Patient Listener")
    wait_for(newcomer, lambda d: "Waiting for approval" in (text_of(d, ".signup-waiting") or ""), "no waiting card")
    assert not find(newcomer, ".signup-form").is_displayed()
    assert session_person(newcomer) is None
    shot(newcomer, "signup-waiting")
    newcomer.get(f"{server.base}/#/login")
    wait_for(newcomer, lambda d: d.find_elements(By.CSS_SELECTOR, "#login-handle"))
    find(newcomer, "#login-handle").send_keys(handle)
    find(newcomer, "#login-password").send_keys(PASSWORD, Keys.ENTER)
    wait_for(newcomer, lambda d: "waiting for the server's administrators" in (text_of(d, ".login-form") or ""),
             "sign-in never said the sign-up waits")

    # The administrator lets them in; they sign in to a station of their own.
    admin_d.get("about:blank")
    admin_d.get(f"{server.base}/#/admin")
    row = ".waiting-person"
    wait_for(admin_d, lambda d: handle in (text_of(d, ".waiting-list") or ""), "the sign-up isn't waiting in the control room")
    at_every_width(admin_d, shot, "control-room-waiting", [".admin-screen", ".signups-panel", row], reveal=row)
    click(admin_d, f"{row} .approve")
    wait_for(admin_d, lambda d: "Nobody is waiting." in (text_of(d, ".signups-panel") or ""))
    wait_for(admin_d, lambda d: "approved" in (text_of(d, ".admin-log-line[data-action='approve-signup']") or ""))
    find(newcomer, "#login-password").clear()
    find(newcomer, "#login-password").send_keys(PASSWORD, Keys.ENTER)
    wait_for(newcomer, lambda d: (session_person(d) or {}).get("handle") == handle, "the approved person can't sign in")
    assert (session_person(newcomer) or {}).get("stationID"), "the approved person has no station"

    # Invite: without a link the form is closed; a member's link opens it.
    set_mode(admin_d, "invite", members_invite=True)
    stranger = browser(PHONE)
    open_signup(stranger, server)
    wait_for(stranger, lambda d: "By invitation" in mode_note(d))
    assert not find(stranger, ".signup-form").is_displayed()
    at_every_width(stranger, shot, "signup-invite-only", [".signup-screen", ".signup-mode"])
    newcomer.get(f"{server.base}/#/account")
    wait_for(newcomer, lambda d: d.find_elements(By.CSS_SELECTOR, ".account-invites .invite-maker"), "the member can't invite")
    at_every_width(newcomer, shot, "account-invite", [".account-grid", ".account-invites"], reveal=".account-invites")
    click(newcomer, ".account-invites .invite-maker button[type=submit]")
    wait_for(newcomer, lambda d: d.find_elements(By.CSS_SELECTOR, ".account-invites .invite-link"), "no link was made")
    link = find(newcomer, ".account-invites .invite-link").get_attribute("value")
    assert "/#/signup?invite=" in link
    wait_for(newcomer, lambda d: "0 of 5 used" in (text_of(d, ".account-invites .invite-list") or ""))
    stranger.get("about:blank")
    stranger.get(link)
    wait_for(stranger, lambda d: "You're invited" in mode_note(d) and "Patient Listener" in mode_note(d), "the link doesn't say who invited")
    at_every_width(stranger, shot, "signup-invited", [".signup-screen", ".signup-mode", ".signup-form"])
    invited = unique_handle("inv")
    fill_signup(stranger, invited, "Invited Friend")
    wait_for(stranger, lambda d: (session_person(d) or {}).get("handle") == invited, "the invited sign-up didn't start a session")

    # Closed: nobody signs up, the page says so and points to listening as a guest; guests still get in.
    set_mode(admin_d, "closed")
    late = browser(PHONE)
    open_signup(late, server)
    wait_for(late, lambda d: "Sign-ups are closed" in mode_note(d))
    assert not find(late, ".signup-form").is_displayed()
    assert find(late, ".signup-mode a[href='#/']").is_displayed()
    at_every_width(late, shot, "signup-closed", [".signup-screen", ".signup-mode"])
    assert guest(server, "Party Guest").person["kind"] == "guest"

    # Open again: no note, the form as ever.
    set_mode(admin_d, "open")
    open_signup(late, server)
    wait_for(late, lambda d: d.execute_script("return document.querySelector('.signup-mode')?.dataset.mode") == "open")
    assert mode_note(late) == "" and find(late, ".signup-form").is_displayed()
    log_out_browser(newcomer)
