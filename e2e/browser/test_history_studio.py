"""What a station played and who heard it, in the browser:

- the history screen (#/station/ID/history): the plays newest first with
  titles that are HTML shown as text, "Older plays" paging back, the search
  narrowing the list to what the server finds, "what was playing then?"
  answering for an instant inside a play (and "Nothing was playing then"
  before the station existed), a day's CSV and M3U links that download,
  and no sideways scroll at five widths;
- the same history opened from the station screen's "Full history" link
  over the playing station: the music keeps playing and its now playing
  follows the station;
- the booth's studio board: the live count goes up when a second listener
  tunes in and down when they leave, the chart of the last hour is an SVG
  with an accessible name, the song's countdown and what's next; a
  listener who isn't a DJ sees no board (and the server refuses them the
  figures); no sideways scroll at five widths;
- "Listen in any player" on a public station, whose .m3u answers with the
  stream's address, and not on a code-protected or invite-only one.

Every wait is on a condition (WebDriverWait through helpers.wait_for).
"""

from __future__ import annotations

import math
import urllib.error
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import LiveListener, auth_request, make_browser_user, raw_request
from conftest import ALERT_TITLE, DESKTOP, PHONE, XSS_TITLE, set_viewport
from helpers import PATIENCE, assert_fits, audio, find, has_focus_ring, is_playing, no_alert, press, tab_to, wait_for, wait_playing

WIDTHS = [360, 390, 768, 1024, 1440]
PAGE = 20


# ---------------------------------------------------------------- helpers


def fetch(url: str) -> tuple[int, str, str]:
    """(status, Content-Type, body) of a GET, without a session."""
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode(errors="replace")


def history_ready(d) -> bool:
    return bool(d.find_elements(By.CSS_SELECTOR, ".history-screen[data-state='ready'] .log-plays[data-state='ready']"))


def rows(d) -> list[dict]:
    return d.execute_script(
        "return [...document.querySelectorAll('.log-list .log-row')].map(r => "
        "({id: r.dataset.entryId, title: r.querySelector('.log-title').textContent}));"
    )


def row_ids(d) -> list[str]:
    return [r["id"] for r in rows(d)]


def local_value(d, ms: int) -> str:
    """The instant `ms` as the browser's datetime-local holds it, to the second, in the browser's zone."""
    return d.execute_script(
        "const t = new Date(arguments[0]); const p = (n) => String(n).padStart(2, '0');"
        "return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())}T${p(t.getHours())}:${p(t.getMinutes())}:${p(t.getSeconds())}`;",
        ms,
    )


def ask_what_played(d, value: str) -> None:
    """Types a time into "What was on at…" (set as a picker would) and asks."""
    d.execute_script(
        "const input = document.querySelector('#history-at'); input.value = arguments[0];"
        "input.dispatchEvent(new Event('input', {bubbles: true})); input.dispatchEvent(new Event('change', {bubbles: true}));",
        value,
    )
    find(d, ".log-at-go").click()


def until(d, condition, message: str = ""):
    """wait_for on a condition that reads the server, not the page."""
    return wait_for(d, lambda _: condition(), message)


def make_plays(server, d, station_id: str, token: str, count: int, long_ones: int) -> None:
    """Skips through `count` entries; the first `long_ones` of them play at
    least 1.2 s first (so each holds a whole second to ask about)."""
    for index in range(count):
        def current_entry():
            timeline = server.timeline(station_id)
            current = timeline.get("current")
            if not current:
                return None
            if index < long_ones and timeline["serverTime"] - current["start"] < 1200:
                return None
            return current

        current = until(d, current_entry, "the station never had an entry to skip")
        server.skip(station_id, token, current["id"])


def all_plays(server, station_id: str, q: str | None = None) -> list[dict]:
    query = f"&q={urllib.parse.quote(q)}" if q else ""
    return server.get(f"/api/stations/{station_id}/history?limit=200{query}")


def inside_second(play: dict) -> int | None:
    """A whole second inside the play (start included, expiration not), or None."""
    second = math.ceil(play["start"] / 1000) * 1000
    return second if second < play["expiration"] else None


# -------------------------------------------------------------- history


