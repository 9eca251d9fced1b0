"""The dial and the DJ booth's add and skip, with TAB, ENTER and SPACE
(and typing a search) only."""

from selenium.webdriver.common.keys import Keys

from accounts_api import follow, give_frequency, leave_out_of_the_pool, make_browser_user
from conftest import PHONE
from helpers import active, has_focus_ring, long_song_now, press, tab_to, text_of, wait_for, wait_playing


def test_keyboard_only_dial_add_and_skip(demo_server, browser, shot):
    d = browser(PHONE)
    # Setup, not part of the flow: this browser is signed in (through the
    # login form) as the owner of "Keyboard Booth", who follows the owner of
    # "Keyboard Neighbour"; both stations have a frequency on the band.
    owner = make_browser_user(d, demo_server, display_name="Keyboard Booth")
    neighbour = demo_server.signup(display_name="Keyboard Neighbour")
    follow(demo_server, owner, neighbour.id)
    give_frequency(demo_server, owner)
    give_frequency(demo_server, neighbour)
    station = owner.station
    d.get(f"{demo_server.base}/#/")
    wait_for(d, lambda d: d.execute_script("return document.querySelector('.dial-screen')?.dataset.state") == "ready")
    wait_for(d, lambda d: d.execute_script(
        "return !!document.querySelector(`.station-card[data-station-id='${arguments[0]}']`)", neighbour.station_id))

    # Flip the dial with the "Next station" button.
    focused = tab_to(d, lambda f: f.get("label") == "Next station")
    assert has_focus_ring(focused), focused
    before = text_of(d, ".readout-name")
    press(d, Keys.ENTER)
    wait_for(d, lambda d: text_of(d, ".readout-name") != before)
    wait_for(d, lambda d: not d.execute_script("return document.querySelector('.radio').classList.contains('is-tuning')"))
    shot(d, "dial-flipped")

    # Your own station is first in the list: TAB to it, ENTER opens the booth.
    focused = tab_to(d, lambda f: f.get("stationId") == station["id"])
    assert has_focus_ring(focused), focused
    wait_for(d, lambda d: text_of(d, ".readout-name") == station["name"])
    # The needle has finished its sweep to the station's frequency.
    wait_for(d, lambda d: text_of(d, ".freq-num") == station["frequency"])
    shot(d, "dial-station-focused")
    press(d, Keys.ENTER)
    wait_for(d, lambda d: d.execute_script("return document.querySelector('.station-screen.is-owner')?.dataset.stationId") == station["id"])
    wait_playing(d)
    # Setup, not part of the flow: the longest song on, and the robot's pool
    # without the pick, so no song ends and lines the pick up by itself (or
    # puts it on the air) while the keyboard works.
    timeline = long_song_now(demo_server, station["id"], owner.token)
    wait_playing(d, timeline["current"]["id"])
    taken = {timeline["current"]["track"]["id"], *(e["track"]["id"] for e in timeline["upNext"])}
    pick = next(t for t in demo_server.tracks() if t["id"] not in taken and all(ord(c) < 0x250 for c in t["title"]))
    leave_out_of_the_pool(demo_server, station["id"], owner.token, [pick["id"]])

    # Add tracks: ENTER on the link focuses the search; type; TAB to a result's toggle; SPACE.
    focused = tab_to(d, lambda f: "btn-add" in (f.get("cls") or ""))
    assert has_focus_ring(focused), focused
    press(d, Keys.ENTER)
    wait_for(d, lambda d: "input-search" in (active(d).get("cls") or ""))
    press(d, pick["title"])
    wait_for(d, lambda d: d.execute_script("return !!document.querySelector(`.btn-toggle[data-track-id='${arguments[0]}']`)", pick["id"]))
    focused = tab_to(d, lambda f: f.get("trackId") == pick["id"] and "btn-toggle" in (f.get("cls") or ""))
    assert has_focus_ring(focused), focused
    press(d, Keys.SPACE)
    wait_for(d, lambda d: d.execute_script("return document.activeElement.getAttribute('aria-pressed')") == "true")
    upnext = demo_server.timeline(station["id"])["upNext"]
    assert upnext[0]["track"]["id"] == pick["id"]
    shot(d, "booth-added-by-keyboard")

    # Done, then skip: the pick goes on the air.
    tab_to(d, lambda f: "btn-done" in (f.get("cls") or ""), shift=True)
    press(d, Keys.ENTER)
    wait_for(d, lambda d: not d.execute_script("return document.querySelector('.station-screen').classList.contains('mode-add')"))
    focused = tab_to(d, lambda f: "btn-skip" in (f.get("cls") or ""))
    assert has_focus_ring(focused), focused
    press(d, Keys.ENTER)
    wait_for(d, lambda d: demo_server.timeline(station["id"])["current"]["track"]["id"] == pick["id"])
    entry = demo_server.timeline(station["id"])["current"]
    wait_playing(d, entry["id"])
    wait_for(d, lambda d: text_of(d, ".np-title") == pick["title"])
    shot(d, "booth-after-keyboard-skip")
