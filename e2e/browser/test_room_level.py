"""The room's level in three real browsers: the host picks the gym type in
the station settings (its preset turns volume voting on); two guests join
and vote it quieter; every browser shows the new level and plays the song
at the gain the server's sum gives: the track's loudness gain, the
station's target and the room's level, never past the track's headroom.
Every wait is for an event on the page, never a fixed sleep."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import DESKTOP, PHONE
from helpers import assert_fits, text_of, wait_for
from test_party import join_party
from test_private import call, click, log_in, no_alert, ok, party_station, settings_ready, signup, station_screen
from test_sync import report


def expected_gain(track: dict, sound: dict) -> float:
    """The same sum as Loudness.playbackGain on the server."""
    offset = sound["targetLufs"] + 14 + sound["levelDb"]
    gain = track.get("gainDb")
    if gain is None:
        return max(-60, min(0, offset))
    gain += offset
    if track.get("headroomDb") is not None:
        gain = min(gain, track["headroomDb"])
    return max(-60, min(12, gain))


def plays_at(d, server, sid: str, token: str, sound: dict) -> bool:
    """Whether this browser plays the song on the air at the room's gain."""
    r = report(d)
    voice = (r.get("details") or {}).get("voice")
    if r["mode"] != "webaudio" or r["state"] != "playing" or not voice:
        return False
    window = ok(call(server, "GET", f"/api/stations/{sid}/timeline", token=token))
    entries = [window.get("current")] + window["upNext"] + window.get("history", [])
    entry = next((e for e in entries if e and e["id"] == voice["entryID"]), None)
    return entry is not None and abs(voice["levelDb"] - expected_gain(entry["track"], sound)) < 1e-9


def test_the_room_votes_the_level_down_and_every_browser_plays_at_it(measured_server, browser, shot):
    host = signup(measured_server, display_name="Gym Host")
    station, _ = party_station(measured_server, host, "Gym Floor", visibility="public")
    sid = station["id"]

    # The host makes the station a party and picks the gym type: its preset
    # turns volume voting on, and the form shows it at once.
    h = browser(DESKTOP)
    log_in(h, measured_server, host, f"/station/{sid}/settings")
    wait_for(h, settings_ready)
    wait_for(h, lambda h: not h.find_element(By.ID, "party-kind").get_attribute("disabled"))
    Select(h.find_element(By.ID, "party-kind")).select_by_value("gym")
    wait_for(h, lambda h: "Gym defaults are set" in (text_of(h, "#party-status") or ""), "the gym preset was never applied")
    assert h.find_element(By.ID, "party-volume-voting").is_selected()
    assert not h.find_element(By.ID, "party-chat").is_selected()
    click(h, "label[for='mode-requests']")
    click(h, ".party-form .btn-primary")
    wait_for(h, lambda h: "Listeners can request" in (text_of(h, "#party-status") or ""))
    party = ok(call(measured_server, "GET", f"/api/stations/{sid}/party", token=host.token))
    assert party["settings"]["kind"] == "gym" and party["settings"]["volumeVoting"] is True
    h.get(f"{measured_server.base}/#/station/{sid}")
    wait_for(h, lambda h: (station_screen(h) or {}).get("role") == "owner")
    wait_for(h, lambda h: h.find_element(By.CSS_SELECTOR, ".room-level").is_displayed(), "no level row for the host")

    ann = browser(PHONE)
    join_party(ann, measured_server, sid, "Ann")
    bo = browser(PHONE)
    join_party(bo, measured_server, sid, "Bo")
    for d in (ann, bo):
        wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, ".btn-level-down").is_displayed(), "no level buttons")
        assert text_of(d, ".level-value") == "0 dB"
    shot(ann, "level-before")
    assert_fits(ann, "room level", [".room-level", ".btn-level-down", ".btn-level-up"])

    # Three people listen (the host too): two votes move it a step.
    click(ann, ".btn-level-down")
    wait_for(ann, lambda d: d.find_element(By.CSS_SELECTOR, ".btn-level-down").get_attribute("aria-pressed") == "true",
             "Ann's vote was never taken")
    wait_for(bo, lambda d: "1 of 2 want it quieter" in (text_of(d, ".level-tally") or ""), "Bo never saw Ann's vote")
    click(bo, ".btn-level-down")
    for d in (h, ann, bo):
        wait_for(d, lambda d: text_of(d, ".level-value") == "−3 dB", "the level never moved")
    # Every vote starts afresh after a step, the voters' own included.
    for d in (ann, bo):
        wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, ".btn-level-down").get_attribute("aria-pressed") == "false",
                 "a spent vote still shows as pressed")
    sound = ok(call(measured_server, "GET", f"/api/stations/{sid}", token=host.token))["sound"]
    assert sound["levelDb"] == -3 and sound["reason"] == "The room voted it quieter"
    shot(bo, "level-after")

    # Every browser plays at the room's gain (the song on the air, or the
    # next one if it changed meanwhile).
    for d in (h, ann, bo):
        wait_for(d, lambda d: plays_at(d, measured_server, sid, host.token, sound), "a browser never played at the room's level")
    # The votes started afresh; the host may set it back.
    wait_for(h, lambda d: d.find_element(By.CSS_SELECTOR, ".btn-level-reset").is_displayed())
    click(h, ".btn-level-reset")
    for d in (h, ann, bo):
        wait_for(d, lambda d: text_of(d, ".level-value") == "0 dB", "the host's reset never arrived")
    assert no_alert(ann) and no_alert(bo) and no_alert(h)
