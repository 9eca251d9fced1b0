"""Going live from the browser: the booth's "Go live" panel, with Chromium's
fake microphone playing a 440 Hz tone (--use-fake-device-for-media-stream,
--use-fake-ui-for-media-stream, --use-file-for-fake-audio-capture; this
test's browsers only), against a server of its own started with
`--live-grace 2`:

- the owner opens the booth, presses Go live: the microphone opens and the
  outgoing level meter (role="meter", aria-valuemin/max/now, a name) rises
  above 0; the panel fits at 360, 390, 768, 1024 and 1440 px with no
  sideways scroll;
- with a title typed, "Go on the air": the panel says "On the air" with the
  time going by; the station's relay /live/ID.mp3 delivers MP3 frames (two
  frame headers in a row, read with a plain HTTP client); the station's
  timeline has a current entry with source "live", the title given, the
  owner's name as its artist and the relay as its audio; "Update title"
  reaches the server's live source;
- Stop: the microphone's tracks end and the panel says how long it was on
  the air; after the 2 s grace the station's current entry isn't live any
  more, and the relay answers 404;
- a listener who isn't a DJ has no Go live button; a co-DJ who hosts no
  show has one, and pressing it shows the server's own "forbidden" message
  word for word (read first over a WebSocket of our own), as text.

Every wait is on a condition (helpers.wait_for, or a bounded poll of the
API); no timing is asserted.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from accounts_api import LiveListener, auth_request, log_in_browser, make_browser_user
from conftest import at_every_width, PHONE, Server, fake_microphone
from helpers import MIC_STATE, WATCH_MIC, PATIENCE, find, no_alert, wait_for

TITLE = "Night <b>Owls</b> & the small hours"
NEW_TITLE = "Request hour <img src=x onerror=alert(1)>"


PANEL_JS = """
const b = document.querySelector('.station-screen .broadcast');
if (!b) return null;
const m = b.querySelector('[role=meter]');
const q = (s) => { const el = b.querySelector(s); return el ? el.textContent : null; };
return {
  state: b.dataset.state,
  status: q('.broadcast-status'),
  error: q('.broadcast-error'),
  lamp: q('.broadcast-lamp'),
  clock: q('.broadcast-clock'),
  clockShown: !b.querySelector('.broadcast-clock').hidden,
  meter: m ? {now: Number(m.getAttribute('aria-valuenow')), min: m.getAttribute('aria-valuemin'),
              max: m.getAttribute('aria-valuemax'), label: m.getAttribute('aria-label'), text: m.getAttribute('aria-valuetext')} : null,
};
"""


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """The demo library, and a 2 s grace after a live source leaves."""
    server = Server(
        tmp_path_factory.mktemp("broadcast-data"), name="broadcast",
        options=["--signups-per-hour", "100000", "--guests-per-hour", "100000", "--bcrypt-cost", "4", "--live-grace", "2"],
    ).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def tone_wav(tmp_path_factory) -> Path:
    """20 s of a 440 Hz tone, 48 kHz mono 16-bit: the fake microphone loops it."""
    wav = tmp_path_factory.mktemp("broadcast-audio") / "tone.wav"
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=20",
         "-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", str(wav)],
        check=True,
    )
    return wav


@pytest.fixture
def mic_browser(browser, tone_wav):
    """Chromium whose microphone plays the tone, granted without a prompt."""

    def make(size=PHONE):
        return browser(size, extra_args=fake_microphone(tone_wav))

    return make


# ---------------------------------------------------------------- helpers


def panel(d) -> dict | None:
    return d.execute_script(PANEL_JS)


def panel_state(d) -> str | None:
    p = panel(d)
    return p and p["state"]


def press(d, selector: str) -> None:
    """Clicks a control after scrolling it to the middle of the screen (clear of the sticky header)."""
    element = find(d, selector)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def open_booth(d, server, station_id: str) -> None:
    d.get(f"{server.base}/#/station/{station_id}")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner[data-state='ready'] .btn-broadcast"),
             "the booth has no Go live button")
    d.execute_script(WATCH_MIC)


def current_entry(server, station_id: str) -> dict | None:
    return server.timeline(station_id).get("current")


def wait_current(server, station_id: str, accept, message: str) -> dict:
    """Polls the station's timeline until its current entry satisfies accept(entry)."""
    deadline = time.monotonic() + PATIENCE
    entry = None
    while time.monotonic() < deadline:
        entry = current_entry(server, station_id)
        if entry and accept(entry):
            return entry
        time.sleep(0.1)
    raise AssertionError(f"{message}; the current entry is {entry}")


