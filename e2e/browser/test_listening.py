"""Tuning in, following a station live, the DJ booth (a signed-in owner)
seen from a second browser, and tracks ending on their own."""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import give_frequency, leave_out_of_the_pool, log_in_browser, make_browser_user
from conftest import DESKTOP, PHONE, SHORT_TITLE
from helpers import (
    art_loaded, audio, find, long_song_now, queue_and_cut_to, text_of, upnext_entry_ids, upnext_track_ids, wait_for,
    wait_in_sync, wait_playing,
)


def screen_station_id(driver):
    return driver.execute_script("return document.querySelector('.station-screen')?.dataset.stationId || null")


def dial_ready(driver):
    return driver.execute_script("return document.querySelector('.dial-screen')?.dataset.state") == "ready"


def latin(track):
    """Latin-script titles first: the simplest to type in a search."""
    return all(ord(c) < 0x250 for c in track["title"])


def test_tune_in_by_frequency_plays_in_sync(demo_server, browser, shot):
    dj = demo_server.signup(display_name="Tune-in Test")
    give_frequency(demo_server, dj)
    station = dj.station
    d = browser(PHONE)
    d.get(demo_server.base + "/#/")
    wait_for(d, dial_ready)
    shot(d, "dial")

    # Reach the station by typing its frequency code.
    field = find(d, "#tune-frequency")
    field.send_keys(station["frequency"], Keys.ENTER)
    wait_for(d, lambda d: screen_station_id(d) == station["id"])
    wait_playing(d)
    samples = wait_in_sync(demo_server, d, station["id"], limit_ms=250)
    print("sync error ms:", [round(s, 1) for s in samples])

    # What plays now, read with the page each time: a song may end while
    # the test looks, and then both move on.
    def page_shows_what_plays(d):
        track = demo_server.timeline(station["id"])["current"]["track"]
        return text_of(d, ".np-title") == track["title"] and text_of(d, ".np-artist") == track["artist"]

    wait_for(d, page_shows_what_plays)
    assert text_of(d, ".freq-chip-num") == station["frequency"]
    wait_for(d, lambda d: upnext_track_ids(d) == [
        e["track"]["id"] for e in demo_server.timeline(station["id"])["upNext"]])
    wait_for(d, lambda d: "1 listening" in text_of(d, ".listeners"))
    progress = float(d.execute_script("return document.querySelector('.progress').getAttribute('aria-valuenow')"))
    assert progress >= 0

    # Lock screen / media keys: the Media Session shows the track.
    def media_session_shows_what_plays(d):
        track = demo_server.timeline(station["id"])["current"]["track"]
        meta = d.execute_script(
            "const m = navigator.mediaSession.metadata;"
            "return m && {title: m.title, artist: m.artist, artwork: m.artwork.length};"
        )
        return bool(meta) and meta["title"] == track["title"] and meta["artist"] == track["artist"] \
            and meta["artwork"] >= 1

    wait_for(d, media_session_shows_what_plays, "the Media Session never named the track playing")
    assert d.execute_script("return navigator.mediaSession.playbackState") == "playing"
    wait_for(d, art_loaded)
    shot(d, "listener")

    # Leaving the screen stops playback and the station loses its listener.
    find(d, ".btn-back-dial").click()
    wait_for(d, dial_ready)
    wait_for(d, lambda d: audio(d)["paused"] and audio(d)["src"] == "")
    wait_for(d, lambda d: demo_server.get(f"/api/stations/{station['id']}")["listeners"] == 0)
    shot(d, "dial-after-leaving")


