"""Voice clips between songs, and the dial's "On this network", in real
Chromium against the real server. The browsers that record have Chromium's
fake microphone playing a generated tone (--use-fake-device-for-media-stream,
--use-fake-ui-for-media-stream, --use-file-for-fake-audio-capture).

- The DJ's booth: "Voice clip" opens the recorder; Record (aria-pressed,
  the level meter rising above 0, the countdown moving), Stop (the
  microphone's tracks end), Preview (the recording plays here to its end),
  Re-record, a note, "Play next": the server's timeline has the clip right
  after the song playing (source "voice", the note, the DJ's name), the
  booth's and a listener's Up Next show it, and when the DJ skips the song
  the listener's page makes it current, its player fetches
  /api/clips/<id>/audio and plays it ("Voice clip · DJ" as now playing, the
  note under it), then Just played lists it. The booth with the recorder
  fits at 360–1440 px.
- A guest's shout-out: with the host's "Listeners may send voice clips"
  off, the guest has no shout-out control; the host turns it on in the
  party settings and the control appears live; the guest joins with a name
  from the panel, records, adds a hostile note, sends (202: "Sent — waiting
  for the host"). The host's booth shows it in the clip inbox the moment it
  arrives (the socket's clipWaiting), with the name and note as text; its
  preview plays there (the audio answers 200 to the host, 404 to a
  stranger); another guest's shout-out (sent over HTTP) arrives live and
  Delete removes it; Approve puts the first in Up Next for everyone (and
  the guest's panel says the host approved it); Delete
  on it while it is still on the timeline shows the server's 409 message;
  after a skip it is the guest's now playing, the hostile note text
  everywhere and `window.__pwned` never set. Turned off again, the control
  goes. The listener with the recorder open and the booth with the recorder
  and the inbox fit at 360–1440 px.
- The dial's "On this network": the page's fetch of /api/nearby answered
  by a stand-in (no second server with mDNS here): names that are HTML are
  text, links go to each stationURL (a javascript: one is dropped), a
  code-protected one has its lock; an empty answer (asked again on focus)
  hides the section. The real server's /api/nearby answers its shape.

The 30 s cap is the recorder state machine's (e2e/js/clips.test.js), not
waited for here. Every wait is for a condition (helpers.wait_for, or a
bounded poll of the API); no timing is asserted.
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
from selenium.webdriver.common.keys import Keys

from accounts_api import auth_request, guest, log_in_browser, make_browser_user, signup, unique_handle
from conftest import DESKTOP, PHONE, at_every_width, fake_microphone
from helpers import MIC_STATE, PATIENCE, WATCH_MIC, active, click, find, long_song_now, no_alert, press, save_party, wait_for

HOSTILE_NOTE = '<img src=x onerror="window.__pwned=1">'
HOSTILE_NAME = "Guest <b>Gus</b>"

PANEL_JS = """
const p = document.querySelector(arguments[0]);
if (!p) return null;
const q = (s) => p.querySelector(s);
const shown = (el) => Boolean(el) && !el.closest('[hidden]') && el.getClientRects().length > 0;
const wave = q('.clip-wave');
return {
  shown: shown(p), state: p.dataset.state, preview: p.dataset.preview, clipID: p.dataset.clipId || null,
  open: shown(q('.clip-box')), joinShown: shown(q('.clip-join')),
  clock: q('.clip-clock').textContent, status: q('.clip-status').textContent, error: q('.clip-error').textContent,
  level: Number(wave.dataset.level), meter: {now: wave.getAttribute('aria-valuenow'), label: wave.getAttribute('aria-label'), role: wave.getAttribute('role')},
  record: {shown: shown(q('.clip-record')), pressed: q('.clip-record').getAttribute('aria-pressed')},
  stop: shown(q('.clip-stop')), preview_: shown(q('.clip-preview')), rerecord: shown(q('.clip-rerecord')),
  send: shown(q('.clip-send')) ? q('.clip-send').textContent : null,
  focus: document.activeElement ? document.activeElement.className.baseVal === undefined ? document.activeElement.className : '' : '',
};
"""

INBOX_JS = """
const box = document.querySelector('.clip-inbox');
if (!box) return null;
const shown = (el) => Boolean(el) && !el.closest('[hidden]') && el.getClientRects().length > 0;
const rows = (sel) => [...box.querySelectorAll(sel + ' .clip-row')].map(r => ({
  id: r.dataset.clipId, name: r.querySelector('.clip-row-name').textContent,
  note: r.querySelector('.clip-row-note') ? r.querySelector('.clip-row-note').textContent : '',
  length: r.querySelector('.clip-row-length').textContent,
  pressed: r.querySelector('.clip-row-preview').getAttribute('aria-pressed')}));