def mp3_header(data: bytes, i: int) -> int | None:
    """The length of the MPEG audio Layer III frame whose header starts at
    data[i] (sync word 0xFFE, a valid version, bitrate and sample rate), or None."""
    if i + 4 > len(data) or data[i] != 0xFF or data[i + 1] & 0xE0 != 0xE0:
        return None
    version = (data[i + 1] >> 3) & 0x03  # 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
    layer = (data[i + 1] >> 1) & 0x03  # 1: Layer III
    bitrate_index = data[i + 2] >> 4
    rate_index = (data[i + 2] >> 2) & 0x03
    padding = (data[i + 2] >> 1) & 0x01
    if version == 1 or layer != 1 or bitrate_index in (0, 15) or rate_index == 3:
        return None
    mpeg1 = version == 3
    bitrates = ([0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] if mpeg1
                else [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160])
    rate = [44100, 48000, 32000][rate_index] // {3: 1, 2: 2, 0: 4}[version]
    return (144 if mpeg1 else 72) * bitrates[bitrate_index] * 1000 // rate + padding


def mp3_frames_in(data: bytes) -> int:
    """How many MP3 frames follow one another from the first header that
    has another right after it (0 when there is no such pair)."""
    for i in range(len(data) - 4):
        length = mp3_header(data, i)
        if length and mp3_header(data, i + length):
            count, at = 0, i
            while (size := mp3_header(data, at)) is not None:
                count += 1
                at += size
            return count
    return 0


def read_relay(server, station_id: str, want_frames: int = 8) -> tuple[int, int]:
    """GET /live/ID.mp3 as a plain HTTP client: (status, MP3 frames in a row
    seen). Reads until `want_frames` frames follow one another, or PATIENCE."""
    request = urllib.request.Request(f"{server.base}/live/{station_id}.mp3")
    data = b""
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            deadline = time.monotonic() + PATIENCE
            while time.monotonic() < deadline and len(data) < 2_000_000:
                chunk = response.read1(16_384) if hasattr(response, "read1") else response.read(16_384)
                if not chunk:
                    break
                data += chunk
                frames = mp3_frames_in(data)
                if frames >= want_frames:
                    return response.status, frames
            return response.status, mp3_frames_in(data)
    except urllib.error.HTTPError as error:
        return error.code, 0


def relay_status(server, station_id: str) -> int:
    """The relay's status without reading the stream (a HEAD-like GET that is closed at once)."""
    try:
        with urllib.request.urlopen(f"{server.base}/live/{station_id}.mp3", timeout=PATIENCE) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def mic_released(d) -> bool:
    streams = d.execute_script(MIC_STATE)
    return bool(streams) and all(all(state == "ended" for state in tracks) for tracks in streams)


def forbidden_over_our_own_socket(server, token: str, station_id: str) -> dict:
    """What the broadcast socket says to `token` asking to go live: its first text message."""
    import websocket  # websocket-client

    ws = websocket.create_connection(
        server.base.replace("http://", "ws://") + f"/api/stations/{station_id}/broadcast",
        header=[f"Authorization: Bearer {token}"], timeout=PATIENCE)
    try:
        ws.send(json.dumps({"type": "start", "mimeType": "audio/webm;codecs=opus"}))
        return json.loads(ws.recv())
    finally:
        ws.close()


# ------------------------------------------------------------------ tests