def test_history_lists_searches_answers_and_downloads(tone_server, browser, shot):
    owner = tone_server.signup(display_name="Logbook Radio")
    sid = owner.station_id
    by_title = {t["title"]: t for t in tone_server.tracks()}
    d = browser(PHONE)
    with LiveListener(tone_server, sid):
        until(d, lambda: tone_server.timeline(sid).get("current"), "the station never went on the air")
        # The two songs whose tags are HTML play first, then enough for a
        # second page; the first three play long enough to ask about.
        for title in (ALERT_TITLE, XSS_TITLE):
            tone_server.command(sid, owner.token, {"op": "queueNext", "trackID": by_title[title]["id"]})
        make_plays(tone_server, d, sid, owner.token, PAGE + 3, long_ones=3)
        # Held, so no play ends while the page is read against the server.
        tone_server.command(sid, owner.token, {"op": "pause"})
        until(d, lambda: tone_server.timeline(sid).get("pausedAt") is not None)
    plays = all_plays(tone_server, sid)
    assert len(plays) > PAGE, f"only {len(plays)} plays were kept"
    titles = [p["track"]["title"] for p in plays]
    assert ALERT_TITLE in titles and XSS_TITLE in titles, titles

    # A listener who isn't signed in opens the history.
    d.get(f"{tone_server.base}/#/station/{sid}/history")
    wait_for(d, history_ready, "the history never loaded")
    assert row_ids(d) == [p["id"] for p in plays[:PAGE]], "not the server's newest plays, newest first"
    shown_titles = [r["title"] for r in rows(d)]
    assert ALERT_TITLE in shown_titles and XSS_TITLE in shown_titles, shown_titles
    assert d.execute_script("return window.__xss === undefined") and no_alert(d), "a tag ran as markup"
    assert not d.find_elements(By.CSS_SELECTOR, ".log-list img[src='x']"), "a title became an <img>"
    shot(d, "history")

    # Older plays page back with `before`, until there are no more.
    older = find(d, ".log-older")
    assert older.is_displayed()
    older.click()
    wait_for(d, lambda d: len(rows(d)) == len(plays), "Older plays never brought the rest")
    assert row_ids(d) == [p["id"] for p in plays]
    wait_for(d, lambda d: not find(d, ".log-older").is_displayed(), "Older plays stayed with nothing older")

    # The search narrows the list to what the server finds.
    expected = [p["id"] for p in all_plays(tone_server, sid, "Bold")]
    assert 0 < len(expected) < len(plays), expected
    find(d, "#history-q").send_keys("Bold")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".log-plays[data-q='Bold'][data-state='ready']"))
    assert row_ids(d) == expected[:PAGE]
    assert "match" in find(d, ".log-status").text
    shot(d, "history-search")
    find(d, "#history-q").send_keys(Keys.CONTROL, "a", Keys.BACKSPACE)
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".log-plays[data-q=''][data-state='ready']"))
    assert row_ids(d) == [p["id"] for p in plays[:PAGE]]

    # "What was playing then?" for a whole second inside one of the plays.
    target = next(p for p in plays if inside_second(p) is not None)
    ask_what_played(d, local_value(d, inside_second(target)))
    answer = f".log-answer[data-state='found'] .log-answer-card[data-entry-id='{target['id']}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, answer), f"no answer naming {target['track']['title']!r}")
    assert find(d, ".log-answer-title").text == target["track"]["title"]
    shot(d, "history-answer")
    # Before the station existed: nothing.
    ask_what_played(d, "2020-01-01T00:00:00")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".log-answer[data-state='none']"))
    assert "Nothing was playing then" in find(d, ".log-answer").text

    # Today's playlist downloads as CSV and M3U.
    status, kind, body = fetch(find(d, ".log-csv").get_attribute("href"))
    assert status == 200 and kind.startswith("text/csv"), (status, kind, body[:200])
    assert body.startswith("start,end,artist,title,album,source,listeners"), body[:200]
    # A title with quotes is one quoted CSV field, its quotes doubled.
    assert '"""><img src=x onerror=""window.__xss=1"">"' in body, body[:600]
    status, kind, body = fetch(find(d, ".log-m3u").get_attribute("href"))
    assert status == 200 and body.startswith("#EXTM3U"), (status, kind, body[:200])
    assert find(d, ".log-csv").get_attribute("download") is not None

    # No sideways scroll at any width, with an answer and the list shown.
    for width in WIDTHS:
        set_viewport(d, (width, 860))
        d.refresh()
        wait_for(d, history_ready)
        ask_what_played(d, local_value(d, inside_second(target)))
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, answer))
        assert_fits(d, f"history at {width}px", [
            ".btn-back-station", "#history-at", ".log-at-go", ".log-answer-card", "#history-q", ".log-row",
            ".log-older", "#history-day", ".log-csv", ".log-m3u",
        ])
        shot(d, f"history-{width}")