return {
  shown: shown(box), pending: rows('.clip-pending'), approved: rows('.clip-approved'),
  count: box.querySelector('.clip-inbox-count').textContent, status: box.querySelector('.clip-inbox-status').textContent,
  empty: shown(box.querySelector('.clip-inbox-empty')) ? box.querySelector('.clip-inbox-empty').textContent : '',
  quota: box.querySelector('.clip-quota').textContent, previewing: box.dataset.previewing || '',
  made: [...box.querySelectorAll('*')].map(e => e.tagName.toLowerCase()).filter(t => ['img', 'b', 'script'].includes(t)),
};
"""

UPNEXT_JS = """
return [...document.querySelectorAll('.upnext-row')].map(r => ({
  entry: r.dataset.entryId, track: r.dataset.trackId, voice: r.classList.contains('is-voice'),
  title: r.querySelector('.upnext-title').textContent, sub: r.querySelector('.upnext-sub').textContent,
  made: [...r.querySelectorAll('img, b, script')].length}));
"""

NOW_JS = """
const s = document.querySelector('.station-screen');
return s ? {entry: s.dataset.entryId || null, voice: s.dataset.voice || null,
  label: document.querySelector('.np-label').textContent, title: document.querySelector('.np-title').textContent,
  artist: document.querySelector('.np-artist').textContent,
  made: [...document.querySelectorAll('.now-meta img, .now-meta b, .now-meta script')].length} : null;