def test_frequency_link_booth_when_signed_in_and_own_station_first(demo_server, browser, shot):
    dj = demo_server.signup(display_name="Link Test")
    give_frequency(demo_server, dj)
    station = dj.station
    d = browser(DESKTOP)

    # A link by frequency lands on the listener screen, with no DJ controls.
    d.get(f"{demo_server.base}/#/f/{station['frequency']}")
    wait_for(d, lambda d: screen_station_id(d) == station["id"])
    wait_playing(d)
    assert not d.find_elements(By.CSS_SELECTOR, ".btn-skip")
    shot(d, "listener-by-frequency-link")

    # A frequency with nothing on it says so.
    d.get(f"{demo_server.base}/#/f/50.5")
    wait_for(d, lambda d: "Nothing is broadcasting on 50.5" in (text_of(d, "#view") or ""))
    shot(d, "unknown-frequency")

    # Signed in, your station opens as the DJ booth.
    log_in_browser(d, demo_server, dj)
    d.get(f"{demo_server.base}/#/station/{station['id']}")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner .btn-skip"))
    wait_playing(d)
    shot(d, "dj-booth-signed-in")

    # An owner link from before accounts opens nothing more, and its key is
    # taken out of the address bar.
    d.get(f"{demo_server.base}/#/?key=0123456789abcdef0123456789abcdef")
    wait_for(d, dial_ready)
    assert "key=" not in d.execute_script("return location.href")
    assert d.execute_script("return localStorage.getItem('wavelength.ownerKeys')") is None

    # Your own station comes first on the dial.
    first = d.execute_script("return document.querySelector('.station-card')?.dataset.stationId")
    assert first == station["id"]
    assert text_of(d, "#list-mine") in ("Your station", "Your stations")
    wait_for(d, lambda d: text_of(d, ".readout-name") == station["name"])
    shot(d, "dial-own-first")


