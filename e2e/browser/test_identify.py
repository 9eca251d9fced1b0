""""What's this song?" in the browser, with Chromium's fake microphone
playing a file (--use-file-for-fake-audio-capture), against a server that
has fingerprinted its library (the `measured_server`, whose analysis has
finished):

- 12 s cut from the middle of a library track: the station screen's
  button listens (a countdown that moves, a Cancel that stops the
  microphone), the clip goes to POST /api/identify with the session cookie
  and CSRF header, and the answer names the track (title, artist, art,
  "about M:SS in" when the server knows the place) in a polite live region; the
  microphone is released afterwards; no sideways scroll at five widths;
- pink noise: "Not in this library";
- a microphone the browser refuses: a clear "No permission" message;
- nobody signed in (station screen and history screen): "Sign in to ask",
  and the microphone is never asked for.

Each clip is first posted straight to the API, so a failure in the
browser is the page's, not the recogniser's. Every wait is on a condition.
"""

from __future__ import annotations

import json
import re
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import make_browser_user
from conftest import PHONE, fake_microphone, set_viewport
from helpers import MIC_STATE, WATCH_MIC, PATIENCE, assert_fits, find, press, wait_for

WIDTHS = [360, 390, 768, 1024, 1440]
CLIP_SECONDS = 12
DONE = ("found", "none", "problem")



# ---------------------------------------------------------------- helpers


def ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def post_clip(server, wav: Path, token: str) -> tuple[int, dict]:
    """POST /api/identify with the file's bytes and a bearer token."""
    request = urllib.request.Request(server.base + "/api/identify", data=wav.read_bytes(), method="POST")
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "audio/wav")
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, {"error": error.read().decode(errors="replace")}


def library_clip(server, token: str, folder: Path) -> tuple[dict, Path]:
    """The library's longest track and a 48 kHz 16-bit WAV of 12 s from its
    middle, cut with ffmpeg from the track's audio as the API serves it."""
    track = max(server.tracks(), key=lambda t: t.get("durationMs") or 0)
    assert track["durationMs"] >= 30_000, f"no track long enough to cut from: {track}"
    start = round(track["durationMs"] / 2000 - CLIP_SECONDS / 2)
    wav = folder / "clip.wav"
    ffmpeg(
        "-headers", f"Authorization: Bearer {token}\r\n",
        "-ss", str(start), "-t", str(CLIP_SECONDS), "-i", f"{server.base}/api/tracks/{track['id']}/audio",
        "-ac", "1", "-ar", "48000", "-c:a", "pcm_s16le", str(wav),
    )
    return track, wav


def noise_clip(folder: Path) -> Path:
    wav = folder / "noise.wav"
    ffmpeg("-f", "lavfi", "-i", f"anoisesrc=d={CLIP_SECONDS}:c=pink:r=48000:a=0.3", "-ac", "1", "-c:a", "pcm_s16le", str(wav))
    return wav


def open_station(d, server, station_id: str) -> None:
    d.get(f"{server.base}/#/station/{station_id}")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen[data-state='ready'] .identify .identify-go"),
             "the station screen never showed 'What's this song?'")
    d.execute_script(WATCH_MIC)


def identify_state(d) -> str:
    return d.execute_script("return document.querySelector('.station-screen .identify').dataset.state")


def press_identify(d) -> None:
    button = find(d, ".station-screen .identify-go")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    assert button.text == "What's this song?", button.text
    button.click()


def wait_answer(d) -> str:
    """Waits for the answer (found, none or problem) and returns it."""
    wait_for(d, lambda d: identify_state(d) in DONE, "the page never answered")
    return identify_state(d)


def result_text(d) -> str:
    return d.execute_script("return document.querySelector('.station-screen .identify-result').textContent")


def mic_released(d) -> bool:
    streams = d.execute_script(MIC_STATE)
    return bool(streams) and all(all(state == "ended" for state in tracks) for tracks in streams)


# ------------------------------------------------------------------ tests


