"""Going live from broadcast software, in the browser, with a real ffmpeg
as the broadcast software (Icecast's source protocol on the server's
source port; the test servers start with `--source-port 0`, so the port is
read from the `sourceURL` the API gives):

- the owner's booth links to "Go live" on the account screen; the owner
  makes a stream key there: the key and the whole icecast:// address for
  their station appear once, and the Server, Port, Mount, User and
  Password fields are exactly the parts of the server's own sourceURL;
- ffmpeg goes live with that key (ice-name `<b>Late</b> Jazz`, a
  description that is an `<img onerror>`) and takes the station's timeline
  over: a listener who isn't signed in, on the station, gets the show by
  itself: the LIVE sign in now playing with the ice-name as the title and
  the owner as the DJ, as text (no markup made, nothing run), and the live
  <audio> element really plays while the station's file player is silent;
  Stop and Listen (from the keyboard) stop and restart it; leaving the
  station stops it, and coming back plays it again; the owner's booth
  shows the show too;
- when ffmpeg stops, after the grace (20 s on this server) the sign goes
  by itself in both pages, the live <audio> stops and the station's music
  plays again;
- "Replace key" asks in the page first; afterwards ffmpeg with the old key
  is refused (it exits non-zero) while the new key goes live; "Remove key"
  stops the new one too;
- the Go live card (no key, the key shown once) and the station screen
  with the live show playing at 360, 390, 768, 1024 and 1440 px with no
  sideways scroll, with screenshots.

Every wait is on a condition (helpers.wait_for); no timing is asserted.
"""

from __future__ import annotations

import subprocess
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import auth_request, make_browser_user
from conftest import at_every_width, PHONE
from helpers import PATIENCE, find, no_alert, press, text_of, wait_for, stop_ffmpeg

ICE_NAME = "<b>Late</b> Jazz"
ICE_DESCRIPTION = "<img src=x onerror=alert(1)> after midnight"

LIVE_AUDIO_JS = """
const a = document.getElementById('wl-live-audio');
return a ? {paused: a.paused, currentTime: a.currentTime, src: a.getAttribute('src') || '', readyState: a.readyState} : null;
"""

# Whether the station's file player makes a sound (Web Audio: a source
# sounding now; basic: its <audio> element playing).
FILE_HEARD_JS = """
const p = window.__wavelength.player;
const file = document.getElementById('wl-audio');
return p.positionAt(performance.now()) !== null || Boolean(file && !file.paused);
"""


# ---------------------------------------------------------------- helpers


def api(server, account, method: str, path: str, body=None):
    return auth_request(server, method, path, body, token=account.token)


def source_of(server, station_id: str) -> dict:
    """GET /api/stations/{id}/source, as anyone (the station is public)."""
    return auth_request(server, "GET", f"/api/stations/{station_id}/source")


def icecast_url(source_url: str, station_id: str, key: str) -> str:
    """The address ffmpeg connects to: 127.0.0.1 and the port of the
    server's sourceURL (its host is the page's; the test server listens on
    127.0.0.1)."""
    parts = urllib.parse.urlsplit(source_url.replace("{station}", station_id))
    return f"icecast://source:{key}@127.0.0.1:{parts.port}/live/{station_id}"


def start_ffmpeg(url: str, seconds: int = 60) -> subprocess.Popen:
    """A real broadcast: a sine as 128 kbps MP3 at real time, with hostile
    ice-name and ice-description."""
    return subprocess.Popen(
        [
            "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re",
            "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}",
            "-ac", "2", "-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k",
            "-content_type", "audio/mpeg",
            "-ice_name", ICE_NAME, "-ice_genre", "Jazz", "-ice_description", ICE_DESCRIPTION,
            "-f", "mp3", url,
        ],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )



