"""Accounts and friends: sign up (your own station and its booth), sign out
and in again, a wrong password that gives nothing away, following a friend
from People and seeing their station move up the dial when it goes on the
air, claiming a station with an owner key, a party station, and the new
screens at phone and desktop sizes."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import (
    PASSWORD, LiveListener, follow, give_frequency, make_browser_user, profile, raw_request,
    session_person, signup, unique_handle,
)
from conftest import DESKTOP, PHONE, Server
from helpers import find, text_of, wait_for


def account_state(driver):
    return driver.execute_script("return document.getElementById('account-link')?.dataset.state || null")


def dial_ready(driver):
    return driver.execute_script("return document.querySelector('.dial-screen')?.dataset.state") == "ready"


def section_kinds(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('.station-section:not([hidden])')].map(s => s.dataset.kind)"
    )


def section_of(driver, station_id):
    return driver.execute_script(
        "const c = document.querySelector(`.station-card[data-station-id='${arguments[0]}']`);"
        "return c ? c.closest('.station-section').dataset.kind : null;",
        station_id,
    )


def needle_settled(driver):
    """The needle has finished its sweep onto the selected station's mark."""
    return driver.execute_script(
        "const n = document.querySelector('.needle'), m = document.querySelector('.mark.is-selected');"
        "if (!n || !m) return true;"
        "const a = n.getBoundingClientRect(), b = m.getBoundingClientRect();"
        "return Math.abs((a.left + a.width / 2) - (b.left + b.width / 2)) < 3"
        "  && !document.querySelector('.radio').classList.contains('is-tuning');"
    )