def test_whats_this_song_names_the_track_heard_in_the_room(measured_server, browser, shot, tmp_path):
    server = measured_server
    probe = server.signup(display_name="Clip Cutter")
    track, wav = library_clip(server, probe.token, tmp_path)
    # The recogniser itself knows the clip.
    status, answer = post_clip(server, wav, probe.token)
    assert status == 200 and answer.get("match") and answer["match"]["track"]["id"] == track["id"], (status, answer)

    d = browser(PHONE, extra_args=fake_microphone(wav))
    owner = make_browser_user(d, server, display_name="Room Listener")
    open_station(d, server, owner.station_id)
    result = find(d, ".station-screen .identify-result")
    assert result.get_attribute("aria-live") == "polite" and result.get_attribute("role") == "status"

    # Listening shows a countdown that moves and a Cancel that stops it,
    # and the microphone with it.
    press_identify(d)
    wait_for(d, lambda d: identify_state(d) == "listening", f"never listened: {identify_state(d)}")
    count = find(d, ".station-screen .identify-count")
    first = count.text
    assert first.isdigit() and 1 <= int(first) <= 10, first
    wait_for(d, lambda d: count.text != first, "the countdown stood still")
    cancel = find(d, ".station-screen .identify-cancel")
    assert cancel.is_displayed() and not find(d, ".station-screen .identify-go").is_displayed()
    shot(d, "identify-listening")
    cancel.click()
    wait_for(d, lambda d: identify_state(d) == "idle", "Cancel didn't stop listening")
    wait_for(d, mic_released, f"the microphone stayed on after Cancel: {d.execute_script(MIC_STATE)}")
    assert find(d, ".station-screen .identify-go").is_displayed()

    # Listen again, by keyboard this time, all the way to the answer.
    d.execute_script("document.querySelector('.station-screen .identify-go').focus()")
    press(d, Keys.ENTER)
    wait_for(d, lambda d: identify_state(d) in ("asking", "listening", "matching", *DONE))
    state = wait_answer(d)
    assert state == "found", f"{state}: {result_text(d)!r}"
    card = find(d, ".station-screen .identify-card")
    assert card.get_attribute("data-track-id") == track["id"]
    assert find(d, ".station-screen .identify-title").text == track["title"]
    assert find(d, ".station-screen .identify-artist").text.startswith(track["artist"])
    # Where in the song, when the server knows it; a clip that fits several
    # places (the demo's melodies loop) names the song and no place.
    if card.get_attribute("data-offset-ms"):
        offset_ms = int(card.get_attribute("data-offset-ms"))
        assert 0 <= offset_ms < track["durationMs"], offset_ms
        seconds = round(offset_ms / 1000)
        offset_text = find(d, ".station-screen .identify-offset").text
        assert re.fullmatch(r"about \d+:\d\d in", offset_text), offset_text
        assert offset_text == f"about {seconds // 60}:{seconds % 60:02d} in", (offset_text, offset_ms)
    else:
        assert not d.find_elements(By.CSS_SELECTOR, ".station-screen .identify-offset")
    assert track["title"] in result_text(d)
    # The art is the track's.
    art = d.execute_script("const img = document.querySelector('.station-screen .identify-card img'); return img ? img.getAttribute('src') : null;")
    if track.get("artworkURL"):
        assert art == track["artworkURL"], art
    wait_for(d, mic_released, f"the microphone stayed on: {d.execute_script(MIC_STATE)}")
    # Focus is back on the button, which may ask again.
    assert d.switch_to.active_element == find(d, ".station-screen .identify-go")
    shot(d, "identify-found")

    for width in WIDTHS:
        set_viewport(d, (width, 860))
        card = find(d, ".station-screen .identify-card")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", card)
        assert_fits(d, f"station with the answer at {width}px", [".station-screen .identify-go", ".station-screen .identify-card", ".station-screen .identify-title"])
        shot(d, f"identify-found-{width}")


def test_noise_is_not_in_the_library(measured_server, browser, shot, tmp_path):
    server = measured_server
    probe = server.signup(display_name="Noise Maker")
    wav = noise_clip(tmp_path)
    status, answer = post_clip(server, wav, probe.token)
    assert status == 200 and not answer.get("match"), (status, answer)

    d = browser(PHONE, extra_args=fake_microphone(wav))
    owner = make_browser_user(d, server, display_name="Noisy Room")
    open_station(d, server, owner.station_id)
    press_identify(d)
    state = wait_answer(d)
    assert state == "none", f"{state}: {result_text(d)!r}"
    assert "Not in this library" in result_text(d)
    assert not d.find_elements(By.CSS_SELECTOR, ".station-screen .identify-card")
    wait_for(d, mic_released, f"the microphone stayed on: {d.execute_script(MIC_STATE)}")
    shot(d, "identify-none")


def test_a_refused_microphone_says_so(measured_server, browser, shot, tmp_path):
    server = measured_server
    d = browser(PHONE, extra_args=fake_microphone(noise_clip(tmp_path), deny=True))
    owner = make_browser_user(d, server, display_name="Private Room")
    open_station(d, server, owner.station_id)
    press_identify(d)
    state = wait_answer(d)
    assert state == "problem", f"{state}: {result_text(d)!r}"
    problem = d.execute_script("return document.querySelector('.station-screen .identify').dataset.problem")
    assert problem == "denied", f"{problem}: {result_text(d)!r}"
    assert "No permission to listen" in result_text(d)
    assert find(d, ".station-screen .identify-go").is_displayed()
    shot(d, "identify-denied")


def test_signed_out_asks_to_sign_in_without_the_microphone(measured_server, browser, shot):
    server = measured_server
    owner = server.signup(display_name="Open Door")
    d = browser(PHONE, extra_args=fake_microphone())
    open_station(d, server, owner.station_id)
    press_identify(d)
    assert wait_answer(d) == "problem"
    assert d.execute_script("return document.querySelector('.station-screen .identify').dataset.problem") == "sign_in"
    assert "Sign in" in result_text(d)
    assert find(d, ".station-screen .identify-problem a").get_attribute("href").split("#", 1)[1].startswith("/login")
    assert d.execute_script(MIC_STATE) == [], "the microphone was asked for"
    shot(d, "identify-sign-in")

    # The history screen has the button too, and says the same.
    d.get(f"{server.base}/#/station/{owner.station_id}/history")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".history-screen[data-state='ready'] .identify-in-history .identify-go"),
             "the history screen has no 'What's this song?'")
    find(d, ".identify-in-history .identify-go").click()
    wait_for(d, lambda d: d.execute_script("return document.querySelector('.identify-in-history').dataset.problem") == "sign_in")
    for width in (360, 1440):
        set_viewport(d, (width, 860))
        assert_fits(d, f"history with 'What's this song?' at {width}px", [".identify-in-history .identify-go", ".identify-in-history .identify-problem"])
