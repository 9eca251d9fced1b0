"""Removing people from a code-protected station: the host kicks a guest
from the settings (which open over the playing station); the guest's page
says so within 2 s, stops playing and never reconnects; everyone else is
told. A banned guest cannot come back with the right code, until unbanned."""

from __future__ import annotations

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.common.by import By

from conftest import ALERT_TITLE, DESKTOP, PHONE
from helpers import audio, find, text_of, wait_for, wait_playing
from test_private import (
    booth_controls, call, click, join_by_code, join_error, log_in, no_alert, ok, party_station, signup,
    station_screen, tries,
)

KICKED = ALERT_TITLE  # a hostile display name: it must render as text everywhere


def person_id(d) -> str:
    return d.execute_script("return window.__wavelength.session.person.id")


def settings_count(d) -> str:
    return text_of(d, ".settings-count") or ""


def row_selector(pid: str) -> str:
    return f'.person-row[data-person-id="{pid}"]'


def confirm(d) -> None:
    wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.confirm-dialog[open] .btn-confirm").is_displayed())
    click(d, "dialog.confirm-dialog[open] .btn-confirm")
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.confirm-dialog"))


def settled(d) -> bool:
    """The end-of-station notice has finished fading in (for screenshots)."""
    return d.execute_script(
        "const o = document.querySelector('.station-over');"
        "return Boolean(o) && o.getAnimations({subtree: true}).every(a => a.playState === 'finished');")


def never(d, condition, seconds: float) -> bool:
    """True if condition stays false for `seconds` (a bounded poll, not a sleep).
    On a slow machine this only watches less closely; it can't fail falsely."""
    try:
        WebDriverWait(d, seconds, poll_frequency=0.05).until(condition)
    except TimeoutException:
        return True
    return False


def joined_and_playing(d, sid) -> None:
    wait_for(d, lambda d: (station_screen(d) or {}).get("id") == sid, "never reached the station")
    wait_playing(d)
    wait_for(d, lambda d: audio(d)["connection"] == "live")


def test_host_kicks_and_bans_a_guest(demo_server, browser, shot):
    host = signup(demo_server, display_name="Kick Host")
    station, code = party_station(demo_server, host, "Velvet Rope FM")
    sid = station["id"]

    # The host signs in and listens, with the booth open.
    h = browser(DESKTOP)
    log_in(h, demo_server, host, f"/station/{sid}")
    joined_and_playing(h, sid)
    wait_for(h, lambda h: (station_screen(h) or {}).get("role") == "owner")
    assert h.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner .btn-skip")

    # Two guests join by code: the one to be kicked, and a bystander.
    g = browser(PHONE)
    join_by_code(g, demo_server, code["frequency"], code["accessCode"], KICKED, path=f"/#/join/{code['frequency']}")
    joined_and_playing(g, sid)
    guest_id = person_id(g)
    assert booth_controls(g) == []
    b = browser(PHONE)
    join_by_code(b, demo_server, code["frequency"], code["accessCode"], "Bystander")
    joined_and_playing(b, sid)
    wait_for(h, lambda h: "3 listening" in (text_of(h, ".listeners") or ""))

    # The host opens the settings over the station: the music keeps playing.
    click(h, ".btn-settings")
    wait_for(h, lambda h: h.find_elements(By.CSS_SELECTOR, ".station-screen.mode-settings .settings-screen[data-state='ready']"))
    assert h.execute_script("return location.hash") == f"#/station/{sid}/settings"
    wait_playing(h)
    wait_for(h, lambda h: h.find_elements(By.CSS_SELECTOR, f"{row_selector(guest_id)}[data-connected='true']"))
    name = h.find_element(By.CSS_SELECTOR, f"{row_selector(guest_id)} .person-name").text
    assert name.startswith(KICKED)
    assert "3 listening" in settings_count(h)

    # Kick, confirmed.
    click(h, f"{row_selector(guest_id)} [data-action='kick']")
    confirm(h)

    # The guest is told within 2 s, playback stops, and it stays gone.
    wait_for(g, lambda g: "You were removed from Velvet Rope FM" in (text_of(g, ".station-over") or ""),
             "the kicked guest wasn't told within 2 s")
    wait_for(g, lambda g: audio(g)["paused"] and audio(g)["state"] in ("idle", "paused"))
    assert (station_screen(g) or {}).get("state") == "removed"
    wait_for(g, settled)
    shot(g, "removed")

    # Everyone else is told, politely; the name is text.
    wait_for(b, lambda b: f"{KICKED} was removed" in (text_of(b, "#toasts") or ""))
    assert no_alert(b) and no_alert(h) and no_alert(g)
    wait_playing(b)

    # The host's count goes down and stays down: the guest never reconnects.
    wait_for(h, lambda h: "2 listening" in settings_count(h))
    wait_for(h, lambda h: not h.find_elements(By.CSS_SELECTOR, f"{row_selector(guest_id)}[data-connected='true']"))
    assert never(h, lambda h: ok(call(demo_server, "GET", f"/api/stations/{sid}", token=host.token))["listeners"] > 2, 4)
    assert (station_screen(g) or {}).get("connection") == "removed"
    assert audio(g)["paused"]
    shot(h, "settings-after-kick")

    # Kicked is not banned: the guest can join again with the code.
    join_by_code(g, demo_server, code["frequency"], code["accessCode"], None)
    joined_and_playing(g, sid)
    wait_for(h, lambda h: h.find_elements(By.CSS_SELECTOR, f"{row_selector(guest_id)}[data-connected='true']"))

    # Ban, confirmed: told at once, and the right code no longer works.
    click(h, f"{row_selector(guest_id)} [data-action='ban']")
    confirm(h)
    wait_for(g, lambda g: "You were banned from Velvet Rope FM" in (text_of(g, ".station-over") or ""))
    wait_for(g, lambda g: audio(g)["paused"])
    wait_for(h, lambda h: h.find_elements(By.CSS_SELECTOR, f"{row_selector(guest_id)}[data-banned='true'] [data-action='unban']"))
    join_by_code(g, demo_server, code["frequency"], code["accessCode"], None)
    wait_for(g, lambda g: tries(g) >= 1)
    error = join_error(g)
    assert error["code"] == "banned", error
    assert station_screen(g) is None
    shot(g, "banned-rejoin")

    # Unbanned, they may come back.
    click(h, f"{row_selector(guest_id)} [data-action='unban']")
    wait_for(h, lambda h: not h.find_elements(By.CSS_SELECTOR, f"{row_selector(guest_id)}[data-banned='true']"))
    join_by_code(g, demo_server, code["frequency"], code["accessCode"], None)
    joined_and_playing(g, sid)