def no_horizontal_scroll(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


def type_into(driver, selector, text):
    field = find(driver, selector)
    field.clear()
    field.send_keys(text)
    return field


def test_sign_up_lands_on_your_booth_then_sign_out_and_in(demo_server, browser, shot):
    d = browser(PHONE)
    taken = demo_server.signup()
    handle = unique_handle("ana")
    d.get(f"{demo_server.base}/#/")
    wait_for(d, dial_ready)
    assert account_state(d) == "signed-out"
    # Signed out, the dial offers an account instead of an owner key.
    assert not d.find_elements(By.CSS_SELECTOR, "#claim-key, #new-station-name")
    find(d, ".join-card a[href^='#/signup']").click()
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#signup-handle"))

    # Inline errors: a handle that can't be one, then one that is taken
    # (the server's own message, under the handle field).
    type_into(d, "#signup-name", "Ana Lima")
    type_into(d, "#signup-handle", "no spaces here")
    type_into(d, "#signup-password", PASSWORD)
    find(d, ".signup-form button[type=submit]").click()
    wait_for(d, lambda d: find(d, "#signup-handle").get_attribute("aria-invalid") == "true")
    assert text_of(d, "#signup-handle-error")
    type_into(d, "#signup-handle", taken.handle)
    find(d, ".signup-form button[type=submit]").click()
    status, body, _ = raw_request(demo_server, "POST", "/api/auth/signup",
                                  {"handle": taken.handle, "displayName": "X", "password": PASSWORD, "tokens": True})
    assert status == 409, body
    wait_for(d, lambda d: text_of(d, "#signup-handle-error") == body["error"]["message"])

    # The password's show toggle.
    reveal = find(d, "#signup-password ~ .btn-reveal")
    assert reveal.get_attribute("aria-pressed") == "false"
    reveal.click()
    assert find(d, "#signup-password").get_attribute("type") == "text"
    assert reveal.get_attribute("aria-pressed") == "true"
    reveal.click()
    assert find(d, "#signup-password").get_attribute("type") == "password"

    type_into(d, "#signup-handle", handle)
    shot(d, "signup")
    find(d, "#signup-handle").send_keys(Keys.ENTER)

    # Your own station, with the DJ booth.
    wait_for(d, lambda d: (session_person(d) or {}).get("handle") == handle)
    me = session_person(d)
    assert me["kind"] == "user" and me["displayName"] == "Ana Lima" and me["stationID"]
    wait_for(d, lambda d: d.execute_script("return location.hash") == f"#/station/{me['stationID']}")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner .btn-skip"),
             "signing up didn't open your booth")
    shot(d, "own-booth")

    # The account screen: name, handle, your station.
    d.get(f"{demo_server.base}/#/")
    wait_for(d, dial_ready)
    assert account_state(d) == "user"
    find(d, "#account-link").click()
    wait_for(d, lambda d: text_of(d, ".account-title") == "Ana Lima")
    assert text_of(d, ".account-handle") == f"@{handle}"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f".account-station a[href='#/station/{me['stationID']}']"))
    assert no_horizontal_scroll(d)
    shot(d, "account")

    # Sign out.
    find(d, ".btn-logout").click()
    wait_for(d, lambda d: account_state(d) == "signed-out")
    wait_for(d, dial_ready)
    assert session_person(d) is None

    # A wrong password and an unknown handle get the same message: the
    # server's, which doesn't say whether the account exists.
    d.get(f"{demo_server.base}/#/login")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#login-handle"))
    type_into(d, "#login-handle", handle)
    type_into(d, "#login-password", "not the password").send_keys(Keys.ENTER)
    wait_for(d, lambda d: text_of(d, ".login-form .form-alert"))
    wrong_password = text_of(d, ".login-form .form-alert")
    shot(d, "login-wrong-password")
    type_into(d, "#login-handle", unique_handle("nobody"))
    type_into(d, "#login-password", "not the password").send_keys(Keys.ENTER)
    wait_for(d, lambda d: d.execute_script("return !document.querySelector('.login-form').hasAttribute('aria-busy')"))
    wait_for(d, lambda d: text_of(d, ".login-form .form-alert"))
    unknown_handle = text_of(d, ".login-form .form-alert")
    status, body, _ = raw_request(demo_server, "POST", "/api/auth/login",
                                  {"handle": unique_handle("nobody"), "password": "not the password", "tokens": True})
    assert status == 401 and body["error"]["code"] == "invalid_credentials", body
    assert wrong_password == unknown_handle == body["error"]["message"]
    for word in ("exist", "unknown", "no account", "not found"):
        assert word not in wrong_password.lower()
    assert session_person(d) is None

    # And in again.
    type_into(d, "#login-handle", handle)
    type_into(d, "#login-password", PASSWORD).send_keys(Keys.ENTER)
    wait_for(d, lambda d: account_state(d) == "user")
    wait_for(d, dial_ready)
    assert text_of(d, "#account-link .account-name") == "Ana Lima"
    shot(d, "signed-in-again")