def test_two_browsers_dj_adds_and_skips(demo_server, browser, shot):
    listener = browser(PHONE)
    dj = browser(DESKTOP)
    owner = make_browser_user(dj, demo_server, display_name="Two Browsers")
    station = owner.station
    listener.get(f"{demo_server.base}/#/station/{station['id']}")
    wait_playing(listener)
    dj.get(f"{demo_server.base}/#/station/{station['id']}")
    wait_for(dj, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner .btn-skip"))
    wait_playing(dj)
    # Setup: the longest song on, so the one SKIP cuts is the one both
    # pages show (the skip names the page's current entry).
    on = long_song_now(demo_server, station["id"], owner.token)["current"]
    for d in (listener, dj):
        wait_playing(d, on["id"])
    shot(listener, "listener")
    shot(dj, "dj-booth")

    timeline = demo_server.timeline(station["id"])
    taken = {timeline["current"]["track"]["id"], *(e["track"]["id"] for e in timeline["upNext"])}
    free = [t for t in demo_server.tracks() if t["id"] not in taken]
    free.sort(key=lambda t: not latin(t))
    assert len(free) >= 2, "the demo library should have tracks the robot hasn't queued"
    first, second = free[0], free[1]
    # Setup: the robot's pool leaves out the two picks (seen in a CI run:
    # the robot lined up a pick, and the DJ's toggle took it off).
    leave_out_of_the_pool(demo_server, station["id"], owner.token, [first["id"], second["id"]])

    search = find(dj, ".add-col .input-search")

    def settled_results(d, selector):
        # The search for the whole title has answered (typing re-runs it,
        # and each answer replaces the rows, so an earlier row goes stale).
        return (
            d.execute_script("return !document.querySelector('.add-col .library').hasAttribute('aria-busy')")
            and d.find_element(By.CSS_SELECTOR, ".add-col .input-search").get_attribute("value") == track_title[0]
            and d.find_elements(By.CSS_SELECTOR, selector)
        )

    track_title = [""]

    def add_from_search(track):
        search.send_keys(Keys.CONTROL, "a")
        search.send_keys(track["title"])
        track_title[0] = track["title"]
        selector = f'.btn-toggle[data-track-id="{track["id"]}"]'
        wait_for(dj, lambda d: settled_results(d, selector))
        # Found and clicked in one step, retried while a re-render replaces it.
        wait_for(dj, lambda d: d.find_element(By.CSS_SELECTOR, selector).click() or True)
        started = time.monotonic()
        wait_for(listener, lambda d: track["id"] in upnext_track_ids(d),
                 message="the listener's Up Next never showed the DJ's pick")
        elapsed = time.monotonic() - started
        wait_for(dj, lambda d: d.find_element(By.CSS_SELECTOR, selector).get_attribute("aria-pressed") == "true")
        return elapsed

    # Several adds without leaving search; each reaches the listener (how
    # fast is printed, not asserted: timings belong in bench/).
    elapsed = [add_from_search(first), add_from_search(second)]
    print("listener saw the picks after (s):", [round(e, 3) for e in elapsed])
    # DJ picks play next, in the order chosen. The station plays on while
    # the test works, so the first pick may be on the air already.
    def on_air_and_next():
        timeline = demo_server.timeline(station["id"])
        return [timeline["current"]["track"]["id"], *(e["track"]["id"] for e in timeline["upNext"])]
    order = on_air_and_next()
    assert first["id"] in order[:2] and order.index(second["id"]) == order.index(first["id"]) + 1, \
        "DJ picks play next, in the order chosen"
    wait_for(listener, lambda d: upnext_track_ids(d) == on_air_and_next()[1:])
    shot(dj, "dj-search-two-added")
    shot(listener, "listener-sees-picks")

    # The toggle takes a pick off again.
    selector = f'.btn-toggle[data-track-id="{second["id"]}"]'
    wait_for(dj, lambda d: d.find_element(By.CSS_SELECTOR, selector).click() or True)
    wait_for(listener, lambda d: second["id"] not in upnext_track_ids(d))
    wait_for(dj, lambda d: d.find_element(By.CSS_SELECTOR, selector).get_attribute("aria-pressed") == "false")

    # The DJ skips: both move to the DJ's pick (or, if it is on the air
    # already, to what comes after it).
    timeline = demo_server.timeline(station["id"])
    nxt = timeline["upNext"][0]
    if timeline["current"]["track"]["id"] != first["id"]:
        assert nxt["track"]["id"] == first["id"]
    wait_for(dj, lambda d: d.find_element(By.CSS_SELECTOR, ".btn-skip").click() or True)
    def shows_what_plays(d):
        # The title names what the station plays now, and the page plays it.
        # (On a loaded machine the skipped-to track may have ended by the
        # time this looks, so it is compared with the station as it is now.)
        current = demo_server.timeline(station["id"])["current"]
        return bool(current) and audio(d)["entryId"] == current["id"] \
            and text_of(d, ".np-title") == current["track"]["title"]

    for d in (dj, listener):
        wait_playing(d, nxt["id"])
        wait_for(d, shows_what_plays, message="the page's title and audio never matched the station's current track")
    for d in (dj, listener):
        wait_in_sync(demo_server, d, station["id"])
    shot(dj, "dj-after-skip")
    shot(listener, "listener-after-skip")


def test_track_ends_and_next_starts_in_both(tone_server, browser, shot):
    a = browser(PHONE)
    b = browser(PHONE)
    owner = make_browser_user(b, tone_server, display_name="Track Ends")
    station, key = owner.station, owner.token
    a.get(f"{tone_server.base}/#/station/{station['id']}")
    b.get(f"{tone_server.base}/#/station/{station['id']}")
    wait_for(b, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner"))
    wait_playing(a)
    wait_playing(b)

    # Put the 12 s track on the air now.
    short = next(t for t in tone_server.tracks() if t["title"] == SHORT_TITLE)
    timeline = queue_and_cut_to(tone_server, station["id"], key, [short])
    short_entry, next_entry = timeline["current"], timeline["upNext"][0]
    for d in (a, b):
        wait_playing(d, short_entry["id"])
    shot(a, "short-track-playing")

    # Nobody does anything: the track ends and the next one starts in both.
    wait_playing(a, next_entry["id"])
    wait_playing(b, next_entry["id"])
    for d in (a, b):
        wait_for(d, lambda d: text_of(d, ".np-title") == next_entry["track"]["title"])
        # On the timeline's position, so it started the track at its start.
        wait_in_sync(tone_server, d, station["id"])
    shot(a, "next-track-listener")
    shot(b, "next-track-dj")


def test_dj_moves_by_buttons_and_drag_and_deletes(demo_server, browser, shot):
    listener = browser(PHONE)
    dj = browser(DESKTOP)
    owner = make_browser_user(dj, demo_server, display_name="Reorder Test")
    station = owner.station
    listener.get(f"{demo_server.base}/#/station/{station['id']}")
    wait_playing(listener)
    dj.get(f"{demo_server.base}/#/station/{station['id']}")
    wait_for(dj, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner"))
    wait_playing(dj)
    # Setup: the longest song on, so the rows the test moves stay in Up
    # Next while it works.
    on = long_song_now(demo_server, station["id"], owner.token)["current"]
    for d in (listener, dj):
        wait_playing(d, on["id"])

    def server_order():
        return [e["id"] for e in demo_server.timeline(station["id"])["upNext"]]

    # Enough upcoming entries to reorder (the robot keeps at least three).
    wait_for(dj, lambda d: len(upnext_entry_ids(d)) >= 3)
    wait_for(dj, lambda d: upnext_entry_ids(d) == server_order())
    order = server_order()

    # The station keeps playing while the DJ works, and a track may end
    # meanwhile (the first upcoming entry then leaves the list), so each check
    # is on the order of the entries concerned, and pages are compared with
    # the server's order as it is now.
    def ahead(x, y):
        now = server_order()
        return x in now and (y not in now or now.index(x) < now.index(y))

    def pages_agree():
        for d in (dj, listener):
            wait_for(d, lambda d: upnext_entry_ids(d) == server_order())

    # "Move later" button.
    first, second = order[0], order[1]
    find(dj, f'.upnext-row[data-entry-id="{first}"] button[aria-label$=" later"]').click()
    wait_for(dj, lambda d: ahead(second, first))
    pages_agree()

    # Drag the last entry's handle above the first one.
    expected = server_order()
    last = expected[-1]
    handle = find(dj, f'.upnext-row[data-entry-id="{last}"] .drag-handle')
    top = find(dj, f'.upnext-row[data-entry-id="{expected[0]}"]')
    (ActionChains(dj).click_and_hold(handle).move_by_offset(0, -8)
        .move_to_element_with_offset(top, 0, -top.size["height"] // 2 + 4).release().perform())
    wait_for(dj, lambda d: ahead(last, expected[0]))
    pages_agree()
    shot(dj, "dj-after-moves")

    # Delete an upcoming entry (a robot pick).
    victim = server_order()[-1]
    # Found and clicked in one step in the page: Up Next redraws when the
    # schedule moves, and an element held between two calls can go stale.
    delete = f'.upnext-row[data-entry-id="{victim}"] button[aria-label^="Delete"]'
    wait_for(dj, lambda d: d.execute_script(
        "const b = document.querySelector(arguments[0]); if (!b) return false; b.click(); return true;", delete))
    wait_for(dj, lambda d: victim not in server_order())
    wait_for(listener, lambda d: victim not in upnext_entry_ids(d))
    shot(dj, "dj-after-delete")
    shot(listener, "listener-after-delete")


def test_flip_stations_from_the_listener_screen(demo_server, browser, shot):
    first = demo_server.signup(display_name="Flip One").station
    second = demo_server.signup(display_name="Flip Two").station
    d = browser(PHONE)
    d.get(f"{demo_server.base}/#/station/{first['id']}")
    wait_playing(d)
    boot = d.execute_script("return window.__wavelengthBoot")
    seen = {first["id"]}
    # Flip through the band with "Next station" until both are heard; each
    # flip plays the new station at once, in the same page.
    for _ in range(len(demo_server.get("/api/stations")) + 1):
        current = screen_station_id(d)
        find(d, ".transport button[aria-label='Next station']").click()
        wait_for(d, lambda d: screen_station_id(d) not in (None, current))
        station_id = screen_station_id(d)
        wait_playing(d)
        wait_in_sync(demo_server, d, station_id)
        seen.add(station_id)
        if second["id"] in seen:
            break
    assert second["id"] in seen
    assert d.execute_script("return window.__wavelengthBoot") == boot
    shot(d, "after-flipping")
