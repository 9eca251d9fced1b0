"""Helpers shared by the browser tests: waiting on page conditions,
reading the player, measuring sync against the server's timeline, and
moving focus with the keyboard alone."""

from __future__ import annotations

import os
import subprocess
import time

from selenium.common.exceptions import (
    JavascriptException,
    NoAlertPresentException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

AUDIO_JS = """
const screen = document.querySelector('.station-screen');
const w = window.__wavelength;
let s;
if (w && w.player && w.player.status) {
  s = w.player.status();
} else {
  const a = document.getElementById('wl-audio');
  s = {paused: a.paused, currentTime: a.currentTime, readyState: a.readyState,
       entryId: a.dataset.entryId || null, state: a.dataset.state || null,
       src: a.getAttribute('src') || '', mode: 'basic'};
}
return Object.assign({}, s, {
  connection: screen ? screen.dataset.connection || null : null,
  revision: screen ? Number(screen.dataset.revision || -1) : -1,
});
"""


# How long a test waits for something that should happen. Tests wait for
# events, never for a deadline: this bound only turns a hang into a failure,
# so it is far longer than anything takes even on a loaded machine (load 20).
PATIENCE = float(os.environ.get("WAVELENGTH_TEST_PATIENCE", "90"))


def wait_for(driver, condition, message: str = "", explain=None):
    """Polls condition(driver) until truthy (WebDriverWait, 50 ms steps).
    `explain`, if given, is called when the wait runs out, and what it
    returns (what the page and the server held then) joins the message, so
    a failure on a CI machine says more than that it timed out."""
    try:
        return WebDriverWait(
            driver, PATIENCE, poll_frequency=0.05,
            ignored_exceptions=(StaleElementReferenceException, JavascriptException),
        ).until(condition, message)
    except TimeoutException:
        if explain is None:
            raise
        try:
            said = explain()
        except Exception as error:  # the explanation must not hide the timeout
            said = f"(explaining failed: {error!r})"
        raise AssertionError(f"{message}; {said}") from None


def audio(driver) -> dict:
    return driver.execute_script(AUDIO_JS)


def is_playing(driver, entry_id: str | None = None) -> bool:
    a = audio(driver)
    return (
        not a["paused"]
        and a["state"] == "playing"
        and a["readyState"] >= 3
        and a["currentTime"] > 0
        and (entry_id is None or a["entryId"] == entry_id)
    )


def wait_playing(driver, entry_id: str | None = None) -> dict:
    # What the page said while this waited, each change once, so a failure
    # shows the way there and not only where it ended.
    seen: list[tuple] = []
    started = time.monotonic()

    def playing(d):
        a = audio(d)
        state = (a["entryId"], a["state"], a["paused"], a["readyState"], a["connection"], a["revision"])
        if not seen or seen[-1][1] != state:
            seen.append((round(time.monotonic() - started, 2), state))
        return is_playing(d, entry_id)

    try:
        wait_for(driver, playing)
    except TimeoutException:
        # Say what the page was doing instead: its player and, with Web
        # Audio, the state of the current entry's buffer.
        details = driver.execute_script(
            "const w = window.__wavelength; return w && w.report ? w.report().details || null : null;")
        raise AssertionError(
            f"audio never played entry {entry_id}: the page reports {audio(driver)}, details {details}; "
            f"on the way (s, (entry, state, paused, readyState, connection, revision)): {seen[-30:]}") from None
    return audio(driver)


def sync_error_ms(server, driver, station_id: str) -> float | None:
    """How far the page's audio is from where the server's timeline says
    the current entry is, in ms (positive = ahead), measured from Python
    around the same instant. None when the sample straddled a track change."""
    t0 = time.monotonic()
    timeline = server.timeline(station_id)
    t1 = time.monotonic()
    a = audio(driver)
    t2 = time.monotonic()
    current = timeline.get("current")
    if not current or a["entryId"] != current["id"]:
        return None
    # The server's clock when the page was read: its stamp plus the time
    # from the middle of the HTTP call to the middle of the script call.
    server_ms = timeline["serverTime"] + ((t1 + t2) / 2 - (t0 + t1) / 2) * 1000
    expected_s = (server_ms - current["start"] + current["offsetMs"]) / 1000
    return (a["currentTime"] - expected_s) * 1000


def sync_samples(server, driver, station_id: str, count: int = 5) -> list[float]:
    samples: list[float] = []
    attempts = 0
    while len(samples) < count and attempts < count * 4:
        attempts += 1
        error = sync_error_ms(server, driver, station_id)
        if error is not None:
            samples.append(error)
    return samples


def wait_in_sync(server, driver, station_id: str, limit_ms: float = 250) -> list[float]:
    """Waits until five back-to-back samples are all within limit_ms."""
    result: dict = {}

    def check(d):
        samples = sync_samples(server, d, station_id)
        result["samples"] = samples
        return len(samples) == 5 and all(abs(s) < limit_ms for s in samples)

    try:
        wait_for(driver, check)
    except Exception as error:
        raise AssertionError(f"not within {limit_ms} ms of the timeline: {result.get('samples')}") from error
    return result["samples"]


def text_of(driver, selector: str) -> str:
    return driver.execute_script(
        "const el = document.querySelector(arguments[0]); return el ? el.textContent : null;", selector
    )


def active(driver) -> dict:
    return driver.execute_script(
        """
        const el = document.activeElement;
        if (!el) return {};
        const style = getComputedStyle(el);
        return {
          tag: el.tagName.toLowerCase(),
          cls: el.className && el.className.baseVal === undefined ? el.className : '',
          label: el.getAttribute('aria-label') || el.textContent.trim().slice(0, 80),
          stationId: el.dataset.stationId || null,
          trackId: el.dataset.trackId || null,
          outline: style.outlineStyle + ' ' + style.outlineWidth,
        };
        """
    )


def press(driver, key) -> None:
    ActionChains(driver).send_keys(key).perform()


def tab_to(driver, predicate, limit: int = 80, shift: bool = False) -> dict:
    """Presses TAB until the focused element satisfies predicate(active)."""
    for _ in range(limit):
        if shift:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            press(driver, Keys.TAB)
        focused = active(driver)
        if predicate(focused):
            return focused
    raise AssertionError(f"TAB never reached the element; last focus: {active(driver)}")


def has_focus_ring(focused: dict) -> bool:
    style, _, width = focused.get("outline", "none 0px").partition(" ")
    return style not in ("none", "") and not width.startswith("0")


def art_loaded(driver) -> bool:
    return driver.execute_script(
        "const img = document.querySelector('.art-slot img');"
        "return !img || (img.complete && img.naturalWidth > 0);"
    )


def upnext_track_ids(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('.upnext-row')].map(r => r.dataset.trackId);"
    )


