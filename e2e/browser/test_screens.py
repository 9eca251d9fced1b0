"""The dial, the listener screen and the DJ booth at a phone size and a
desktop size, saved as screenshots."""

import pytest
from selenium.webdriver.common.by import By

from accounts_api import leave_out_of_the_pool, make_browser_user
from conftest import DESKTOP, PHONE
from helpers import art_loaded, find, wait_for, wait_playing


def settled(driver) -> bool:
    """Playing, artwork loaded and the tuning static faded out."""
    return art_loaded(driver) and driver.execute_script(
        "const s = document.querySelector('.static');"
        "return !!s && getComputedStyle(s).opacity === '0';"
    )


@pytest.mark.parametrize("size_name,size", [("phone", PHONE), ("desktop", DESKTOP)], ids=["phone", "desktop"])
def test_screens_at_phone_and_desktop_sizes(demo_server, browser, shot, size_name, size):
    listener = browser(size)
    dj = browser(size)
    owner = make_browser_user(dj, demo_server, display_name="Night Drive")
    station_id = owner.station_id

    listener.get(f"{demo_server.base}/#/station/{station_id}")
    wait_playing(listener)
    wait_for(listener, settled)
    shot(listener, "listener")

    dj.get(f"{demo_server.base}/#/station/{station_id}")
    wait_for(dj, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner"))
    wait_playing(dj)
    wait_for(dj, settled)
    shot(dj, "dj-booth")

    # The booth's search (its own screen on a phone, a column on a desktop).
    if size_name == "phone":
        find(dj, ".btn-add").click()
    search = find(dj, ".add-col .input-search")
    wait_for(dj, lambda d: search.is_displayed())
    timeline = demo_server.timeline(station_id)
    taken = {e["track"]["id"] for e in [timeline["current"], *timeline["upNext"]]}
    free = next(t for t in demo_server.tracks() if t["id"] not in taken and all(ord(c) < 0x250 for c in t["title"]))
    # Setup: not one the robot may line up itself before the toggle is clicked.
    leave_out_of_the_pool(demo_server, station_id, owner.token, [free["id"]])
    search.send_keys(free["artist"].split()[0][:3])
    # Find-as-you-type re-renders the results as each letter's answer comes
    # in, so the toggle is found by its track, clicked once it is there, and
    # read back by selector (a held element can be replaced meanwhile).
    toggle = f".add-col .btn-toggle[data-track-id='{free['id']}']"

    def click_toggle(d):
        buttons = d.find_elements(By.CSS_SELECTOR, toggle + "[aria-pressed='false']")
        if buttons:
            buttons[0].click()
        return bool(buttons)

    wait_for(dj, click_toggle)
    # Queued next, the track may already be on the air by the time a loaded
    # machine looks (its toggle then reads "Add" again and its row is lit),
    # so either shows the press took.
    def queued_or_on_air(d):
        if d.find_elements(By.CSS_SELECTOR, toggle + "[aria-pressed='true']"):
            return True
        on_air = f".add-col .track-row.is-onair[data-track-id='{free['id']}']"
        return bool(d.find_elements(By.CSS_SELECTOR, on_air)) and demo_server.timeline(station_id)["current"]["track"]["id"] == free["id"]

    wait_for(dj, queued_or_on_air, "the toggled track is neither queued nor on the air")
    wait_for(dj, lambda d: d.execute_script(
        "return [...document.querySelectorAll('.add-col img')].filter(i => i.getClientRects().length).every(i => i.complete)"))
    shot(dj, "dj-search")

    listener.get(f"{demo_server.base}/#/")
    wait_for(listener, lambda d: d.execute_script("return document.querySelector('.dial-screen')?.dataset.state") == "ready")
    shot(listener, "dial")

    listener.get(f"{demo_server.base}/#/library")
    wait_for(listener, lambda d: d.find_elements(By.CSS_SELECTOR, ".artist-row"))
    find(listener, ".seg[data-tab='albums']").click()
    wait_for(listener, lambda d: d.find_elements(By.CSS_SELECTOR, ".album-tile"))
    wait_for(listener, lambda d: d.execute_script(
        "return [...document.querySelectorAll('.album-tile img')].filter(i => i.getClientRects().length).every(i => i.complete)"))
    shot(listener, "library")