def test_follow_a_friend_and_see_them_go_on_the_air(demo_server, browser, shot):
    d = browser(DESKTOP)
    a = make_browser_user(d, demo_server, display_name="Alma Friend")
    b = demo_server.signup(handle=unique_handle("bea"), display_name="Bea Quiet")
    give_frequency(demo_server, b)

    # Find Bea by typing in People and follow her.
    find(d, ".app-nav a[href='#/people']").click()
    search = wait_for(d, lambda d: find(d, "#people-search"))
    search.send_keys(b.handle[:6])
    row = f".friend-row[data-person-id='{b.id}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f"{row} .btn-follow"))
    button = find(d, f"{row} .btn-follow")
    assert button.get_attribute("aria-pressed") == "false"
    assert button.text.strip() == "Follow"
    button.click()
    wait_for(d, lambda d: find(d, f"{row} .btn-follow").get_attribute("aria-pressed") == "true")
    wait_for(d, lambda d: profile(demo_server, b.id, a.token)["youFollow"] is True)
    wait_for(d, lambda d: "1 follower" in (text_of(d, f"{row} .friend-counts") or ""))
    assert find(d, f"{row} .btn-follow").text.strip() == "Following"
    shot(d, "people-following")

    # Bea's station is quiet: "Friends, quiet".
    find(d, ".app-nav a[href='#/']").click()
    wait_for(d, dial_ready)
    wait_for(d, lambda d: section_of(d, b.station_id) == "following-quiet")
    assert text_of(d, "#list-friends-quiet") == "Friends, quiet"
    assert section_kinds(d)[0] == "own"
    wait_for(d, needle_settled)
    shot(d, "dial-friend-quiet")

    # Someone tunes in to Bea's station: on Alma's dial it moves up to
    # "Friends on the air", above the quiet friends.
    with LiveListener(demo_server, b.station_id):
        wait_for(d, lambda d: section_of(d, b.station_id) == "following-live",
                 "the friend's station never moved to Friends on the air")
        kinds = section_kinds(d)
        assert kinds.index("following-live") < kinds.index("following-quiet") if "following-quiet" in kinds else True
        assert kinds.index("own") < kinds.index("following-live")
        assert text_of(d, "#list-friends-live").strip() == "Friends on the air"
        card = f".station-card[data-station-id='{b.station_id}']"
        wait_for(d, lambda d: (text_of(d, f"{card} .card-listeners") or "").strip() == "1")
        shot(d, "dial-friend-live")

    # Unfollow from her profile.
    d.get(f"{demo_server.base}/#/people/{b.id}")
    wait_for(d, lambda d: text_of(d, ".profile-name") == "Bea Quiet")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".profile-action .btn-follow[aria-pressed='true']"))
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f".profile-list .friend-row[data-person-id='{a.id}']"))
    find(d, ".profile-action .btn-follow").click()
    wait_for(d, lambda d: profile(demo_server, b.id, a.token)["youFollow"] is False)
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, f".profile-list .friend-row[data-person-id='{a.id}']"))


def test_signed_out_people_are_asked_to_sign_in_to_follow(demo_server, browser):
    b = demo_server.signup(display_name="Cato Public")
    d = browser(PHONE)
    d.get(f"{demo_server.base}/#/people?q={b.handle}")
    row = f".friend-row[data-person-id='{b.id}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, row))
    assert not d.find_elements(By.CSS_SELECTOR, f"{row} .btn-follow")
    assert d.find_elements(By.CSS_SELECTOR, ".people-invite a[href^='#/login']")
    find(d, f"{row} .friend-name").click()
    wait_for(d, lambda d: text_of(d, ".profile-name") == "Cato Public")
    link = wait_for(d, lambda d: find(d, ".profile-action a[href^='#/login']"))
    assert link.text == "Sign in to follow"
    assert d.find_elements(By.CSS_SELECTOR, f".profile-station a[href='#/station/{b.station_id}']")


def test_claim_a_station_with_an_owner_key(browser, shot, tmp_path):
    server = Server(tmp_path / "data", name="claim").start()
    try:
        station_id, frequency, key = server.demo_station()
        d = browser(PHONE)
        owner = make_browser_user(d, server, display_name="Key Holder")
        d.get(f"{server.base}/#/account")
        wait_for(d, lambda d: text_of(d, ".account-title") == "Key Holder")
        claim = find(d, "details.claim")
        if claim.get_attribute("open") is None:
            find(d, "details.claim summary").click()
        type_into(d, "#claim-station", frequency)
        type_into(d, "#claim-key", "0" * 64)
        find(d, ".claim-form button[type=submit]").click()
        # A wrong key: the server's message, under the key field.
        wait_for(d, lambda d: text_of(d, "#claim-key-error") or text_of(d, ".claim-form .form-alert"))
        assert find(d, "#claim-key").get_attribute("aria-invalid") == "true" or text_of(d, ".claim-form .form-alert")
        type_into(d, "#claim-key", key)
        shot(d, "claim-form")
        find(d, ".claim-form button[type=submit]").click()
        wait_for(d, lambda d: d.execute_script("return location.hash") == f"#/station/{station_id}")
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner .btn-skip"))
        access = server.get(f"/api/stations/{station_id}/access", token=owner.token)
        assert access["role"] == "owner", access
        # The key is void now: nobody else can claim with it.
        other = server.signup()
        status, body, _ = raw_request(server, "POST", f"/api/stations/{station_id}/claim", {"key": key}, token=other.token)
        assert status >= 400, body
        shot(d, "claimed-booth")
    finally:
        server.stop()