NOW_CARD_JS = """
const screen = document.querySelector('.history-screen');
const card = document.querySelector('.log-now');
return {ready: Boolean(screen && screen.dataset.state === 'ready' &&
                       document.querySelector('.log-plays[data-state="ready"]')),
        entryID: card ? card.dataset.entryId || null : null,
        title: card ? card.querySelector('.log-now-title').textContent : null};
"""


def test_the_history_names_the_song_on_the_air_as_soon_as_it_is_ready(tone_server, browser):
    """Opened on its own, the history screen is ready only once its "Now
    playing" card names the song on the air, so "What was playing then?"
    doesn't move afterwards. (It said "Nothing on the air right now" until
    the timeline came, then shrank by 26 px at 1024 px, and a test's tap on
    the button most likely missed it as it moved.)"""
    owner = tone_server.signup(display_name="First Moment")
    sid = owner.station_id
    d = browser(DESKTOP)
    with LiveListener(tone_server, sid):
        until(d, lambda: tone_server.timeline(sid).get("current"), "the station never went on the air")
        # Held, so the same song is on the air throughout.
        tone_server.command(sid, owner.token, {"op": "pause"})
        timeline = until(d, lambda: (lambda t: t.get("pausedAt") is not None and t)(tone_server.timeline(sid)))
    on_air = timeline["current"]
    for width in (1024, 390):
        set_viewport(d, (width, 860))
        d.get("about:blank")
        d.get(f"{tone_server.base}/#/station/{sid}/history")
        first = wait_for(d, lambda d: (lambda s: s["ready"] and s)(d.execute_script(NOW_CARD_JS)), "the history never loaded")
        assert first["entryID"] == on_air["id"] and first["title"] == on_air["track"]["title"], (width, first, on_air["track"]["title"])


def test_history_opens_over_the_playing_station(tone_server, browser, shot):
    owner = tone_server.signup(display_name="Over The Music")
    sid = owner.station_id
    d = browser(PHONE)
    d.get(f"{tone_server.base}/#/station/{sid}")
    wait_playing(d)
    # By keyboard: TAB to "Full history" (under Just played), ENTER.
    focused = tab_to(d, lambda a: a.get("cls") == "history-all")
    assert focused["label"].startswith("Full history") and has_focus_ring(focused), focused
    press(d, Keys.ENTER)
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.mode-history .history-screen[data-state='ready']"),
             "the history never opened over the station")
    assert d.title.startswith("What played on Over The Music"), d.title
    assert not find(d, ".station-grid").is_displayed()
    # The music plays on, and the history's now playing is what plays.
    wait_for(d, lambda d: is_playing(d), "the music stopped when the history opened")
    wait_for(d, lambda d: find(d, ".log-now").get_attribute("data-entry-id") == audio(d)["entryId"],
             "the history's now playing isn't the song playing")
    assert find(d, ".log-now-left").text.endswith("left")
    assert d.switch_to.active_element.tag_name == "h1"
    shot(d, "history-over-station")
    find(d, ".history-screen .btn-back-station").click()
    wait_for(d, lambda d: find(d, ".station-grid").is_displayed() and not d.find_elements(By.CSS_SELECTOR, ".history-screen"))
    # Waited for, not read once: between two songs (the first tone is 12 s)
    # the next one's audio is still loading (readyState under 3, currentTime
    # 0), and a fresh-clone run's single read was false once, with no record
    # of what the player held. Music that stopped still fails here, and says
    # what the player held.
    wait_for(d, lambda d: is_playing(d), "the music stopped when the history closed", explain=lambda: audio(d))


# --------------------------------------------------------------- studio


def studio_count(d) -> int | None:
    text = d.execute_script("return document.querySelector('.studio:not([hidden]) .studio-num')?.textContent")
    return int(text) if text and text.isdigit() else None


