"""First sound from a byte range (issue 39 §4): a guest who opens a station
link mid-song hears it from a piece of the file around the play position,
fetched with an HTTP Range request and decoded on its own, and the whole
file, fetched and decoded behind it, then takes over with the position
carrying on (no restart from 0), where the shared clock says it is.

The page's fetch() is wrapped before the app loads: every request for a
track's audio is logged with its Range header, and the request for the whole
file (the one without a range) is held back until the test lets it go, so
the piece is shown playing on its own, then the move over to the whole file.
Nothing here is a timing: how fast first sound comes is bench/first_sound.py's.
"""

import re
import urllib.request

import pytest

from conftest import PHONE, Server, make_tone
from helpers import PATIENCE, queue_and_cut_to, wait_for

# Logs audio requests ([url, range]) and holds the whole-file ones until
# window.__releaseWhole() is called.
HOLD_JS = """
window.__audioRequests = [];
let release;
const released = new Promise((resolve) => (release = resolve));
window.__releaseWhole = () => release();
window.__wholeAsked = 0;
const realFetch = window.fetch.bind(window);
window.fetch = (input, init = {}) => {
  const url = typeof input === 'string' ? input : input.url;
  if (/\\/api\\/tracks\\/[^/]+\\/audio/.test(url)) {
    const headers = new Headers(init.headers || {});
    const range = headers.get('Range');
    window.__audioRequests.push([url, range]);
    if (!range) {
      window.__wholeAsked += 1;
      return released.then(() => realFetch(input, init));
    }
  }
  return realFetch(input, init);
};
"""

