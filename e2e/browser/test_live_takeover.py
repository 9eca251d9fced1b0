"""A live source takes the station over, in two browsers at once, with a real
ffmpeg as the broadcast software (Icecast's source protocol on the server's
source port, read from the stream key's `sourceURL`):

- two listeners (separate Chromium sessions, not signed in) play the
  station's library music; ffmpeg goes live with the owner's stream key
  (its ice-name `<b>Late</b> Jazz`, the owner's display name HTML too);
- both pages take the live entry by themselves: the LIVE sign in now
  playing with the show's title and the DJ's name as text (nothing made of
  them), "live for …", no progress bar, Up Next says "after the live show",
  the Media Session says the show and its DJ, the live <audio> really plays
  (its currentTime moves, not paused) while the file player is silent;
- Stop and Listen (from the keyboard) stop and restart the live relay as
  they do a song; the live now playing fits at 360, 390, 768, 1024 and
  1440 px with no sideways scroll;
- ffmpeg is killed: after the grace (`--live-grace 2`) both pages are back
  on the station's synced player playing a library track, the live <audio>
  stopped, and Just played and the history screen list "Live: <title> —
  <DJ>" with how long the show really ran.

A second test, on the shared demo server (its grace is the default 20 s):
ffmpeg drops and comes back within the grace: the page says "The live
source dropped — waiting for it to come back" in a polite live region,
the live entry stays the same, and the relay plays again by itself.

How far apart the two browsers are on the live relay is printed (never
asserted): each page says which second of the source it hears now, from a
frequency sweep (200 Hz rising 50 Hz a second, a 30 s loop) read off the
live <audio>'s captured stream with an AnalyserNode; the two readings are
brought to one instant by the wall clock they share (one machine). Their
`currentTime`s are printed too, but only as a hint: each counts from that
page's own connection to the relay, whose burst of recent audio differs.

Every wait is on a condition (helpers.wait_for); no timing is asserted.
"""

from __future__ import annotations

import statistics
import subprocess
import urllib.parse
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import auth_request, signup
from conftest import at_every_width, DESKTOP, PHONE, Server
from helpers import audio, find, no_alert, press, text_of, wait_for, stop_ffmpeg

ICE_NAME = "<b>Late</b> Jazz"
DJ_NAME = "Night <i>Owl</i>"
DROPPED = "The live source dropped — waiting for it to come back"
# The source: a sweep from 200 Hz rising 50 Hz a second, 30 s, looped.
SWEEP_START_HZ = 200.0
SWEEP_RATE_HZ_S = 50.0
SWEEP_SECONDS = 30.0

LIVE_JS = """
const a = document.getElementById('wl-live-audio');
const screen = document.querySelector('.station-screen');
const p = window.__wavelength.player;
let sounding = 0;
if (p.voices && p.ctx) {
  for (const v of p.voices.values()) if (!v.disposed && v.startCtx <= p.ctx.currentTime && v.stopCtx > p.ctx.currentTime) sounding += 1;
}
const file = document.getElementById('wl-audio');
return {
  screen: screen ? screen.dataset.live || null : null,
  audio: a ? {paused: a.paused, currentTime: a.currentTime, readyState: a.readyState, src: a.getAttribute('src') || '',
              state: a.dataset.state || null, entryId: a.dataset.entryId || null} : null,
  player: p.status(),
  wantPlay: p.wantPlay,
  fileHeard: p.positionAt(performance.now()) !== null || sounding > 0 || Boolean(file && !file.paused),
};
"""

MEDIA_JS = """
const m = navigator.mediaSession && navigator.mediaSession.metadata;
return m ? {title: m.title, artist: m.artist, album: m.album} : null;
"""