def refused(process: subprocess.Popen) -> tuple[int, str]:
    """Waits for an ffmpeg that should be turned away: (exit code, stderr).
    A refused ffmpeg exits by itself; one let in would stream for the whole
    minute, which PATIENCE (90 s) outlasts."""
    try:
        _, err = process.communicate(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        stop_ffmpeg(process)
        raise AssertionError("ffmpeg with the old key was let in (it never exited)") from None
    return process.returncode, err.decode(errors="replace")


def press_button(d, selector: str) -> None:
    """Clicks a control after scrolling it to the middle of the screen (clear
    of the sticky header)."""
    element = find(d, selector)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def press_with_keyboard(d, selector: str) -> None:
    """Focuses a control and presses ENTER on it, as a keyboard user would."""
    element = find(d, selector)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", element)
    assert d.execute_script("return document.activeElement === arguments[0]", element), f"{selector} can't take focus"
    press(d, Keys.ENTER)


def card_state(d) -> str | None:
    return d.execute_script("const c = document.querySelector('.golive-card'); return c ? c.dataset.state : null")


def open_go_live(d, server) -> None:
    d.get(f"{server.base}/#/account?go=live")
    wait_for(d, lambda d: card_state(d) in ("none", "key", "fresh"), "the Go live card never loaded")


def value(d, selector: str) -> str:
    return find(d, selector).get_attribute("value")


def page_fields(d) -> dict:
    return {name: value(d, f"#golive-{name}") for name in ("host", "port", "mount", "user", "password")}


def live_state(d) -> str | None:
    """The station screen's `data-live`: "on" while a live show is on the air, else "off"."""
    return d.execute_script("const s = document.querySelector('.station-screen'); return s ? s.dataset.live || null : null")


def live_audio(d) -> dict | None:
    return d.execute_script(LIVE_AUDIO_JS)


def live_audio_plays(d) -> bool:
    a = live_audio(d)
    return bool(a) and not a["paused"] and a["currentTime"] > 0.5


def live_audio_stopped(d) -> bool:
    a = live_audio(d)
    return a is None or (a["paused"] and not a["src"])


def station_wants_sound(d) -> bool:
    return d.execute_script("return window.__wavelength.player.wantPlay")


def file_heard(d) -> bool:
    return d.execute_script(FILE_HEARD_JS)


def no_markup_ran(d) -> bool:
    return no_alert(d) and not d.find_elements(By.CSS_SELECTOR, ".now-meta b, .now-meta img, .live-art b, img[src='x']")


# ------------------------------------------ key, ffmpeg, a listener hears it


def test_a_key_made_in_the_browser_goes_live_with_ffmpeg_and_a_listener_hears_it(demo_server, browser, shot):
    owner_browser = browser(PHONE)
    owner = make_browser_user(owner_browser, demo_server, display_name="Night Shift Radio")
    sid = owner.station_id

    # The booth's way to the stream key: the account screen, on the card.
    owner_browser.get(f"{demo_server.base}/#/station/{sid}")
    wait_for(owner_browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner .btn-golive"),
             "the owner's booth has no Go live link")
    press_button(owner_browser, ".btn-golive")
    wait_for(owner_browser, lambda d: card_state(d) == "none", "the Go live card never said there is no key")
    wait_for(owner_browser, lambda d: d.execute_script(
        "return document.activeElement && document.activeElement.classList.contains('golive-title')"),
        "the booth's link didn't land on the Go live card")
    assert "no stream key" in find(owner_browser, ".golive-status").text
    # The parts BUTT needs are there before a key; the password isn't.
    assert value(owner_browser, "#golive-mount") == f"/live/{sid}"
    assert not owner_browser.find_elements(By.CSS_SELECTOR, "#golive-password, .golive-key")
    at_every_width(owner_browser, shot, "go-live-no-key", [".golive-title", ".golive-status", "#golive-host", "#golive-port",
                                                           "#golive-mount", ".golive-copy", ".golive-make"])

    # Make a key: shown once, with the whole address and the fields.
    press_button(owner_browser, ".golive-make")
    wait_for(owner_browser, lambda d: card_state(d) == "fresh" and value(d, ".golive-key"), "no key appeared")
    key = value(owner_browser, ".golive-key")
    shown_url = value(owner_browser, ".golive-url")
    assert owner_browser.execute_script("return document.activeElement.classList.contains('golive-key')"), "focus isn't on the new key"
    assert "shown only this once" in find(owner_browser, ".golive-once").text
    assert "made" in find(owner_browser, ".golive-status").text

    server_key = api(demo_server, owner, "GET", "/api/me/stream-key")
    assert isinstance(server_key.get("createdAt"), int), server_key
    template = server_key["sourceURL"]
    assert "KEY" in template and "{station}" in template, template
    assert shown_url == template.replace("KEY", key).replace("{station}", sid), (shown_url, template)
    parts = urllib.parse.urlsplit(shown_url)
    assert page_fields(owner_browser) == {
        "host": parts.hostname, "port": str(parts.port), "mount": parts.path, "user": parts.username, "password": key,
    }, (page_fields(owner_browser), shown_url)
    assert parts.path == f"/live/{sid}" and parts.username == "source" and parts.port != demo_server.port
    # Each field's Copy puts exactly that value on the clipboard.
    owner_browser.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": demo_server.base, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    for field in ("url", "port"):
        press_with_keyboard(owner_browser, f".golive-row[data-field='{field}'] .golive-copy")
        wait_for(owner_browser, lambda d: d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.clipboard.readText().then(done, () => done(null));") == value(d, f"#golive-{field}"),
            f"Copy didn't put the {field} on the clipboard")
    at_every_width(owner_browser, shot, "go-live-key", [".golive-key", ".golive-url", "#golive-host", "#golive-port", "#golive-mount",
                                                        "#golive-user", "#golive-password", ".golive-replace", ".golive-remove"])

    # A listener who isn't signed in, on the station before the show.
    listener = browser(PHONE)
    listener.get(f"{demo_server.base}/#/station/{sid}")
    wait_for(listener, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen[data-state='ready']"), "the station never loaded")
    assert live_state(listener) == "off" and not find(listener, ".np-live").is_displayed()
    wait_for(listener, station_wants_sound, "the station's player never started")

    # Long enough for everything below (it is killed at the end).
    ffmpeg = start_ffmpeg(icecast_url(template, sid, key), seconds=600)
    try:
        wait_for(listener, lambda d: source_of(demo_server, sid)["onAir"] or ffmpeg.poll() is not None, "the source never went on the air")
        assert ffmpeg.poll() is None, f"ffmpeg was turned away: {ffmpeg.stderr.read().decode(errors='replace')}"
        on_air = source_of(demo_server, sid)
        assert on_air["name"] == ICE_NAME and on_air["listenURL"] == f"/live/{sid}.mp3", on_air

        # The show takes the station over by itself: the sign, the ice-name
        # as the title and the owner as the DJ, as text.
        wait_for(listener, lambda d: live_state(d) == "on", "the LIVE sign never came")
        assert find(listener, ".np-live").is_displayed()
        assert find(listener, ".np-live .live-badge").text.upper() == "LIVE"
        wait_for(listener, lambda d: text_of(d, ".np-title") == ICE_NAME, "the show's title isn't the ice-name")
        assert text_of(listener, ".np-artist") == "Night Shift Radio"
        assert no_markup_ran(listener), "the source's words became markup"
        wait_for(listener, lambda d: ICE_NAME in d.execute_script(
            "return document.querySelector('.now-meta p.visually-hidden[aria-live=polite]').textContent"),
            "the live show was never announced")
        shot(listener, "station-live-on")

        # Its relay plays in the live <audio>; the station's file player is silent.
        wait_for(listener, live_audio_plays, "the live show's <audio> never played")
        key = listener.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "import('/js/live/device-key.js').then((m) => done(m.deviceKey));")
        assert live_audio(listener)["src"] == f"/live/{sid}.mp3?edge=1&listener={key}"
        wait_for(listener, lambda d: not file_heard(d), "the station's player kept playing under the live show")
        assert station_wants_sound(listener)
        at_every_width(listener, shot, "station-live-playing", [".live-badge", ".np-title", ".btn-play", ".art-stage"])
        wait_for(listener, live_audio_plays, "the live show stopped playing while the screen was resized")

        # Stop and Listen, from the keyboard: as for a song.
        press_with_keyboard(listener, ".btn-play")
        wait_for(listener, lambda d: live_audio_stopped(d) and not station_wants_sound(d), "Stop didn't stop the live show")
        assert live_state(listener) == "on"
        press_with_keyboard(listener, ".btn-play")
        wait_for(listener, lambda d: live_audio_plays(d) and station_wants_sound(d), "Listen didn't play the live show again")

        # Leaving the station stops the live show here; coming back plays it again.
        listener.get(f"{demo_server.base}/#/")
        wait_for(listener, lambda d: d.find_elements(By.CSS_SELECTOR, ".dial-screen"), "the dial never opened")
        wait_for(listener, live_audio_stopped, "the live show kept playing after leaving the station")
        listener.get(f"{demo_server.base}/#/station/{sid}")
        wait_for(listener, lambda d: live_state(d) == "on" and live_audio_plays(d), "the live show didn't play on coming back")

        # The owner's booth shows the show too.
        owner_browser.get(f"{demo_server.base}/#/station/{sid}")
        wait_for(owner_browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner[data-state='ready']"))
        wait_for(owner_browser, lambda d: live_state(d) == "on", "the owner's booth never showed the LIVE sign")
        assert text_of(owner_browser, ".np-title") == ICE_NAME
    finally:
        stop_ffmpeg(ffmpeg)

    wait_for(listener, lambda d: not source_of(demo_server, sid)["onAir"], "the server kept the source on the air")
    # After the grace, by the timeline alone: the sign goes, the live show
    # stops here and the station's music plays again.
    for d in (listener, owner_browser):
        wait_for(d, lambda d: live_state(d) == "off" and not find(d, ".np-live").is_displayed(), "the LIVE sign stayed")
    wait_for(listener, live_audio_stopped, "the live show kept playing after it ended")
    wait_for(listener, lambda d: d.execute_script(
        "const s = window.__wavelength.player.status(); return !s.live && s.state === 'playing' && !s.paused"),
        "the station didn't play again after the live show ended")
    assert find(listener, ".progress").is_displayed()
    shot(listener, "station-live-ended")


# ------------------------------------------------- replace and remove


def test_replacing_the_key_turns_the_old_one_away_and_removing_it_turns_both_away(demo_server, browser, shot):
    d = browser(PHONE)
    owner = make_browser_user(d, demo_server, display_name="Key Turner FM")
    sid = owner.station_id
    open_go_live(d, demo_server)
    press_button(d, ".golive-make")
    wait_for(d, lambda d: card_state(d) == "fresh" and value(d, ".golive-key"), "no key appeared")
    old_key = value(d, ".golive-key")
    old_made = api(demo_server, owner, "GET", "/api/me/stream-key")["createdAt"]

    # "I've saved it" hides the key for good; the card says one exists.
    press_button(d, ".golive-done")
    wait_for(d, lambda d: card_state(d) == "key", "the key stayed on screen")
    assert not d.find_elements(By.CSS_SELECTOR, ".golive-key, #golive-password")
    assert "shown only when it is made" in find(d, ".golive-row-secret").text
    shot(d, "go-live-saved")

    # Replace asks in the page, and keeping the key changes nothing.
    press_button(d, ".golive-replace")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.confirm-dialog[open]"), "Replace asked nothing")
    assert no_alert(d)
    assert "Replace" in find(d, ".confirm-title").text
    shot(d, "go-live-replace-confirm")
    find(d, ".confirm-dialog .btn-cancel").click()
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.confirm-dialog"))
    assert card_state(d) == "key"
    assert api(demo_server, owner, "GET", "/api/me/stream-key")["createdAt"] == old_made

    press_button(d, ".golive-replace")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.confirm-dialog[open]"))
    find(d, ".confirm-dialog .btn-confirm").click()
    wait_for(d, lambda d: card_state(d) == "fresh" and value(d, ".golive-key") not in ("", old_key), "no new key appeared")
    new_key = value(d, ".golive-key")
    template = api(demo_server, owner, "GET", "/api/me/stream-key")["sourceURL"]
    assert value(d, ".golive-url") == template.replace("KEY", new_key).replace("{station}", sid)
    assert value(d, "#golive-password") == new_key

    # The old key is turned away; the new one goes live.
    status, err = refused(start_ffmpeg(icecast_url(template, sid, old_key)))
    assert status != 0, f"ffmpeg with the old key exited {status}"
    assert "401" in err or "Unauthorized" in err or "authoriz" in err.lower(), err
    assert not source_of(demo_server, sid)["onAir"]
    ffmpeg = start_ffmpeg(icecast_url(template, sid, new_key))
    try:
        wait_for(d, lambda d: source_of(demo_server, sid)["onAir"] or ffmpeg.poll() is not None, "the new key never went live")
        assert ffmpeg.poll() is None, f"the new key was turned away: {ffmpeg.stderr.read().decode(errors='replace')}"
    finally:
        stop_ffmpeg(ffmpeg)
    wait_for(d, lambda d: not source_of(demo_server, sid)["onAir"], "the server kept the source on the air")

    # Remove asks too; afterwards no key works.
    press_button(d, ".golive-remove")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.confirm-dialog[open]"), "Remove asked nothing")
    find(d, ".confirm-dialog .btn-confirm").click()
    wait_for(d, lambda d: card_state(d) == "none", "the card still shows a key")
    wait_for(d, lambda d: d.execute_script("return document.activeElement && document.activeElement.classList.contains('golive-make')"),
             "focus didn't go to Make a stream key")
    assert "createdAt" not in api(demo_server, owner, "GET", "/api/me/stream-key")
    status, err = refused(start_ffmpeg(icecast_url(template, sid, new_key)))
    assert status != 0, f"ffmpeg with a removed key exited {status}"
    shot(d, "go-live-removed")