REPORT_JS = "return window.__wavelength.report()"
SEEK_MS = 20_000
# Long enough that the song can't end while the test waits its longest for
# the piece and then the whole file (two waits of PATIENCE on a loaded
# machine): the move to the whole file happens within one song.
SONG_SECONDS = int(SEEK_MS // 1000 + 2 * PATIENCE + 60)


@pytest.fixture(scope="module")
def long_song_server(tmp_path_factory):
    library = tmp_path_factory.mktemp("long-song-library")
    make_tone(library / "01-long-haul.mp3", SONG_SECONDS, 262, "Long Haul", "Test Signal", "Calibration", 1)
    server = Server(tmp_path_factory.mktemp("long-song-data"), libraries=[library], name="long-song").start()
    yield server
    server.stop()


def report(d):
    return d.execute_script(REPORT_JS)


def own_clock_error(r):
    """How far the heard position is from where the page's clock says (ms)."""
    return r["positionMs"] - (r["serverTime"] - r["entryStart"] + r["offsetMs"])


def test_a_link_plays_from_a_range_then_the_whole_file_takes_over(long_song_server, browser):
    tone_server = long_song_server
    dj = tone_server.signup(display_name="Range DJ")
    station, key = dj.station, dj.token
    long = next(t for t in tone_server.tracks() if t["title"] == "Long Haul")  # MP3 at 96 kbps
    queue_and_cut_to(tone_server, station["id"], key, [long])
    # Well into the song, as a guest arriving at a party that's on.
    tone_server.command(station["id"], key, {"op": "seek", "positionMs": SEEK_MS})
    with urllib.request.urlopen(urllib.request.Request(tone_server.base + long["audioURL"], method="HEAD")) as response:
        size = int(response.headers["Content-Length"])

    d = browser(PHONE)
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOLD_JS})
    d.get(f"{tone_server.base}/#/station/{station['id']}")

    # Sound, with the whole file still held back: it plays from the piece.
    def piece_playing(d):
        r = report(d)
        return r if r["positionMs"] is not None and r["state"] == "playing" and r["trackID"] == long["id"] else None

    first = wait_for(d, piece_playing, "the page never played the song from a piece")
    details = first["details"]
    assert details["buffer"]["complete"] is False, details
    load = details["load"]
    # A link's piece is fetched and decoded as the page opens (early-audio.js:
    # "early"), or by the player as it tunes in ("range"); ranges either way.
    assert load["first"] in ("early", "range"), load
    base = details["buffer"]["base"]
    # The piece begins a little before the play position, not at the file's start.
    assert 0 < base <= first["positionMs"] / 1000 < base + load["partialSeconds"], (base, first["positionMs"], load)
    assert base * 1000 > SEEK_MS - 3000, (base, SEEK_MS)
    stages = first["stages"]
    assert stages.get("rangeFetched", stages["partialDecoded"]) <= stages["partialDecoded"] <= stages["firstSound"], stages
    assert "fullDecoded" not in stages, stages

    # The song's first requests were ranges: the head, then a slice around the
    # position (far from the start, far shorter than the file).
    asked = [(url, rng) for url, rng in d.execute_script("return window.__audioRequests") if long["audioURL"] in url]
    assert asked and asked[0][1], asked
    slices = []
    for _, rng in asked:
        if rng:
            start, end = map(int, re.fullmatch(r"bytes=(\d+)-(\d+)", rng).groups())
            slices.append((start, end))
    assert slices[0][0] == 0 and slices[0][1] < size // 4, (slices, size)  # the head
    mid = [s for s in slices if s[0] > 0]
    assert mid, slices
    bytes_per_second = size / (long["durationMs"] / 1000)
    start_s = mid[0][0] / bytes_per_second
    assert SEEK_MS / 1000 - 5 < start_s <= first["positionMs"] / 1000, (start_s, first["positionMs"])
    assert mid[0][1] - mid[0][0] < size / 3, (mid, size)
    # The whole file was asked for (behind the piece) and is being held.
    assert d.execute_script("return window.__wholeAsked") >= 1

    # Let the whole file come: playback moves over to it, sample-exactly, and
    # carries on from where it was.
    d.execute_script("window.__releaseWhole()")

    # Taken over: the sound comes from the whole file. On a loaded machine
    # the piece can run out before the whole file is decoded; the player
    # then starts the whole file where the clock says instead of swapping
    # sample-exactly (swaps 0), and only the swap's own checks are skipped.
    def swapped(d):
        r = report(d)
        det = r["details"]
        voice = det["voice"]
        return r if det["buffer"]["complete"] and r["positionMs"] is not None and voice and voice["complete"] and voice["fileOffset"] > base else None

    def what_played(d):
        r = report(d)
        det = r["details"]
        return (f"track {r['trackID']} (the song: {long['id']}), state {r['state']}, at {r['positionMs']} ms, "
                f"swaps {det['swaps']}, buffer {det['buffer']}, voice {det['voice']}, stages {r['stages']}")

    after = wait_for(d, swapped, "the whole file never took over from the piece", explain=lambda: what_played(d))
    det = after["details"]
    assert after["entryID"] == first["entryID"] and after["trackID"] == long["id"]
    assert after["positionMs"] > first["positionMs"], (first["positionMs"], after["positionMs"])
    print(f"the whole file took over by {'a swap' if det['swaps'] >= 1 else 'a restart where the clock said'}: {det['voice']}")
    if det["swaps"] >= 1:
        # The piece sat in the file where it said: no correction at the move.
        assert det["lastSwap"]["lagSamples"] == 0, det["lastSwap"]
        # No restart from 0: the whole file's source started where the piece was.
        assert det["lastSwap"]["at"] > base and det["voice"]["fileOffset"] >= det["lastSwap"]["at"], det
        assert after["stages"]["fullDecoded"] <= after["stages"]["swapped"], after["stages"]
    # Where the shared clock says: within the player's own resync limit
    # (past it, the player would seek; it didn't need to).
    errors = []
    for _ in range(5):
        r = report(d)
        if r["positionMs"] is not None and r["entryID"] == first["entryID"]:
            errors.append(own_clock_error(r))
    print(f"after the move to the whole file: error by the page's clock {errors} ms, resyncs {det['resyncs']}")
    assert errors and all(abs(e) < 20 for e in errors), errors