# Which second of the sweep the page hears now: an analyser on the live
# <audio>'s captured stream (captureStream leaves the element's own output
# alone), its loudest bin between 150 and 1800 Hz, refined by a parabola.
PROBE_JS = """
const a = document.getElementById('wl-live-audio');
if (!a || a.paused || !a.getAttribute('src')) return {error: 'the live audio is not playing'};
let p = window.__spreadProbe;
if (!p || p.src !== a.currentSrc) {
  try {
    const ctx = new AudioContext();
    const stream = a.captureStream();
    if (!stream.getAudioTracks().length) return {error: 'no audio track captured yet'};
    const node = ctx.createMediaStreamSource(stream);
    const an = ctx.createAnalyser();
    an.fftSize = 8192;
    an.smoothingTimeConstant = 0;
    const silent = ctx.createGain();
    silent.gain.value = 0;
    node.connect(an);
    an.connect(silent);
    silent.connect(ctx.destination);
    p = window.__spreadProbe = {ctx, an, src: a.currentSrc, bins: new Float32Array(an.frequencyBinCount), since: performance.now()};
  } catch (e) {
    return {error: String(e)};
  }
}
if (p.ctx.state !== 'running') { p.ctx.resume(); return {error: 'analyser context ' + p.ctx.state}; }
// The analyser needs a window's worth of audio first.
if (performance.now() - p.since < 500) return {error: 'warming up'};
p.an.getFloatFrequencyData(p.bins);
const sr = p.ctx.sampleRate, n = p.an.fftSize, b = p.bins;
const lo = Math.floor(150 * n / sr), hi = Math.ceil(1800 * n / sr);
let k = lo;
for (let i = lo; i <= hi; i++) if (b[i] > b[k]) k = i;
let d = 0;
const y0 = b[k - 1], y1 = b[k], y2 = b[k + 1];
// An analyser that has heard only silence reads -Infinity dB, which reaches
// Python as None: that is no reading at all.
if (!Number.isFinite(y1)) return {error: 'the analyser hears silence'};
if (Number.isFinite(y0) && Number.isFinite(y2)) { const den = y0 - 2 * y1 + y2; if (den) d = 0.5 * (y0 - y2) / den; }
return {hz: (k + d) * sr / n, peakDb: y1, wall: performance.timeOrigin + performance.now(), currentTime: a.currentTime};
"""


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """The demo library, with a live source's grace of 2 s (not 20)."""
    options = ["--signups-per-hour", "100000", "--guests-per-hour", "100000", "--bcrypt-cost", "4", "--live-grace", "2"]
    server = Server(tmp_path_factory.mktemp("live-data"), name="live", options=options).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def sweep_mp3(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sweep") / "sweep.mp3"
    # Phase 2π(f0·t + r/2·t²): the frequency is f0 + r·t.
    expr = f"0.5*sin(2*PI*({SWEEP_START_HZ}*t+{SWEEP_RATE_HZ_S / 2}*t*t))"
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"aevalsrc={expr}:s=44100:d={SWEEP_SECONDS}",
         "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", str(path)],
        check=True,
    )
    return path


# ---------------------------------------------------------------- helpers


def go_live_account(server, display_name: str = DJ_NAME):
    """A new owner with a stream key: (account, key, the icecast:// address for their station)."""
    owner = signup(server, display_name=display_name)
    made = auth_request(server, "POST", "/api/me/stream-key", token=owner.token)
    sid = owner.station_id
    parts = urllib.parse.urlsplit(made["sourceURL"].replace("{station}", sid))
    url = f"icecast://source:{made['key']}@127.0.0.1:{parts.port}/live/{sid}"
    return owner, url


def start_ffmpeg(url: str, source: Path) -> subprocess.Popen:
    """The broadcast: `source` looped forever at real time, as 128 kbps MP3."""
    return subprocess.Popen(
        ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", str(source),
         "-vn", "-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-ice_name", ICE_NAME,
         "-f", "mp3", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )



def current_entry(server, sid: str) -> dict | None:
    return server.timeline(sid).get("current")


def wait_live_on_server(d, server, sid: str, ffmpeg: subprocess.Popen) -> dict:
    """Waits for the station's timeline to have a live entry on the air (or ffmpeg to give up)."""
    def live_now(_):
        if ffmpeg.poll() is not None:
            return True
        entry = current_entry(server, sid)
        return entry if entry and entry.get("source") == "live" else False

    wait_for(d, live_now, "the source never took the station's timeline over")
    assert ffmpeg.poll() is None, f"ffmpeg was turned away: {ffmpeg.stderr.read().decode(errors='replace')}"
    return current_entry(server, sid)


def live(d) -> dict:
    return d.execute_script(LIVE_JS)


def device_key(d) -> str:
    """The page's device key (web/js/live/device-key.js)."""
    return d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/js/live/device-key.js').then((m) => done(m.deviceKey));")


def wait_live_audio_moves(d, what: str) -> dict:
    """Waits until the live <audio> plays and its currentTime has moved on by half a second."""
    first: dict = {}

    def moving(d):
        state = live(d)
        a = state["audio"]
        if not a or a["paused"] or not a["src"]:
            first.clear()
            return False
        if "t" not in first:
            first["t"] = a["currentTime"]
            return False
        return state if a["currentTime"] > first["t"] + 0.5 else False

    try:
        return wait_for(d, moving)
    except Exception:
        raise AssertionError(f"{what}: the live <audio> never played on: {live(d)}") from None


