"""Every screen at 360, 390, 768, 1024 and 1440 px: no sideways scroll
(document.documentElement.scrollWidth <= window.innerWidth) and the key
controls inside the viewport. Screenshots of each screen at each width."""

import pytest
from selenium.webdriver.common.by import By

from accounts_api import auth_request, give_frequency, log_out_browser, make_browser_user
from helpers import assert_fits, wait_for

WIDTHS = [360, 390, 768, 1024, 1440]


def screen_ready(driver, selector: str):
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, selector), f"{selector} never showed")


@pytest.mark.parametrize("width", WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def test_no_screen_scrolls_sideways(demo_server, browser, shot, width):
    size = (width, 860)
    driver = browser(size)
    neighbour = demo_server.signup(display_name="The Neighbour With A Long Station Name")
    give_frequency(demo_server, neighbour)
    owner = make_browser_user(driver, demo_server, display_name="Wavelength Night Drive Radio")

    def check(screen: str, url: str, ready: str, keys: list[str]):
        driver.get(f"{demo_server.base}/{url}")
        screen_ready(driver, ready)
        assert_fits(driver, screen, keys)
        shot(driver, screen)

    check("dial", "#/", ".dial-screen[data-state='ready']", [".band", ".station-card"])
    # The dial's big button says all of its word ("DJ booth", "Tune in"), not "DJ boo…".
    label, full, shown = driver.execute_script(
        "const l = document.querySelector('.btn-tune .tune-label'); return [l.textContent, l.scrollWidth, l.clientWidth]")
    assert full <= shown, f"the dial's button label {label!r} is cut at {width} px ({full} px wide in {shown})"
    check("booth", f"#/station/{owner.station_id}",
          ".station-screen.is-owner[data-state='ready'] .btn-skip",
          [".btn-play", ".btn-skip", ".btn-hold", ".btn-settings", ".station-name", ".freq-chip", ".conn"])
    if width >= 1000:
        # The desktop booth: search beside Up Next, every tab shown.
        assert_fits(driver, "booth search", [".add-col .input-search", ".add-col .seg[data-tab='songs']"])
    else:
        driver.find_element(By.CSS_SELECTOR, ".btn-add").click()
        screen_ready(driver, ".add-col .input-search")
        wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".add-col .input-search").is_displayed())
        assert_fits(driver, "booth search", [".add-col .input-search", ".add-col .seg[data-tab='songs']", ".btn-done"])
        shot(driver, "booth-search")
    check("party-screen", f"#/station/{owner.station_id}/screen", ".room:not([hidden]) .room-qr-img",
          [".room-title", ".room-qr-img", ".room-exit"])
    check("listener", f"#/station/{neighbour.station_id}", ".station-screen[data-state='ready']",
          [".btn-play", ".station-name", ".freq-chip", ".conn", ".btn-back-dial"])
    # The party: the neighbour takes requests and asks for two songs (the
    # first is lined up when the station wakes; the second waits).
    auth_request(demo_server, "PATCH", f"/api/stations/{neighbour.station_id}/party", {"mode": "requests"}, neighbour.token)
    window = auth_request(demo_server, "GET", f"/api/stations/{neighbour.station_id}/timeline")
    busy = {e["track"]["id"] for e in [window.get("current")] + window["history"] if e}
    tracks = [t for t in auth_request(demo_server, "GET", "/api/library/tracks?limit=50") if t["id"] not in busy]
    for index, track in enumerate(tracks[:2]):
        auth_request(demo_server, "POST", f"/api/stations/{neighbour.station_id}/commands",
                     {"id": f"ask-{index}", "command": {"op": "request", "trackID": track["id"]}}, neighbour.token)
    check("party", f"#/station/{neighbour.station_id}", ".station-screen[data-state='ready'] .request-row .btn-vote-up",
          [".party-panel", ".party-search input", ".request-row .btn-vote-up", ".request-row .btn-vote-down"])
    # The lobby: the neighbour's station elects its next song; the ballot
    # opens while someone listens (this browser).
    # A car lobby: the room votes the level too.
    auth_request(demo_server, "PATCH", f"/api/stations/{neighbour.station_id}/party", {"mode": "lobby", "kind": "car"}, neighbour.token)
    check("lobby", f"#/station/{neighbour.station_id}", ".station-screen[data-state='ready'] .ballot-row .btn-ballot",
          [".lobby-panel", ".ballot-row .btn-ballot", "#lobby-search", ".ballot-countdown", ".room-level"])
    check("settings", f"#/station/{owner.station_id}/settings", ".settings-screen[data-state='ready']",
          [".settings-screen h1"])
    check("library", "#/library", ".library-screen .artist-row", [".library-screen .seg[data-tab='songs']", ".library-screen .artist-row"])
    check("account", "#/account", ".account-screen h1", [".account-screen h1"])
    check("people", "#/people", ".people-screen input", [".people-screen input"])
    check("join", "#/join", ".join-screen[data-state='ready']", [".join-screen input"])

    log_out_browser(driver)
    check("signup", "#/signup", "#signup-handle", ["#signup-name", "#signup-handle", "#signup-password"])
    check("login", "#/login", "#login-handle", ["#login-handle", "#login-password"])
    check("dial-signed-out", "#/", ".dial-screen[data-state='ready']", [".band"])
    check("listener-signed-out", f"#/station/{neighbour.station_id}", ".station-screen[data-state='ready']",
          [".btn-play", ".station-name", ".conn"])