"""

# Notes, in the page itself, every entry the player really plays (its
# report's entry with a position past 0 while playing): a 3 s clip can come
# and go between two polls from Python.
WATCH_HEARD = """
if (!window.__heard) {
  window.__heard = [];
  setInterval(() => {
    const r = window.__wavelength.report();
    if (r.entryID && r.state === 'playing' && r.positionMs > 0 && !window.__heard.includes(r.entryID)) window.__heard.push(r.entryID);
  }, 30);
}
"""

FETCHED_JS = "return performance.getEntriesByType('resource').map(e => new URL(e.name).pathname);"


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def voice_wav(tmp_path_factory) -> Path:
    """20 s of a 330 Hz tone with a slow tremolo (a voice-like level that
    moves), 48 kHz mono 16-bit: the fake microphone loops it."""
    wav = tmp_path_factory.mktemp("clip-audio") / "voice.wav"
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=20",
         "-af", "tremolo=f=3:d=0.6", "-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", str(wav)],
        check=True,
    )
    return wav


@pytest.fixture
def mic_browser(browser, voice_wav):
    def make(size=PHONE):
        return browser(size, extra_args=fake_microphone(voice_wav))

    return make


# ---------------------------------------------------------------- helpers


def panel(d, which: str) -> dict | None:
    return d.execute_script(PANEL_JS, f".clip-panel-{which}")


def inbox(d) -> dict | None:
    return d.execute_script(INBOX_JS)


def upnext(d) -> list[dict]:
    return d.execute_script(UPNEXT_JS)


def now_playing(d) -> dict | None:
    return d.execute_script(NOW_JS)



def seconds_left(clock: str) -> int | None:
    match = re.fullmatch(r"(\d+):(\d\d) left", clock or "")
    return int(match[1]) * 60 + int(match[2]) if match else None


def record(d, which: str, seconds: int = 3, button: str | None = ".clip-record") -> dict:
    """Records about `seconds` (until the page's own countdown has gone down
    that far), then Stop; returns the panel once the take is kept. With
    button=None it is all keyboard: SPACE on the focused Record, then SPACE
    on Stop, where focus has gone."""
    base = f".clip-panel-{which}"
    if button:
        click(d, f"{base} {button}")
    else:
        assert "clip-record" in active(d)["cls"], f"focus isn't on Record: {active(d)}"
        press(d, Keys.SPACE)
    wait_for(d, lambda d: panel(d, which)["state"] == "recording" or panel(d, which)["error"],
             f"the recorder never started: {panel(d, which)}")
    p = panel(d, which)
    assert p["state"] == "recording", p
    assert p["record"]["pressed"] == "true" and p["stop"], p
    assert p["status"] == "Recording. 30 seconds at most.", p
    assert (p["meter"]["role"], p["meter"]["label"]) == ("meter", "Microphone level"), p
    wait_for(d, lambda d: panel(d, which)["level"] > 0, "the level never rose above 0 with the microphone on")
    wait_for(d, lambda d: (seconds_left(panel(d, which)["clock"]) or 99) <= 30 - seconds,
             f"the countdown never went down: {panel(d, which)}")
    if button:
        click(d, f"{base} .clip-stop")
    else:
        assert "clip-stop" in active(d)["cls"], f"focus didn't move to Stop: {active(d)}"
        press(d, Keys.SPACE)
    wait_for(d, lambda d: panel(d, which)["state"] in ("recorded", "idle"), f"Stop never kept the take: {panel(d, which)}")
    p = panel(d, which)
    if not button:
        assert "clip-preview" in active(d)["cls"], f"focus didn't move to Preview: {active(d)}"
    assert re.fullmatch(r"Recorded \d+ seconds?\.", p["status"]), p
    assert p["state"] == "recorded" and not p["error"], p
    assert re.fullmatch(r"\d+ seconds?", p["clock"]), p
    assert p["preview_"] and p["rerecord"] and p["send"] and not p["stop"], p
    assert p["record"]["pressed"] == "false", p
    return p


def mic_released(d) -> bool:
    streams = d.execute_script(MIC_STATE)
    return bool(streams) and all(all(state == "ended" for state in tracks) for tracks in streams)


def open_station(d, server, sid: str, owner: bool = False) -> None:
    d.get(f"{server.base}/#/station/{sid}")
    selector = ".station-screen.is-owner[data-state='ready'] .clip-panel-dj .btn-clip-open" if owner else \
        ".station-screen[data-state='ready']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, selector), "the station screen never got ready")
    d.execute_script(WATCH_MIC)


def listen(d) -> None:
    """Presses Listen if the page waits for it, then waits for sound."""
    button = find(d, ".btn-play")
    if button.get_attribute("aria-label") == "Listen":
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
    wait_for(d, lambda d: d.execute_script("return window.__wavelength.player.state") == "playing", "the station never played")


def wait_server(predicate, read, message: str):
    deadline = time.monotonic() + PATIENCE
    value = None
    while time.monotonic() < deadline:
        value = read()
        if predicate(value):
            return value
        time.sleep(0.1)
    raise AssertionError(f"{message}; last {value}")


def voice_entry(server, sid: str, clip_id: str) -> dict | None:
    timeline = server.timeline(sid)
    for entry in [timeline.get("current"), *timeline.get("upNext", [])]:
        if entry and entry["track"]["id"] == f"clip:{clip_id}":
            return entry
    return None


def skip_to(server, sid: str, token: str, entry_id: str) -> None:
    """Skips whatever plays before `entry_id` until it is current."""
    deadline = time.monotonic() + PATIENCE
    while (current := server.timeline(sid)["current"])["id"] != entry_id:
        assert time.monotonic() < deadline, f"{entry_id} never became current: {current}"
        server.skip(sid, token, current["id"])


def post_clip(server, sid: str, token: str, audio: bytes, note: str = "") -> tuple[int, dict]:
    """POST …/clips with raw audio, as a bearer: (status, JSON)."""
    query = f"?note={urllib.request.quote(note)}" if note else ""
    request = urllib.request.Request(f"{server.base}/api/stations/{sid}/clips{query}", data=audio, method="POST")
    request.add_header("Content-Type", "audio/wav")
    request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            return response.status, json.loads(response.read().decode())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode() or "null")


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def fetch_in_page(d, path: str) -> dict:
    return d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0], {credentials: 'same-origin'}).then(async r => done({status: r.status, type: r.headers.get('Content-Type'),"
        " size: (await r.arrayBuffer()).byteLength}), e => done({status: 0, type: String(e)}));", path)



# ------------------------------------------------------------------ tests


def test_the_dj_records_a_clip_that_plays_next_for_a_listener(demo_server, mic_browser, browser, shot):
    server = demo_server
    note = "Happy birthday, Ana!"

    # A listener tunes in first: a DJ's clip needs someone to hear it.
    li = browser(PHONE)
    d = mic_browser(PHONE)
    owner = make_browser_user(d, server, display_name="Night Owl DJ")
    sid = owner.station_id
    open_station(li, server, sid)
    listen(li)
    li.execute_script(WATCH_HEARD)

    open_station(d, server, sid, owner=True)
    p = panel(d, "dj")
    assert p["shown"] and not p["open"] and p["state"] == "closed", p
    click(d, ".clip-panel-dj .btn-clip-open")
    wait_for(d, lambda d: panel(d, "dj")["open"])
    assert find(d, ".clip-panel-dj .btn-clip-open").get_attribute("aria-expanded") == "true" or \
        not find(d, ".clip-panel-dj .btn-clip-open").is_displayed()
    assert "clip-heading" in panel(d, "dj")["focus"], "focus isn't on the recorder's heading"

    # A first take by keyboard (TAB from the heading to Record), its preview, then a second take.
    press(d, Keys.TAB)
    record(d, "dj", seconds=2, button=None)
    wait_for(d, mic_released, "Stop didn't release the microphone")
    press(d, Keys.ENTER)
    wait_for(d, lambda d: panel(d, "dj")["preview"] in ("playing", "ended"), "the preview never played")
    wait_for(d, lambda d: panel(d, "dj")["preview"] == "ended", "the preview never played to its end")
    record(d, "dj", seconds=3, button=".clip-rerecord")
    wait_for(d, mic_released, "the second take didn't release the microphone")
    find(d, ".clip-panel-dj .clip-note").send_keys(note)
    at_every_width(d, shot, "booth-voice-clip", [".clip-panel-dj .clip-heading", ".clip-panel-dj .clip-send",
                                                 ".clip-panel-dj .clip-preview", ".clip-panel-dj .clip-rerecord",
                                                 ".clip-panel-dj .clip-note", ".clip-inbox"],
                   reveal=".clip-panel-dj .clip-box")

    # Play next: it goes right after the song playing.
    long_song_now(server, sid, owner.token)
    click(d, ".clip-panel-dj .clip-send")
    wait_for(d, lambda d: panel(d, "dj")["state"] == "sent" or panel(d, "dj")["error"], f"it never sent: {panel(d, 'dj')}")
    p = panel(d, "dj")
    assert p["state"] == "sent" and p["clipID"], p
    assert p["status"].startswith("Plays next"), p
    clip_id = p["clipID"]
    timeline = server.timeline(sid)
    entry = timeline["upNext"][0]
    assert entry["source"] == "voice" and entry["track"]["id"] == f"clip:{clip_id}", timeline["upNext"][:2]
    assert (entry["track"]["title"], entry["track"]["artist"]) == (note, "Night Owl DJ"), entry["track"]
    assert entry["track"]["audioURL"] == f"/api/clips/{clip_id}/audio"

    # Up Next, in the booth and for the listener.
    for page in (d, li):
        wait_for(page, lambda page: any(r["track"] == f"clip:{clip_id}" for r in upnext(page)), "the clip never showed in Up Next")
        row = next(r for r in upnext(page) if r["track"] == f"clip:{clip_id}")
        assert row["voice"] and row["title"] == "Voice clip · Night Owl DJ" and row["sub"] == note, row
    # The booth's inbox lists its own clip among the approved ones.
    wait_for(d, lambda d: [r["id"] for r in inbox(d)["approved"]] == [clip_id], f"the inbox doesn't list it: {inbox(d)}")

    # The DJ skips the song: the clip is the listener's now playing, and heard.
    skip_to(server, sid, owner.token, entry["id"])
    wait_for(li, lambda d: (now_playing(d) or {}).get("entry") == entry["id"], f"the listener never moved to the clip: {now_playing(li)}")
    now = now_playing(li)
    assert now["voice"] == "on" and now["title"] == "Voice clip · Night Owl DJ" and now["artist"] == note, now
    assert "Voice clip" in now["label"], now
    wait_for(li, lambda d: entry["id"] in d.execute_script("return window.__heard"),
             f"the listener's player never played the clip: heard {li.execute_script('return window.__heard')}")
    assert f"/api/clips/{clip_id}/audio" in li.execute_script(FETCHED_JS), "the listener's player never fetched the clip's audio"
    li.execute_script("document.querySelector('.now-meta').scrollIntoView({block: 'center'})")
    shot(li, "listener-hears-a-voice-clip")
    # Once it has played, Just played lists it.
    wait_for(li, lambda d: d.execute_script(
        "const r = document.querySelector(`.history-row[data-entry-id='${arguments[0]}']`);"
        "return r && r.querySelector('.history-title').textContent === 'Voice clip · Night Owl DJ'"
        " && r.querySelector('.history-sub').textContent === arguments[1];", entry["id"], note),
        "Just played never listed the clip")
    assert no_alert(d) and no_alert(li)


def test_a_guest_sends_a_shout_out_the_host_approves(demo_server, mic_browser, browser, shot, tmp_path):
    server = demo_server
    owner = signup(server, unique_handle("clipo"), "Shout Host")
    sid = owner.station_id

    host = browser(DESKTOP)
    log_in_browser(host, server, owner)
    open_station(host, server, sid, owner=True)
    wait_for(host, lambda d: (inbox(d) or {}).get("empty") == "No shout-outs waiting.", f"the inbox never loaded: {inbox(host)}")
    assert re.fullmatch(r"Clip space: [\d.]+ of [\d.]+ MB used", inbox(host)["quota"]), inbox(host)

    # Guest clips are off: the guest has no shout-out control.
    g = mic_browser(PHONE)
    open_station(g, server, sid)
    listen(g)
    p = panel(g, "listener")
    assert p and not p["shown"], f"a shout-out control with guest clips off: {p}"
    assert not g.find_elements(By.CSS_SELECTOR, ".clip-panel-dj")

    # The host turns them on in the party settings; the control appears live.
    host.execute_script(f"location.hash = '#/station/{sid}/settings'")
    wait_for(host, lambda d: d.find_elements(By.CSS_SELECTOR, ".party-form #party-guest-clips"))
    wait_for(host, lambda d: not find(d, "#party-guest-clips").is_selected() and find(d, "#party-guest-clips").is_enabled(),
             "the form never showed guest clips off")
    save_party(host, {"party-guest-clips": True})
    assert server.get(f"/api/stations/{sid}/party", token=owner.token)["settings"]["guestClips"] is True
    host.execute_script(f"location.hash = '#/station/{sid}'")
    wait_for(g, lambda d: panel(d, "listener")["shown"], "the shout-out control never appeared")

    # The guest joins with a name from the panel, records, sends.
    click(g, ".clip-panel-listener .btn-clip-open")
    wait_for(g, lambda d: panel(d, "listener")["joinShown"], f"no way to give a name: {panel(g, 'listener')}")
    find(g, ".clip-panel-listener .clip-join-name").send_keys(HOSTILE_NAME, Keys.ENTER)
    wait_for(g, lambda d: d.execute_script("return window.__wavelength.session.person?.kind") == "guest")
    wait_for(g, lambda d: not panel(d, "listener")["joinShown"] and panel(d, "listener")["record"]["shown"])
    record(g, "listener", seconds=2)
    find(g, ".clip-panel-listener .clip-note").send_keys(HOSTILE_NOTE)
    assert panel(g, "listener")["send"] == "Send"
    at_every_width(g, shot, "listener-shout-out", [".clip-panel-listener .clip-heading", ".clip-panel-listener .clip-send",
                                                   ".clip-panel-listener .clip-note", ".clip-panel-listener .clip-wave"],
                   reveal=".clip-panel-listener .clip-box")
    click(g, ".clip-panel-listener .clip-send")
    wait_for(g, lambda d: panel(d, "listener")["state"] == "sent" or panel(d, "listener")["error"], f"never sent: {panel(g, 'listener')}")
    p = panel(g, "listener")
    assert p["state"] == "sent" and p["status"] == "Sent — waiting for the host.", p
    clip_id = p["clipID"]
    listed = {c["id"]: c for c in server.get(f"/api/stations/{sid}/clips", token=owner.token)["clips"]}
    assert listed[clip_id]["status"] == "pending" and listed[clip_id]["note"] == HOSTILE_NOTE, listed
    assert listed[clip_id]["person"]["name"] == HOSTILE_NAME, listed

    # The host's inbox has it at once, as text.
    wait_for(host, lambda d: [r["id"] for r in inbox(d)["pending"]] == [clip_id], f"the shout-out never arrived: {inbox(host)}")
    box = inbox(host)
    row = box["pending"][0]
    assert (row["name"], row["note"]) == (HOSTILE_NAME, HOSTILE_NOTE), row
    assert re.fullmatch(r"\d+ seconds?", row["length"]) and box["count"] == "1" and not box["made"], box

    # Its preview: the host's page fetches and plays it; a stranger can't.
    audio = f"/api/clips/{clip_id}/audio"
    fetched = fetch_in_page(host, audio)
    assert fetched["status"] == 200 and fetched["type"].startswith("audio/mpeg") and fetched["size"] > 0, fetched
    assert fetch_in_page(g, audio)["status"] == 200, "the author can't hear their own shout-out"
    assert status_of(server.base + audio) == 404, "a stranger got a waiting shout-out's audio"
    click(host, f".clip-pending .clip-row[data-clip-id='{clip_id}'] .clip-row-preview")
    wait_for(host, lambda d: inbox(d)["previewing"] == clip_id and audio in d.execute_script(FETCHED_JS),
             "the preview never played")

    # Another guest's shout-out arrives live; Delete takes it away.
    other = guest(server, "Second Guest")
    wav = tmp_path / "other.wav"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=500:duration=2",
                    "-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", str(wav)], check=True)
    status, second = post_clip(server, sid, other.token, wav.read_bytes(), "delete me")
    assert status == 202 and second["status"] == "pending", (status, second)
    wait_for(host, lambda d: [r["id"] for r in inbox(d)["pending"]] == [clip_id, second["id"]], f"the second never arrived: {inbox(host)}")
    open_inbox_layout = [".clip-inbox", ".clip-inbox .clip-row-approve", ".clip-inbox .clip-row-delete",
                         ".clip-inbox .clip-row-preview", ".clip-panel-dj .clip-record", ".clip-panel-dj .clip-note"]
    click(host, ".clip-panel-dj .btn-clip-open")
    wait_for(host, lambda d: panel(d, "dj")["open"])
    at_every_width(host, shot, "booth-clip-inbox", open_inbox_layout, restore=DESKTOP, reveal=".clip-inbox")
    click(host, f".clip-row[data-clip-id='{second['id']}'] .clip-row-delete")
    wait_for(host, lambda d: [r["id"] for r in inbox(d)["pending"]] == [clip_id], f"Delete never removed it: {inbox(host)}")
    assert second["id"] not in [c["id"] for c in server.get(f"/api/stations/{sid}/clips", token=owner.token)["clips"]]

    # Approve: it is next in Up Next, for everyone.
    long_song_now(server, sid, owner.token)
    click(host, f".clip-row[data-clip-id='{clip_id}'] .clip-row-approve")
    wait_for(host, lambda d: [r["id"] for r in inbox(d)["approved"]] == [clip_id] and not inbox(d)["pending"],
             f"Approve never moved it: {inbox(host)}")
    assert inbox(host)["status"] == f"Approved: {HOSTILE_NAME}'s clip plays next.", inbox(host)
    entry = wait_server(lambda e: e is not None, lambda: voice_entry(server, sid, clip_id), "the approved clip isn't on the timeline")
    for page in (host, g):
        wait_for(page, lambda page: any(r["track"] == f"clip:{clip_id}" for r in upnext(page)), "the approved clip never showed in Up Next")
        row = next(r for r in upnext(page) if r["track"] == f"clip:{clip_id}")
        assert row["title"] == f"Voice clip · {HOSTILE_NAME}" and row["sub"] == HOSTILE_NOTE and not row["made"], row
    wait_for(g, lambda d: panel(d, "listener")["status"] == "The host approved your shout-out: it plays between songs.",
             f"the guest's panel never said it was approved: {panel(g, 'listener')}")

    # Deleting it while it is still on the timeline: the server's 409 message, and it stays.
    host.execute_script("document.querySelector('.clip-approved-box').open = true")
    click(host, f".clip-approved .clip-row[data-clip-id='{clip_id}'] .clip-row-delete")
    wait_for(host, lambda d: inbox(d)["status"].startswith("That clip is on the timeline"), f"no refusal shown: {inbox(host)}")
    assert [r["id"] for r in inbox(host)["approved"]] == [clip_id]

    # Skipped to: the guest's now playing, the note as text.
    skip_to(server, sid, owner.token, entry["id"])
    wait_for(g, lambda d: (now_playing(d) or {}).get("entry") == entry["id"], f"the guest never moved to the clip: {now_playing(g)}")
    now = now_playing(g)
    assert now["title"] == f"Voice clip · {HOSTILE_NAME}" and now["artist"] == HOSTILE_NOTE and not now["made"], now
    wait_for(host, lambda d: (now_playing(d) or {}).get("entry") == entry["id"])
    for page in (host, g):
        assert page.execute_script("return window.__pwned") is None and no_alert(page)
    g.execute_script("document.querySelector('.now-meta').scrollIntoView({block: 'center'})")
    shot(g, "guest-hears-their-shout-out")

    # Off again: the control goes, live.
    auth_request(server, "PATCH", f"/api/stations/{sid}/party", {"guestClips": False}, token=owner.token)
    wait_for(g, lambda d: not panel(d, "listener")["shown"], "the shout-out control stayed after guest clips were turned off")


NEARBY_ANSWER = {
    "browsing": True,
    "stations": [
        {"stationID": "s-open", "name": '<img src=x onerror="window.__pwned=1">Basement FM', "frequency": "101.1", "mode": "dj",
         "needsCode": False, "serverURL": "http://192.0.2.2:8080", "stationURL": "http://192.0.2.2:8080/#/station/s-open"},
        {"stationID": "s-code", "name": "Attic <b>Sessions</b>", "frequency": None, "mode": "requests",
         "needsCode": True, "serverURL": "http://192.0.2.3:8080", "stationURL": "http://192.0.2.3:8080/#/station/s-code"},
        {"stationID": "s-evil", "name": "Click me", "frequency": "99.9", "mode": "dj",
         "needsCode": False, "serverURL": "javascript:window.__pwned=2", "stationURL": "javascript:window.__pwned=2"},
    ],
}

# The page's fetch of /api/nearby answered by window.__nearbyAnswer (set
# before the app loads; asked counts the requests).
FAKE_NEARBY = """
window.__nearbyAnswer = %s;
window.__nearbyAsked = 0;
const realFetch = window.fetch;
window.fetch = function (input, init) {
  const url = new URL(typeof input === 'string' ? input : input.url, location.href);
  if (url.pathname === '/api/nearby') {
    window.__nearbyAsked += 1;
    return Promise.resolve(new Response(JSON.stringify(window.__nearbyAnswer), {status: 200, headers: {'Content-Type': 'application/json'}}));
  }
  return realFetch.apply(this, arguments);
};
"""

NEARBY_JS = """
const s = document.querySelector('.section-nearby');
if (!s) return null;
return {shown: !s.hidden && s.getClientRects().length > 0, heading: s.querySelector('h2').textContent,
  cards: [...s.querySelectorAll('a.nearby-card')].map(a => ({href: a.getAttribute('href'), name: a.querySelector('.nearby-name').textContent,
    host: a.querySelector('.nearby-host').textContent, lock: Boolean(a.querySelector('.icon-lock')), label: a.getAttribute('aria-label'), rel: a.rel})),
  made: [...s.querySelectorAll('img, b, script')].length, asked: window.__nearbyAsked};