def test_start_a_party_station(demo_server, browser):
    d = browser(PHONE)
    owner = make_browser_user(d, demo_server, display_name="Party Host")
    d.get(f"{demo_server.base}/#/")
    wait_for(d, dial_ready)
    type_into(d, "#party-name", "Rooftop Party").send_keys(Keys.ENTER)
    wait_for(d, lambda d: d.execute_script("return location.hash").endswith("/settings"))
    station_id = d.execute_script("return location.hash").split("/")[2]
    station = demo_server.get(f"/api/stations/{station_id}", token=owner.token)
    assert station["name"] == "Rooftop Party" and station["visibility"] == "code", station
    assert station["role"] == "owner"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_account_screens(demo_server, browser, shot, size):
    d = browser(size)
    # A dial with every section: yours, a friend on the air, a quiet
    # friend, and a stranger on the air.
    me = make_browser_user(d, demo_server, display_name="Rosa Valve")
    live_friend = signup(demo_server, unique_handle("mo"), "Mo Amplitude")
    quiet_friend = signup(demo_server, unique_handle("jun"), "Jun Static")
    stranger = signup(demo_server, unique_handle("kai"), "Kai Carrier")
    for friend in (live_friend, quiet_friend):
        follow(demo_server, me, friend.id)
    give_frequency(demo_server, me)
    give_frequency(demo_server, quiet_friend)
    with LiveListener(demo_server, live_friend.station_id), LiveListener(demo_server, stranger.station_id):
        d.get(f"{demo_server.base}/#/")
        wait_for(d, dial_ready)
        wait_for(d, lambda d: section_of(d, live_friend.station_id) == "following-live")
        wait_for(d, lambda d: section_of(d, stranger.station_id) == "discover")
        kinds = section_kinds(d)
        assert kinds[:3] == ["own", "following-live", "following-quiet"], kinds
        # Then strangers on the air, and last the quiet public stations.
        assert kinds[3] == "discover" and kinds[4:] in ([], ["quiet"]), kinds
        titles = d.execute_script("return [...document.querySelectorAll('.station-section:not([hidden]) h2')].map(h => h.textContent)")
        assert titles[:3] == ["Your station", "Friends on the air", "Friends, quiet"], titles
        assert titles[3] == "On the air now" and titles[4:] in ([], ["Off the air"]), titles
        assert no_horizontal_scroll(d)
        wait_for(d, needle_settled)
        shot(d, "dial-sections")
        d.execute_script("const top = document.getElementById('list-mine').getBoundingClientRect().top;"
                         "window.scrollTo(0, top + scrollY - 84)")
        shot(d, "dial-sections-list")

    d.get(f"{demo_server.base}/#/people?q={live_friend.handle[:4]}")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f".friend-row[data-person-id='{live_friend.id}'] .btn-follow[aria-pressed='true']"))
    assert no_horizontal_scroll(d)
    shot(d, "people-search")

    d.get(f"{demo_server.base}/#/people/{live_friend.id}")
    wait_for(d, lambda d: text_of(d, ".profile-name") == "Mo Amplitude")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".profile-list .friend-row"))
    shot(d, "profile")

    d.get(f"{demo_server.base}/#/account")
    wait_for(d, lambda d: text_of(d, ".account-title") == "Rosa Valve")
    wait_for(d, lambda d: (text_of(d, ".account-counts") or "").startswith("0 followers"))
    assert no_horizontal_scroll(d)
    shot(d, "account")

    # Signed out: sign up and sign in.
    d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.__wavelength.session.logOut().then(() => done(true), () => done(false));"
    )
    wait_for(d, lambda d: account_state(d) == "signed-out")
    d.get(f"{demo_server.base}/#/signup")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#signup-handle"))
    assert no_horizontal_scroll(d)
    shot(d, "signup")
    d.get(f"{demo_server.base}/#/login")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#login-handle"))
    shot(d, "login")
    d.get(f"{demo_server.base}/#/")
    wait_for(d, dial_ready)
    wait_for(d, needle_settled)
    shot(d, "dial-signed-out")