def test_the_studio_counts_listeners_live_and_draws_the_hour(demo_server, browser, shot):
    dj = browser(DESKTOP)
    owner = make_browser_user(dj, demo_server, display_name="Studio Count")
    sid = owner.station_id
    dj.get(f"{demo_server.base}/#/station/{sid}")
    wait_for(dj, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner[data-state='ready'] .studio[data-state='ready']"),
             "the studio board never showed its figures")
    wait_playing(dj)
    wait_for(dj, lambda d: (studio_count(d) or 0) >= 1, "the DJ's own listening isn't counted")
    before = studio_count(dj)

    # The chart: an SVG with an accessible name, and today's figures in words.
    chart = find(dj, ".studio svg.studio-svg")
    assert chart.get_attribute("role") == "img"
    assert chart.get_attribute("aria-label").startswith("Listeners over the last 60 minutes"), chart.get_attribute("aria-label")
    assert dj.execute_script("return document.querySelector('.studio-svg title').textContent") == chart.get_attribute("aria-label")
    assert find(dj, ".studio-line").get_attribute("d").startswith("M0 ")
    assert find(dj, ".studio-summary").text.startswith("Peak today ")

    # A second listener (a browser, not signed in) tunes in: the count goes up.
    listener = browser(PHONE)
    listener.get(f"{demo_server.base}/#/station/{sid}")
    wait_playing(listener)
    wait_for(dj, lambda d: studio_count(d) == before + 1, f"the count stayed at {studio_count(dj)}")
    assert find(dj, ".studio-lamp").text.lower() == "on air"
    # Not a DJ: no board, and the server keeps the figures from them.
    assert not listener.find_elements(By.CSS_SELECTOR, ".studio:not([hidden])")
    assert raw_request(demo_server, "GET", f"/api/stations/{sid}/audience")[0] in (401, 403)

    # The countdown moves, and "next" is the server's next entry.
    first = find(dj, ".studio-left-num").text
    assert first.count(":") >= 1, first
    wait_for(dj, lambda d: find(d, ".studio-left-num").text != first, "the countdown stood still")

    def next_matches(d):
        upcoming = demo_server.timeline(sid)["upNext"]
        return bool(upcoming) and find(d, ".studio-next").text.startswith(upcoming[0]["track"]["title"])

    wait_for(dj, next_matches, "'Next' isn't the next entry")
    shot(dj, "studio")

    # A Python listener too, then both leave: the count follows.
    with LiveListener(demo_server, sid):
        wait_for(dj, lambda d: studio_count(d) == before + 2)
    listener.get(f"{demo_server.base}/#/")
    wait_for(dj, lambda d: studio_count(d) == before, f"the count stayed at {studio_count(dj)} after they left")

    for width in WIDTHS:
        set_viewport(dj, (width, 860))
        dj.refresh()
        wait_for(dj, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner[data-state='ready'] .studio[data-state='ready']"))
        assert_fits(dj, f"studio at {width}px", [".studio-num", ".studio-svg", ".studio-summary", ".studio-left-num", ".btn-skip"])
        shot(dj, f"studio-{width}")


# ---------------------------------------------------- listen in any player


def test_listen_in_any_player_only_where_there_is_a_stream(demo_server, browser, shot):
    d = browser((360, 800))
    owner = make_browser_user(d, demo_server, display_name="Any Player")
    sid = owner.station_id

    def open_station():
        d.get(f"{demo_server.base}/#/station/{sid}")
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen[data-state='ready']"))

    open_station()
    disclosure = find(d, ".any-player")
    assert disclosure.is_displayed()
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", disclosure)
    find(d, ".any-player-summary").click()
    m3u = find(d, ".any-player-m3u")
    wait_for(d, lambda d: m3u.is_displayed())
    status, kind, body = fetch(m3u.get_attribute("href"))
    assert status == 200 and "mpegurl" in kind, (status, kind, body[:200])
    assert "/stream/" in body, body
    assert find(d, ".any-player-url").get_attribute("value").endswith(".mp3")
    assert find(d, ".any-player-pls").get_attribute("href").endswith(".pls")
    assert_fits(d, "any player open at 360px", [".any-player-m3u", ".any-player-url", ".btn-play"])
    shot(d, "any-player")

    for visibility in ("code", "invite"):
        auth_request(demo_server, "PATCH", f"/api/stations/{sid}", {"visibility": visibility}, owner.token)
        open_station()
        assert d.execute_script("return document.querySelector('.station-screen').dataset.visibility") == visibility
        assert not find(d, ".any-player").is_displayed(), f"offered on a {visibility} station"
        assert not d.find_elements(By.CSS_SELECTOR, ".any-player-m3u"), f"a stream link on a {visibility} station"