def find(driver, selector: str):
    return driver.find_element(By.CSS_SELECTOR, selector)


def upnext_entry_ids(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('.upnext-row')].map(r => r.dataset.entryId);"
    )


LAYOUT_JS = """
const selectors = arguments[0];
// A phone's layout viewport grows to fit content that is too wide (the page
// is then drawn zoomed out), so innerWidth alone would hide the overflow: the
// width that counts is the device's, which the emulation sets.
const width = Math.min(window.innerWidth, window.screen.width);
const root = document.documentElement;
// What sticks out to the right (or left): the deepest such elements name the culprit.
const offenders = [];
for (const el of document.querySelectorAll('body *')) {
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) continue;
  if (r.right > width + 0.5 || r.left < -0.5) {
    const style = getComputedStyle(el);
    if (style.position === 'fixed' && style.visibility === 'hidden') continue;
    offenders.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ').join('.')} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
  }
}
const outside = [];
for (const selector of selectors) {
  const el = document.querySelector(selector);
  if (!el) { outside.push(`${selector}: missing`); continue; }
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) { outside.push(`${selector}: not shown`); continue; }
  if (r.left < -0.5 || r.right > width + 0.5) outside.push(`${selector}: x ${Math.round(r.left)}..${Math.round(r.right)} of ${width}`);
}
return {scrollWidth: root.scrollWidth, innerWidth: width, layoutWidth: window.innerWidth, offenders: offenders.slice(-8), outside};
"""