def test_a_friends_code_protected_station_asks_for_its_code(demo_server, browser):
    d = browser(PHONE)
    me = make_browser_user(d, demo_server, display_name="Ines Member")
    host = signup(demo_server, unique_handle("host"), "Hal Host")
    follow(demo_server, me, host.id)
    demo_server.request("PATCH", f"/api/stations/{host.station_id}", {"visibility": "code"}, token=host.token)
    demo_server.request("POST", f"/api/stations/{host.station_id}/code", {}, token=host.token)
    dial = demo_server.get("/api/dial", token=me.token)
    seen = next((s for sec in dial["sections"] for s in sec["stations"] if s["id"] == host.station_id), None)
    # A friend's party shows on your dial, with its frequency hidden until you join.
    assert seen is not None, dial
    assert seen["role"] == "none" and seen["visibility"] == "code", seen
    assert seen.get("frequency") is None, seen
    d.get(f"{demo_server.base}/#/")
    wait_for(d, dial_ready)
    card = f".station-card[data-station-id='{host.station_id}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, card))
    href = find(d, card).get_attribute("href")
    expected = "#/join"
    assert href.endswith(expected), (href, seen)
    assert text_of(d, f"{card} .vis-badge") == "Code"
    assert "access code" in find(d, card).get_attribute("aria-label")


def test_too_many_wrong_passwords_say_when_to_try_again(browser, tmp_path):
    server = Server(tmp_path / "data", name="ratelimit").start()
    try:
        account = server.signup(display_name="Locked Out")
        for _ in range(5):
            status, _, _ = raw_request(server, "POST", "/api/auth/login",
                                       {"handle": account.handle, "password": "wrong password", "tokens": True})
            assert status == 401
        status, body, headers = raw_request(server, "POST", "/api/auth/login",
                                            {"handle": account.handle, "password": PASSWORD, "tokens": True})
        assert status == 429 and body["error"]["code"] == "rate_limited", body
        assert int(headers.get("Retry-After", "0")) > 0, headers
        d = browser(PHONE)
        d.get(f"{server.base}/#/login")
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#login-handle"))
        type_into(d, "#login-handle", account.handle)
        type_into(d, "#login-password", PASSWORD).send_keys(Keys.ENTER)
        wait_for(d, lambda d: text_of(d, ".login-form .form-alert"))
        message = text_of(d, ".login-form .form-alert")
        assert message.startswith(body["error"]["message"]), message
        assert "try again" in message.lower()
        assert session_person(d) is None
    finally:
        server.stop()


def test_a_guest_creates_an_account_and_stays_the_same_person(demo_server, browser, shot):
    d = browser(PHONE)
    d.get(f"{demo_server.base}/#/")
    wait_for(d, dial_ready)
    # A guest, as the join screens make one (session.ensureGuest).
    guest_person = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.__wavelength.session.ensureGuest('Gia Guest').then(done, (e) => done(String(e)));"
    )
    assert guest_person["kind"] == "guest", guest_person
    wait_for(d, lambda d: account_state(d) == "guest")
    link = find(d, "#account-link")
    assert "create an account" in link.get_attribute("textContent")
    # The header's link is the guest's own page (their liked songs), which offers the account.
    link.click()
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".btn-guest-signup"))
    find(d, ".btn-guest-signup").click()
    wait_for(d, lambda d: text_of(d, ".auth-title") == "Keep your name")
    assert find(d, "#signup-name").get_attribute("value") == "Gia Guest"
    handle = unique_handle("gia")
    type_into(d, "#signup-handle", handle)
    type_into(d, "#signup-password", PASSWORD)
    shot(d, "guest-signup")
    find(d, "#signup-password").send_keys(Keys.ENTER)
    wait_for(d, lambda d: (session_person(d) or {}).get("kind") == "user")
    me = session_person(d)
    assert me["id"] == guest_person["id"] and me["handle"] == handle, (me, guest_person)
    wait_for(d, lambda d: d.execute_script("return location.hash") == f"#/station/{me['stationID']}")