def test_the_owner_goes_live_from_the_booth_and_listeners_get_the_show(live_server, mic_browser, shot):
    server = live_server
    d = mic_browser(PHONE)
    owner = make_browser_user(d, server, display_name="Night Shift DJ")
    sid = owner.station_id

    with LiveListener(server, sid):
        open_booth(d, server, sid)
        # The station plays the library before the show.
        before = wait_current(server, sid, lambda e: e.get("source") != "live", "the station never played before the show")
        assert relay_status(server, sid) == 404, "the relay answers before anyone is live"

        # Go live opens the console and the microphone; the meter moves.
        press(d, ".btn-broadcast")
        wait_for(d, lambda d: panel_state(d) == "ready", f"the microphone never opened: {panel(d)}")
        assert find(d, ".btn-broadcast").get_attribute("aria-expanded") == "true" or not find(d, ".btn-broadcast").is_displayed()
        wait_for(d, lambda d: panel(d)["meter"]["now"] > 0, "the level meter never rose above 0 with the microphone on")
        meter = panel(d)["meter"]
        assert (meter["min"], meter["max"], meter["label"]) == ("0", "100", "Outgoing level"), meter
        assert meter["text"] and meter["text"] != "Silent", meter
        at_every_width(d, shot, "go-live-ready", [".broadcast-heading", "[role=meter]", ".broadcast-start", ".broadcast-close",
                                                  ".broadcast-title-input", ".broadcast-fader", ".broadcast-file"],
                       reveal=".broadcast-panel")

        # On the air, with a title.
        find(d, ".broadcast-title-input").send_keys(TITLE)
        press(d, ".broadcast-start")
        wait_for(d, lambda d: panel_state(d) == "live" or panel(d)["error"], f"the panel never went on the air: {panel(d)}")
        p = panel(d)
        assert p["state"] == "live", f"not on the air: {p}"
        assert p["lamp"].strip().lower() == "on the air" and p["clockShown"], p
        assert re.fullmatch(r"\d+:\d\d", p["clock"]), p
        wait_for(d, lambda d: panel(d)["clock"] != "0:00", "the time on the air never moved")
        wait_for(d, lambda d: panel(d)["meter"]["now"] > 0, "the level meter fell silent on the air")

        # Listeners: the relay carries MP3, the timeline has the live entry.
        status, frames = read_relay(server, sid)
        assert status == 200 and frames >= 8, f"/live/{sid}.mp3 answered {status} with {frames} MP3 frames in a row"
        live = wait_current(server, sid, lambda e: e.get("source") == "live", "the station's timeline never went live")
        assert live["track"]["title"] == TITLE, live
        assert live["track"]["artist"] == "Night Shift DJ", live
        assert live["track"]["audioURL"] == f"/live/{sid}.mp3?edge=1", live
        assert live["id"] != before["id"]
        assert no_alert(d) and not d.find_elements(By.CSS_SELECTOR, ".broadcast b, .broadcast img")

        # A new title while live reaches the server's source.
        title_field = find(d, ".broadcast-title-input")
        title_field.clear()
        title_field.send_keys(NEW_TITLE)
        press(d, ".broadcast-title-send")
        deadline = time.monotonic() + PATIENCE
        while auth_request(server, "GET", f"/api/stations/{sid}/source").get("title") != NEW_TITLE:
            assert time.monotonic() < deadline, f"the new title never reached the source: {auth_request(server, 'GET', f'/api/stations/{sid}/source')}"
            time.sleep(0.1)
        assert no_alert(d)
        at_every_width(d, shot, "go-live-on-air", [".broadcast-heading", ".broadcast-lamp", ".broadcast-clock", "[role=meter]",
                                                   ".broadcast-stop", ".broadcast-title-send"], reveal=".broadcast-panel")
        wait_for(d, lambda d: panel_state(d) == "live", "the broadcast stopped while the screen was resized")

        # Stop: off the air, the microphone released, the station back to the library.
        press(d, ".broadcast-stop")
        wait_for(d, lambda d: panel_state(d) == "ended", f"Stop never ended the broadcast: {panel(d)}")
        p = panel(d)
        assert p["status"].startswith("Off the air after "), p
        assert not p["error"], p
        wait_for(d, mic_released, "the microphone's tracks were not stopped")
        deadline = time.monotonic() + PATIENCE
        while (source := auth_request(server, "GET", f"/api/stations/{sid}/source")).get("onAir"):
            assert time.monotonic() < deadline, f"the live source stayed on the air after Stop closed the socket: {source}"
            time.sleep(0.1)
        after = wait_current(server, sid, lambda e: e.get("source") != "live",
                             "the station stayed live after the broadcast stopped and its grace passed")
        assert after["id"] != live["id"]
        # Asked once, now the source is gone (each request to a live relay takes one of the address's stream slots).
        assert relay_status(server, sid) == 404, "the relay still answers after the show"
        shot(d, "go-live-ended")

        # Close folds the console back to its button.
        press(d, ".broadcast-close")
        wait_for(d, lambda d: panel_state(d) == "closed" and find(d, ".btn-broadcast").is_displayed())


def test_only_who_may_go_live_gets_on_the_air(live_server, mic_browser, shot):
    server = live_server
    owner = server.signup(display_name="Station Owner")
    sid = owner.station_id

    # A listener (signed in, not a DJ here): the station, but no Go live.
    listener = mic_browser(PHONE)
    make_browser_user(listener, server, display_name="Just Listening")
    listener.get(f"{server.base}/#/station/{sid}")
    wait_for(listener, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen[data-state='ready']"), "the station never loaded")
    assert not listener.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner")
    assert not [b for b in listener.find_elements(By.CSS_SELECTOR, ".btn-broadcast, .broadcast") if b.is_displayed()], \
        "a listener has a Go live button"

    # A co-DJ who hosts no show: the booth and the button, but the server says no.
    helper = server.signup(display_name="Helping Hand")
    auth_request(server, "POST", f"/api/stations/{sid}/codjs", {"handle": helper.handle}, token=owner.token)
    answer = forbidden_over_our_own_socket(server, helper.token, sid)
    assert answer.get("type") == "error" and answer.get("code") == "forbidden" and answer.get("message"), answer

    d = mic_browser(PHONE)
    log_in_browser(d, server, helper)
    open_booth(d, server, sid)
    press(d, ".btn-broadcast")
    wait_for(d, lambda d: panel_state(d) == "ready", f"the microphone never opened: {panel(d)}")
    press(d, ".broadcast-start")
    wait_for(d, lambda d: panel(d)["error"], f"the refusal was never shown: {panel(d)}")
    p = panel(d)
    assert p["error"] == answer["message"], (p, answer)
    assert p["state"] == "ready" and p["lamp"].strip().lower() != "on the air", p
    assert (current_entry(server, sid) or {}).get("source") != "live"
    shot(d, "go-live-forbidden")

    # Close: the microphone is released.
    press(d, ".broadcast-close")
    wait_for(d, lambda d: panel_state(d) == "closed")
    wait_for(d, mic_released, "closing the console didn't release the microphone")