def layout_report(driver, key_selectors: list[str]) -> dict:
    """No sideways scroll, and each key control inside the viewport's width:
    {scrollWidth, innerWidth, offenders (for the message), outside}."""
    return driver.execute_script(LAYOUT_JS, key_selectors)


def assert_fits(driver, screen: str, key_selectors: list[str]) -> None:
    report = layout_report(driver, key_selectors)
    assert report["scrollWidth"] <= report["innerWidth"] and not report["outside"], (
        f"{screen} at {report['innerWidth']} px (layout viewport {report['layoutWidth']} px): scrollWidth {report['scrollWidth']}, "
        f"key controls outside: {report['outside']}, sticking out: {report['offenders']}"
    )


def no_alert(d) -> bool:
    """Whether no alert is open (a tag that ran as script would open one)."""
    try:
        d.switch_to.alert
    except NoAlertPresentException:
        return True
    return False


# Keeps every microphone stream the page opens, to check they are stopped.
WATCH_MIC = """
if (!window.__micStreams) {
  window.__micStreams = [];
  const md = navigator.mediaDevices;
  const original = md.getUserMedia.bind(md);
  md.getUserMedia = async (constraints) => {
    const stream = await original(constraints);
    window.__micStreams.push(stream);
    return stream;
  };
}
"""
MIC_STATE = "return (window.__micStreams || []).map(s => s.getTracks().map(t => t.readyState));"


def stop_ffmpeg(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.kill()
    process.wait(timeout=PATIENCE)


def click(d, selector: str) -> None:
    """Scrolls the element to the middle of the screen (clear of the sticky
    header) and clicks it. A screen that redraws between the find and the
    click (a list refreshed from the server) leaves a stale element: the
    selector is found again, as a finger would land on the new one."""
    for attempt in range(3):
        element = find(d, selector)
        try:
            d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return
        except StaleElementReferenceException:
            if attempt == 2:
                raise


def save_party(d, checks: dict[str, bool]) -> None:
    """Sets the party form's checkboxes (id → checked) and saves."""
    for box, wanted in checks.items():
        element = find(d, f"#{box}")
        if element.is_selected() != wanted:
            click(d, f"label[for='{box}']")
        wait_for(d, lambda d: find(d, f"#{box}").is_selected() == wanted)
    d.execute_script("document.getElementById('party-status').textContent = ''")
    click(d, ".party-form .btn-primary")
    wait_for(d, lambda d: (find(d, "#party-status").text or "").startswith("Saved"), "the party settings never saved")


def long_song_now(server, sid: str, token: str) -> dict:
    """The library's longest song, cut to now (queued next, then a skip):
    it plays on for a minute or so while the test looks (a clip put after
    it stays in Up Next, an outage ends before it does), whatever was left
    of the song before. Returns the timeline."""
    longest = max(server.tracks(), key=lambda t: t["durationMs"])
    server.command(sid, token, {"op": "queueNext", "trackID": longest["id"]})
    timeline = server.timeline(sid)
    if timeline["current"]["track"]["id"] != longest["id"] or timeline["current"]["source"] != "dj":
        timeline = server.skip(sid, token, timeline["current"]["id"])
    assert timeline["current"]["track"]["id"] == longest["id"], timeline["current"]
    return timeline


def queue_and_cut_to(server, station_id: str, token: str, tracks: list[dict]) -> dict:
    """The DJ's picks `tracks` in this order, the first playing now: the
    timeline once it does. What played before them is skipped, unless it
    ended on its own meanwhile (skipping it then would skip the first pick)."""
    for track in tracks:
        server.command(station_id, token, {"op": "queueNext", "trackID": track["id"]})
    timeline = server.timeline(station_id)
    order = [timeline["current"], *timeline["upNext"]][: len(tracks)]
    if len(order) < len(tracks) or not all(e and e["source"] == "dj" and e["track"]["id"] == t["id"] for e, t in zip(order, tracks)):
        # Whatever plays before them goes (unless it ended on its own meanwhile).
        timeline = server.skip(station_id, token, timeline["current"]["id"])
    assert timeline["current"]["track"]["id"] == tracks[0]["id"], timeline
    return timeline
