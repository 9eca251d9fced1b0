"""The library screen says how far the server has come measuring every
song (loudness with FFmpeg, tempo with aubio), and a song's details show
the tempo that was measured. Waits are for the server's own progress and
for the page, never a fixed sleep."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from conftest import PHONE
from helpers import find, text_of, wait_for
from test_private import call, ok


def test_the_library_says_every_song_is_measured_and_a_song_shows_its_tempo(measured_server, browser, shot):
    d = browser(PHONE)
    progress = wait_for(d, lambda _: (lambda p: p if p["analyzed"] == p["total"] > 0 else None)(
        ok(call(measured_server, "GET", "/api/library/analysis"))), "the audio analysis never finished")
    d.get(f"{measured_server.base}/#/library")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".artist-row"))
    wait_for(d, lambda d: text_of(d, ".analysis-status")
             == f"Every one of the {progress['total']} songs is measured for loudness and tempo.")
    assert find(d, ".analysis-status").get_attribute("role") == "status"

    tracks = ok(call(measured_server, "GET", "/api/library/tracks?limit=500"))
    timed = next(t for t in tracks if isinstance(t.get("tempo"), (int, float)))
    find(d, ".seg[data-tab='songs']").click()
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f".track-row[data-track-id='{timed['id']}']"))
    find(d, f".track-row[data-track-id='{timed['id']}'] .track-open").click()
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.track-dialog[open]"))
    wait_for(d, lambda d: f"{int(timed['tempo'] + 0.5)} BPM" in (text_of(d, ".track-facts") or ""),
             f"no tempo in the details of {timed['title']}")
    shot(d, "track-details-tempo")