def press_play_button(d) -> None:
    """Focuses Listen/Stop and presses ENTER, as a keyboard user would."""
    button = find(d, ".btn-play")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", button)
    assert d.execute_script("return document.activeElement === arguments[0]", button)
    press(d, Keys.ENTER)


def live_stopped(d) -> bool:
    a = live(d)["audio"]
    return a is None or (a["paused"] and not a["src"])


def no_markup_ran(d) -> bool:
    return no_alert(d) and not d.find_elements(By.CSS_SELECTOR, ".now-meta b, .now-meta i, .live-art b, .upnext i, .history b, img[src='x']")


def upnext_whens(d) -> list[str]:
    return d.execute_script("return [...document.querySelectorAll('.upnext-row .upnext-when')].map((e) => e.textContent)")


def plays_library_track(server, sid: str):
    """A condition: the page's synced player plays the entry on the air, a library track (not live)."""
    def check(d):
        a = audio(d)
        if a.get("live") or a["paused"] or a["state"] != "playing" or a["readyState"] < 3 or a["currentTime"] <= 0:
            return False
        entry = current_entry(server, sid)
        return bool(entry) and entry.get("source") != "live" and a["entryId"] == entry["id"] and not entry["track"]["id"].startswith("live:")

    return check


def duration_text(ms: int) -> str:
    """The app's formatDuration: 83_500 → "1:23", 3_725_000 → "1:02:05"."""
    total = max(0, int(ms // 1000))
    hours, minutes, seconds = total // 3600, (total % 3600) // 60, total % 60
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def sweep_second(reading: dict) -> float:
    return (reading["hz"] - SWEEP_START_HZ) / SWEEP_RATE_HZ_S


def wrapped(seconds: float) -> float:
    """A difference of sweep positions, into [-15, 15) s (the sweep loops every 30 s)."""
    return (seconds + SWEEP_SECONDS / 2) % SWEEP_SECONDS - SWEEP_SECONDS / 2


def probe(d) -> dict:
    return d.execute_script(PROBE_JS)


RESET_PROBE_JS = """
const p = window.__spreadProbe;
if (p) { p.ctx.close(); window.__spreadProbe = null; }
"""


def measure_spread(a, b, when: str, samples: int = 12) -> None:
    """Prints how far apart the two pages are on the live relay (see the module's docstring)."""
    # Fresh analysers (a new connection to the relay is a new captured track).
    for d in (a, b):
        d.execute_script(RESET_PROBE_JS)
    wait_for(a, lambda d: "hz" in probe(d), "no reading of the live audio in the first browser")
    wait_for(b, lambda d: "hz" in probe(d), "no reading of the live audio in the second browser")
    spreads: list[float] = []
    current_times: list[float] = []
    rejected = 0
    for _ in range(samples * 3):
        if len(spreads) >= samples:
            break
        a1, b1, a2 = probe(a), probe(b), probe(a)
        if not all("hz" in r for r in (a1, b1, a2)):
            rejected += 1
            continue
        # A's reading must move with the wall clock between its two samples
        # (not across the sweep's loop, not a stray peak), and be loud enough.
        moved = sweep_second(a2) - sweep_second(a1)
        elapsed = (a2["wall"] - a1["wall"]) / 1000
        if abs(moved - elapsed) > 0.2 or min(a1["peakDb"], b1["peakDb"]) < -90:
            rejected += 1
            continue
        a_then = sweep_second(a1) + (b1["wall"] - a1["wall"]) / 1000
        spreads.append(wrapped(sweep_second(b1) - a_then))
        current_times.append(b1["currentTime"] - (a1["currentTime"] + (b1["wall"] - a1["wall"]) / 1000))
    if spreads:
        print(
            f"\nlive relay spread between the two browsers, {when} (the second minus the first, s of the source heard at one instant; "
            f"{len(spreads)} samples, {rejected} rejected): median {statistics.median(spreads):+.3f} s, "
            f"|median| {statistics.median(abs(s) for s in spreads):.3f} s, range {min(spreads):+.3f} … {max(spreads):+.3f} s")
    else:
        print(f"\nlive relay spread, {when}: no usable reading of the sweep ({rejected} rejected)")
    if current_times:
        print(
            f"live <audio> currentTime difference (indicative only: each counts from its own connection to the relay, "
            f"which begins with a burst of recent audio): median {statistics.median(current_times):+.3f} s")


# ----------------------------------------------------- two browsers, live


def test_a_live_source_takes_over_two_listeners_and_gives_the_station_back(live_server, browser, shot, sweep_mp3):
    server = live_server
    owner, url = go_live_account(server)
    sid = owner.station_id

    a = browser(PHONE)
    b = browser(DESKTOP)
    for d in (a, b):
        d.get(f"{server.base}/#/station/{sid}")
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen[data-state='ready']"), "the station never loaded")
    for d in (a, b):
        wait_for(d, plays_library_track(server, sid), "the station's music never played before the show")
        assert live(d)["screen"] == "off"

    ffmpeg = start_ffmpeg(url, sweep_mp3)
    try:
        entry = wait_live_on_server(a, server, sid, ffmpeg)
        assert entry["track"]["title"] == ICE_NAME and entry["track"]["artist"] == DJ_NAME, entry
        assert entry["track"]["audioURL"] == f"/live/{sid}.mp3?edge=1", entry

        for d in (a, b):
            # The page takes the live entry by itself: the sign, the title and the DJ as text.
            wait_for(d, lambda d: live(d)["screen"] == "on", "the page never showed the live show")
            assert find(d, ".np-live").is_displayed()
            assert find(d, ".np-live .live-badge").text.upper() == "LIVE"
            wait_for(d, lambda d: text_of(d, ".np-title") == ICE_NAME, "the show's title isn't the ice-name")
            assert text_of(d, ".np-artist") == DJ_NAME
            wait_for(d, lambda d: (text_of(d, ".live-since") or "").startswith("live for "), "no 'live for …'")
            assert not find(d, ".progress").is_displayed() and not find(d, ".times").is_displayed(), "a live show has a progress bar"
            assert no_markup_ran(d), "the show's title or the DJ's name became markup"
            # The live <audio> plays; the station's file player is silent.
            state = wait_live_audio_moves(d, "a listener")
            assert state["audio"]["src"] == f"/live/{sid}.mp3?edge=1&listener={device_key(d)}", state
            # The audio moves before the player's state says so: wait for it.
            wait_for(d, lambda d: (lambda p: p["live"] and p["state"] == "playing")(live(d)["player"]),
                     f"the live player never said it plays: {state}")
            wait_for(d, lambda d: not live(d)["fileHeard"], "the station's file player kept playing under the live show")
            # Lock screens say the show and its DJ.
            wait_for(d, lambda d: (d.execute_script(MEDIA_JS) or {}).get("title") == ICE_NAME, "the Media Session doesn't say the show")
            assert d.execute_script(MEDIA_JS)["artist"] == DJ_NAME
            # Up Next: the robot's songs behind the show don't claim a start a day away.
            wait_for(d, lambda d: upnext_whens(d) and all(w.startswith("after the live show") for w in upnext_whens(d)),
                     f"Up Next doesn't say 'after the live show': {upnext_whens(d)}")
        shot(a, "live-phone")
        shot(b, "live-desktop")
        assert live(a)["audio"]["entryId"] == live(b)["audio"]["entryId"] == entry["id"]
        # Two signed-out listeners, each on the station's WebSocket and its
        # relay: two in the count (each page says the same device key to
        # both), not one per connection and per player. A player is counted
        # before its first byte, so the count is whole once both play.
        counts = server.get(f"/api/stations/{sid}")
        assert counts["listeners"] == 2, counts
        wait_for(a, lambda d: text_of(d, ".listeners-text") == "2 listening", "the page doesn't say 2 listeners")

        measure_spread(a, b, "both tuned in before the show")

        # Stop and Listen, from the keyboard, as for a song.
        press_play_button(b)
        wait_for(b, lambda d: live_stopped(d) and not live(d)["wantPlay"], "Stop didn't stop the live show")
        assert find(b, ".btn-play").get_attribute("aria-label") == "Listen"
        press_play_button(b)
        wait_live_audio_moves(b, "Listen again")
        assert find(b, ".btn-play").get_attribute("aria-label") == "Stop listening"
        # The second browser joined the relay again, mid-show: where is it now?
        measure_spread(a, b, "the second one reconnected mid-show (Stop, Listen)")

        at_every_width(a, shot, "live-now-playing", [".np-live", ".live-badge", ".np-title", ".np-artist", ".btn-play", ".art-stage"])
        wait_live_audio_moves(a, "after the resizes")
    finally:
        stop_ffmpeg(ffmpeg)

    # The grace runs out: both pages are back on the station's synced player.
    for d in (a, b):
        wait_for(d, lambda d: live(d)["screen"] == "off", "the LIVE sign stayed after the grace")
        wait_for(d, live_stopped, "the live <audio> kept going after the show")
        wait_for(d, plays_library_track(server, sid), "the station's music didn't come back after the show")
        assert find(d, ".progress").is_displayed()

    # Just played: the show, with how long it really ran.
    timeline = server.timeline(sid)
    past = next((e for e in timeline.get("history", []) if e["id"] == entry["id"]), None)
    assert past is not None, f"the live show isn't in the timeline's history: {timeline.get('history')}"
    ran = min(past["durationMs"], past["expiration"] - past["start"])
    assert ran < 3_600_000, f"the live show's history says it ran {ran} ms: {past}"
    title = f"Live: {ICE_NAME} — {DJ_NAME}"
    for d in (a, b):
        wait_for(d, lambda d: title in d.execute_script(
            "return [...document.querySelectorAll('.history-row .history-title')].map((e) => e.textContent)"),
            "Just played doesn't list the live show")
        sub = d.execute_script(
            "const row = [...document.querySelectorAll('.history-row')].find((r) => r.dataset.entryId === arguments[0]);"
            "return row ? row.querySelector('.history-sub').textContent : null", entry["id"])
        assert sub and sub.endswith(duration_text(ran)), (sub, duration_text(ran), past)
        assert no_markup_ran(d)
    shot(a, "after-the-show")

    # The history screen (over the playing station) reads the same.
    a.execute_script("location.hash = arguments[0]", f"#/station/{sid}/history")
    row_text = (
        "const row = document.querySelector(`.log-row[data-entry-id='${arguments[0]}']`);"
        "return row ? [row.querySelector('.log-title').textContent, row.querySelector('.log-sub').textContent] : null")
    wait_for(a, lambda d: d.execute_script(row_text, entry["id"]), "the history screen doesn't list the live show")
    log_title, log_sub = a.execute_script(row_text, entry["id"])
    assert log_title == title and log_sub.endswith(duration_text(ran)), (log_title, log_sub, past)
    assert no_markup_ran(a) and not a.find_elements(By.CSS_SELECTOR, ".log-row b, .log-row i")
    shot(a, "history-after-the-show")


# ------------------------------------- the source drops and comes back


def test_a_source_that_drops_and_comes_back_within_the_grace_plays_on(demo_server, browser, shot, sweep_mp3):
    """The demo server's grace is the default 20 s: time to see the drop said."""
    server = demo_server
    owner, url = go_live_account(server, display_name="Comeback Kid")
    sid = owner.station_id
    d = browser(PHONE)
    d.get(f"{server.base}/#/station/{sid}")
    wait_for(d, plays_library_track(server, sid), "the station's music never played")

    ffmpeg = start_ffmpeg(url, sweep_mp3)
    again = None
    try:
        entry = wait_live_on_server(d, server, sid, ffmpeg)
        wait_for(d, lambda d: live(d)["screen"] == "on", "the page never showed the live show")
        wait_live_audio_moves(d, "before the drop")
        status = find(d, ".live-status")
        assert status.get_attribute("aria-live") == "polite" and not status.text

        stop_ffmpeg(ffmpeg)
        # The relay ends (or stops moving): the page says so, and the show is still on.
        wait_for(d, lambda d: text_of(d, ".live-status") == DROPPED, "the drop was never said")
        shot(d, "live-dropped")
        now = current_entry(server, sid)
        assert now and now["id"] == entry["id"], f"the live entry didn't wait for its source: {now}"
        assert live(d)["screen"] == "on"

        again = start_ffmpeg(url, sweep_mp3)
        wait_for(d, lambda d: again.poll() is not None or (current_entry(server, sid) or {}).get("expiration", 0) - server.timeline(sid)["serverTime"] > 60_000,
                 "the source never came back")
        assert again.poll() is None, f"ffmpeg was turned away: {again.stderr.read().decode(errors='replace')}"
        assert current_entry(server, sid)["id"] == entry["id"], "the show came back as a new entry within its grace"
        # The page asks again by itself and plays on.
        wait_live_audio_moves(d, "after the source came back")
        wait_for(d, lambda d: text_of(d, ".live-status") == "", "the drop is still said after the source came back")
    finally:
        stop_ffmpeg(ffmpeg)
        stop_ffmpeg(again)
    wait_for(d, lambda d: live(d)["screen"] == "off", "the LIVE sign stayed after the grace")
    wait_for(d, plays_library_track(server, sid), "the station's music didn't come back after the show")