"""


def test_the_dial_lists_stations_on_this_network(demo_server, browser, shot):
    server = demo_server
    real = server.get("/api/nearby")
    assert isinstance(real.get("browsing"), bool) and isinstance(real.get("stations"), list), real

    d = browser(PHONE)
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_NEARBY % json.dumps(NEARBY_ANSWER)})
    d.get(f"{server.base}/#/")
    wait_for(d, lambda d: (d.execute_script(NEARBY_JS) or {}).get("shown"), "On this network never showed")
    section = d.execute_script(NEARBY_JS)
    assert section["heading"] == "On this network" and not section["made"], section
    assert [(c["href"], c["name"], c["lock"]) for c in section["cards"]] == [
        ("http://192.0.2.2:8080/#/station/s-open", '<img src=x onerror="window.__pwned=1">Basement FM', False),
        ("http://192.0.2.3:8080/#/station/s-code", "Attic <b>Sessions</b>", True),
    ], section
    assert section["cards"][1]["host"] == "192.0.2.3:8080" and "needs an access code" in section["cards"][1]["label"], section
    assert "external" in section["cards"][0]["rel"], section
    at_every_width(d, shot, "dial-on-this-network", [".section-nearby h2", ".nearby-card"], reveal=".section-nearby")
    assert d.execute_script("return window.__pwned") is None and no_alert(d)

    # Nothing announced any more: asked again when the window comes back into focus, the section goes.
    asked = section["asked"]
    d.execute_script("window.__nearbyAnswer = {browsing: true, stations: []}; window.dispatchEvent(new Event('focus'));")
    wait_for(d, lambda d: not d.execute_script(NEARBY_JS)["shown"], "the section stayed with nothing on the network")
    assert d.execute_script(NEARBY_JS)["asked"] > asked