def test_codj_gets_the_booth_live_and_the_host_ends_the_session(demo_server, browser, shot):
    host = signup(demo_server, display_name="Party Owner")
    station, code = party_station(demo_server, host, "Co-Op Radio")
    sid = station["id"]
    h = browser(DESKTOP)
    log_in(h, demo_server, host, f"/station/{sid}")
    joined_and_playing(h, sid)
    g = browser(PHONE)
    join_by_code(g, demo_server, code["frequency"], code["accessCode"], "Helper")
    joined_and_playing(g, sid)
    helper_id = person_id(g)
    assert booth_controls(g) == []

    # The owner makes the guest a co-DJ: the booth opens on the guest's page, live.
    click(h, ".btn-settings")
    wait_for(h, lambda h: h.find_elements(By.CSS_SELECTOR, f"{row_selector(helper_id)} [data-action='codj']"))
    click(h, f"{row_selector(helper_id)} [data-action='codj']")
    wait_for(h, lambda h: h.find_elements(By.CSS_SELECTOR, f"{row_selector(helper_id)}[data-role='codj']"))
    wait_for(g, lambda g: (station_screen(g) or {}).get("role") == "codj", "the co-DJ's page never heard its new role")
    wait_for(g, lambda g: g.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner .btn-skip"))
    wait_playing(g)  # the booth opened without interrupting the music

    # The co-DJ's settings: the code and invites, but not the owner's controls.
    click(g, ".btn-settings")
    wait_for(g, lambda g: g.find_elements(By.CSS_SELECTOR, ".settings-screen[data-state='ready'][data-role='codj']"))
    wait_for(g, lambda g: g.execute_script("return document.querySelector('.dial-panel').dataset.accessCode") == code["accessCode"])
    assert not find(g, ".code-tools").is_displayed()
    assert not g.find_elements(By.CSS_SELECTOR, ".end-panel")
    assert find(g, "#vis-code").get_attribute("disabled") is not None
    assert not g.find_elements(By.CSS_SELECTOR, "[data-action='ban'], [data-action='codj'], [data-action='uncodj']")
    assert find(g, ".invite-form button[type='submit']").is_enabled()
    shot(g, "codj-settings")

    # Taken back: the booth and the settings close on the helper's page.
    click(h, f"{row_selector(helper_id)} [data-action='uncodj']")
    wait_for(g, lambda g: (station_screen(g) or {}).get("role") == "listener")
    wait_for(g, lambda g: not g.find_elements(By.CSS_SELECTOR, ".settings-screen"))
    wait_for(g, lambda g: booth_controls(g) == [])
    assert g.execute_script("return location.hash") == f"#/station/{sid}"
    wait_playing(g)

    # The host ends the session: everyone is told, nobody reconnects.
    click(h, ".end-panel .btn")
    confirm(h)
    wait_for(g, lambda g: "The host ended this session" in (text_of(g, ".station-over") or ""))
    wait_for(g, lambda g: audio(g)["paused"])
    wait_for(h, lambda h: "You ended this session" in (text_of(h, ".station-over") or ""))
    assert (station_screen(g) or {}).get("connection") == "ended"
    wait_for(g, settled)
    shot(g, "ended")
    wait_for(h, lambda h: ok(call(demo_server, "GET", f"/api/stations/{sid}", token=host.token))["listeners"] == 0)
    assert never(g, lambda g: ok(call(demo_server, "GET", f"/api/stations/{sid}", token=host.token))["listeners"] > 0, 3)
    # The guest's membership went with the session.
    members = ok(call(demo_server, "GET", f"/api/stations/{sid}/members", token=host.token))
    assert helper_id not in [m["person"]["id"] for m in members if not m["banned"]], members
