"""What users tripped over at parties and lobbies, each in a real browser
(every test failed on the app from before its fix):

1. the party's TV screen shows vote tallies only when the host shows counts
   to everyone (settings.showVoteCounts), though the host's connection has them;
2. changing the room type (a preset) keeps a mode picked but not saved yet;
3. a guest with no name sees one name form, not the chat's and the party's;
4. the party screen of a DJ-mode station doesn't invite requests;
5. "Live" is a live show's word: a station playing says "On air", held "On hold";
6. a song without lyrics costs no 404 (the page asks whether it has any
   first), and a wrong station link opens no WebSocket;
7. long station names and short titles wrap at 390 px instead of being cut;
8. the host moves a request up and down by keyboard and by tap;
9. a guest requests (at a party) or suggests (in a lobby) from the library's
   artist and album lists;
10. a guest opens their liked songs from the header;
11. the party settings: "requests only from the host's playlist" and the
    playlist itself (add from search, remove), "base playlist" in a lobby.

Every wait is for a condition on the page or the server, never a sleep.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from accounts_api import LiveListener, auth_request, guest, log_in_browser
from conftest import DESKTOP, PHONE, at_every_width, set_viewport
from helpers import active, assert_fits, find, text_of, wait_for
from test_party import free_tracks, request_ids
from test_private import click, settings_ready, station_screen, type_into


def party(server, sid: str, token: str) -> dict:
    return auth_request(server, "GET", f"/api/stations/{sid}/party", token=token)


def patch_party(server, sid: str, token: str, body: dict) -> dict:
    return auth_request(server, "PATCH", f"/api/stations/{sid}/party", body, token)


# Listeners that keep the tests' stations on the air, closed after each test.
_listeners: list[LiveListener] = []


@pytest.fixture(autouse=True)
def _close_listeners():
    yield
    while _listeners:
        _listeners.pop().close()


def held_party(server, host, mode: str = "requests") -> str:
    """The host's station in `mode`, woken (a listener of the test's own)
    and held still, so the song playing stays the one playing."""
    sid = host.station_id
    patch_party(server, sid, host.token, {"mode": mode})
    _listeners.append(LiveListener(server, sid))
    wait_for(None, lambda _: server.timeline(sid).get("current"), "the station never woke")
    server.command(sid, host.token, {"op": "pause"})
    return sid


def shown(d, selector: str) -> bool:
    return any(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, selector))


# ------------------------------------------------------------------ 1 and 4


def test_the_tv_shows_vote_counts_only_when_the_host_shows_them(demo_server, browser, shot):
    host = demo_server.signup(display_name="Telly Host")
    sid = held_party(demo_server, host)
    ann = guest(demo_server, "Ann")
    for track in free_tracks(demo_server, sid, 3, host.token):
        demo_server.command(sid, ann.token, {"op": "request", "trackID": track["id"]})
    waiting = party(demo_server, sid, host.token)["requests"]
    assert waiting and waiting[-1].get("upvotes") is not None, waiting
    bo = guest(demo_server, "Bo")
    demo_server.command(sid, bo.token, {"op": "vote", "requestID": waiting[-1]["id"], "vote": "up"})

    tv = browser(DESKTOP)
    log_in_browser(tv, demo_server, host, f"/station/{sid}/screen")
    wait_for(tv, lambda d: shown(d, ".room") and len(d.find_elements(By.CSS_SELECTOR, ".room-request")) == len(waiting),
             "the TV never showed the room's requests")
    # Counts are off (the default): the room sees none, though the host's connection has them.
    assert not tv.find_elements(By.CSS_SELECTOR, ".room-votes"), text_of(tv, ".room-requests")
    shot(tv, "tv-no-counts")
    # The host shows them to everyone: the TV shows them, live.
    patch_party(demo_server, sid, host.token, {"showVoteCounts": True})
    wait_for(tv, lambda d: "+1" in [e.text for e in d.find_elements(By.CSS_SELECTOR, ".room-votes")],
             "the TV never showed the counts once the host showed them")
    patch_party(demo_server, sid, host.token, {"showVoteCounts": False})
    wait_for(tv, lambda d: not d.find_elements(By.CSS_SELECTOR, ".room-votes"), "the counts stayed after the host hid them")


def test_a_dj_mode_party_screen_invites_listening_not_requests(demo_server, browser, shot):
    host = demo_server.signup(display_name="Booth Only")
    sid = host.station_id
    assert party(demo_server, sid, host.token)["mode"] == "dj"
    tv = browser(DESKTOP)
    log_in_browser(tv, demo_server, host, f"/station/{sid}/screen")
    wait_for(tv, lambda d: shown(d, ".room") and d.find_elements(By.CSS_SELECTOR, ".room-qr-img"), "no party screen")
    words = tv.execute_script("return document.querySelector('.room-side').innerText")
    assert "ask for a song" not in words.lower() and "request" not in words.lower(), words
    assert "listen" in words.lower(), words
    shot(tv, "dj-mode-screen")
    # Requests mode: the screen asks for songs again.
    patch_party(demo_server, sid, host.token, {"mode": "requests"})
    wait_for(tv, lambda d: "request a song" in text_of(d, ".room-join-line"), "requests mode never said so")


# ------------------------------------------------------------------ 2


def test_a_room_type_keeps_the_mode_picked_but_not_saved(demo_server, browser, shot):
    host = demo_server.signup(display_name="Preset Host")
    sid = host.station_id
    d = browser(PHONE)
    log_in_browser(d, demo_server, host, f"/station/{sid}/settings")
    wait_for(d, settings_ready)
    click(d, "label[for='mode-requests']")
    click(d, "label[for='party-show-counts']")
    assert find(d, "#party-show-counts").is_selected()
    # The room type is a preset, saved at once.
    d.execute_script("const k = document.getElementById('party-kind'); k.value = 'gym'; k.dispatchEvent(new Event('change'));")
    wait_for(d, lambda d: "Gym defaults" in text_of(d, "#party-status"), "the room type never applied")
    assert party(demo_server, sid, host.token)["settings"]["kind"] == "gym"
    # The preset set its own (chat off at the gym), and left the host's choices alone.
    assert not find(d, "#party-chat").is_selected()
    assert find(d, "#mode-requests").is_selected(), "the unsaved mode choice was thrown away"
    assert find(d, "#party-show-counts").is_selected(), "the unsaved vote-count choice was thrown away"
    assert "press Save" in text_of(d, "#party-status")
    click(d, ".party-form .btn-primary")
    wait_for(d, lambda d: "Listeners can request" in text_of(d, "#party-status"))
    saved = party(demo_server, sid, host.token)
    assert saved["mode"] == "requests" and saved["settings"]["showVoteCounts"] is True and saved["settings"]["kind"] == "gym", saved


# ------------------------------------------------------------------ 3


def test_a_guest_without_a_name_sees_one_name_form(demo_server, browser, shot):
    host = demo_server.signup(display_name="One Form Host")
    sid = held_party(demo_server, host)
    g = browser(PHONE)
    g.get(f"{demo_server.base}/#/station/{sid}")
    wait_for(g, lambda d: shown(d, ".party-join") and shown(d, ".chat-notice"), "no party join or chat notice")
    names = g.execute_script(
        "return [...document.querySelectorAll('input[autocomplete=nickname]')].filter(i => i.offsetParent !== null).map(i => i.id)")
    assert names == ["party-name"], f"name forms shown: {names}"
    # The chat points to it.
    click(g, ".chat-join-there")
    wait_for(g, lambda d: d.execute_script("return document.activeElement.id") == "party-name",
             "the chat's button didn't lead to the party's name field")
    type_into(g, "#party-name", "Solo")
    find(g, "#party-name").send_keys(Keys.ENTER)
    wait_for(g, lambda d: shown(d, "#chat-input"), "the name given for the party didn't open the chat")
    shot(g, "one-name-form")


# ------------------------------------------------------------------ 5


def test_a_playing_station_is_on_air_not_live(demo_server, browser, shot):
    owner = demo_server.signup(display_name="Robot Hour")
    sid = owner.station_id
    d = browser(PHONE)
    d.get(f"{demo_server.base}/#/station/{sid}")
    wait_for(d, lambda d: (station_screen(d) or {}).get("connection") == "live")
    wait_for(d, lambda d: text_of(d, ".conn") == "On air", f"the pill says {text_of(d, '.conn')!r}")
    demo_server.command(sid, owner.token, {"op": "pause"})
    wait_for(d, lambda d: text_of(d, ".conn") == "On hold", "a held station still said it was on the air")
    demo_server.command(sid, owner.token, {"op": "resume"})
    wait_for(d, lambda d: text_of(d, ".conn") == "On air")
    # No "Live" anywhere while no live show is on.
    words = d.execute_script("return document.querySelector('.station-screen').innerText")
    assert "Live" not in words.split(), words


# ------------------------------------------------------------------ 6


WATCH_SOCKETS = """
window.__sockets = [];
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  window.__sockets.push(String(url));
  return protocols === undefined ? new Native(url) : new Native(url, protocols);
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
"""


def test_a_wrong_station_link_opens_no_websocket(demo_server, browser, shot):
    d = browser(PHONE)
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_SOCKETS})
    for wrong in ("doesnotexist", "98.7"):
        d.get(f"{demo_server.base}/#/station/{wrong}")
        wait_for(d, lambda d: (station_screen(d) or {}).get("state") == "error", f"#/station/{wrong} never said so")
        assert d.execute_script("return window.__sockets") == [], f"{wrong}: {d.execute_script('return window.__sockets')}"
    # A real station still opens its socket.
    owner = demo_server.signup(display_name="Real Station")
    d.get(f"{demo_server.base}/#/station/{owner.station_id}")
    wait_for(d, lambda d: (station_screen(d) or {}).get("connection") == "live")
    assert len(d.execute_script("return window.__sockets")) == 1


def test_a_song_without_lyrics_is_never_asked_for_its_words(demo_server, browser, shot):
    owner = demo_server.signup(display_name="Quiet Words")
    sid = owner.station_id
    quiet = next(t for t in demo_server.tracks() if t["title"] == "Minuit à Montréal")
    d = browser(PHONE)
    d.get(f"{demo_server.base}/#/station/{sid}")
    wait_for(d, lambda d: (station_screen(d) or {}).get("connection") == "live")
    demo_server.command(sid, owner.token, {"op": "queueNext", "trackID": quiet["id"]})
    timeline = demo_server.timeline(sid)
    if timeline["current"]["track"]["id"] != quiet["id"]:
        timeline = demo_server.skip(sid, owner.token, timeline["current"]["id"])
    assert timeline["current"]["track"]["id"] == quiet["id"], timeline
    asked = "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes(arguments[0]))"
    wait_for(d, lambda d: any(n.endswith(f"/api/tracks/{quiet['id']}") for n in d.execute_script(asked, quiet["id"])),
             "the page never asked whether the song has lyrics")
    assert not [n for n in d.execute_script(asked, quiet["id"]) if "/lyrics" in n], d.execute_script(asked, quiet["id"])
    assert not shown(d, ".lyrics-panel")


# ------------------------------------------------------------------ 7


NOT_CUT = """
const el = arguments[0];
return {text: el.textContent, cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
        lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))};
"""


def test_long_names_and_titles_wrap_at_390(demo_server, browser, shot):
    owner = demo_server.signup(display_name="Bob Baker")
    auth_request(demo_server, "PATCH", f"/api/stations/{owner.station_id}", {"name": "Bob Baker's station of slow songs"}, owner.token)
    d = browser((390, 844))
    log_in_browser(d, demo_server, owner, "/")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f".station-card[data-station-id='{owner.station_id}'] .card-name"))
    name = d.execute_script(NOT_CUT, find(d, f".station-card[data-station-id='{owner.station_id}'] .card-name"))
    assert not name["cut"], name
    shot(d, "dial-long-name")
    # The booth's header, beside the back button and the settings gear.
    d.get(f"{demo_server.base}/#/station/{owner.station_id}")
    wait_for(d, lambda d: (station_screen(d) or {}).get("role") == "owner" and shown(d, ".btn-settings"))
    wait_for(d, lambda d: text_of(d, ".station-name") == "Bob Baker's station of slow songs")
    header = d.execute_script(NOT_CUT, find(d, ".station-name"))
    assert not header["cut"], header
    # The booth's search: a short title is shown whole.
    d.get(f"{demo_server.base}/#/station/{owner.station_id}/add")
    wait_for(d, lambda d: shown(d, ".add-col .input-search"))
    type_into(d, ".add-col .input-search", "Minuit")
    row = ".add-col .track-row .track-title"
    wait_for(d, lambda d: any(e.text.startswith("Minuit") for e in d.find_elements(By.CSS_SELECTOR, row)))
    title = d.execute_script(NOT_CUT, next(e for e in d.find_elements(By.CSS_SELECTOR, row) if e.text.startswith("Minuit")))
    assert not title["cut"], title
    shot(d, "booth-search-title")
    assert_fits(d, "booth search at 390", [".add-col .input-search"])


# ------------------------------------------------------------------ 8


def test_the_host_moves_a_request_up_and_down(demo_server, browser, shot):
    host = demo_server.signup(display_name="Mover Host")
    sid = held_party(demo_server, host)
    ann = guest(demo_server, "Ann")
    bo = guest(demo_server, "Bo")
    tracks = free_tracks(demo_server, sid, 4, host.token)
    for index, track in enumerate(tracks):
        demo_server.command(sid, (ann if index % 2 == 0 else bo).token, {"op": "request", "trackID": track["id"]})
    h = browser(PHONE)
    log_in_browser(h, demo_server, host, f"/station/{sid}")
    wait_for(h, lambda d: (station_screen(d) or {}).get("role") == "owner")
    wait_for(h, lambda d: len(request_ids(d)) >= 3, "the requests never showed")
    before = request_ids(h)
    last = before[-1]
    # By keyboard: focus the last request's "Move up", press ENTER; focus stays on it as it moves.
    button = find(h, f".request-row[data-track-id='{last}'] .btn-move-up")
    h.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", button)
    button.send_keys(Keys.ENTER)
    expected = before[:-2] + [last, before[-2]]
    wait_for(h, lambda d: request_ids(d) == expected, f"the request never moved up: {request_ids(h)}")
    assert [r["track"]["id"] for r in party(demo_server, sid, host.token)["requests"]] == expected
    wait_for(h, lambda d: "btn-move" in active(d).get("cls", ""), f"focus left the move buttons: {active(h)}")
    # By tap: it goes back down.
    click(h, f".request-row[data-track-id='{last}'] .btn-move-down")
    wait_for(h, lambda d: request_ids(d) == before, f"the request never moved down: {request_ids(h)}")
    # The last one can't go further down, the first movable one can't go up.
    assert not find(h, f".request-row[data-track-id='{before[-1]}'] .btn-move-down").is_enabled()
    shot(h, "move-requests")
    at_every_width(h, shot, "party with moves", [".request-row .btn-move-up", ".request-row .btn-veto"], reveal=".request-row")


# ------------------------------------------------------------------ 9


def browse_to_album(d, panel: str, artist: str, album: str) -> None:
    click(d, f"{panel} .party-browse-summary")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f"{panel} .artist-row"), "the library's artists never showed")
    rows = [e for e in d.find_elements(By.CSS_SELECTOR, f"{panel} .artist-row") if artist in e.text]
    assert rows, f"{artist} isn't in the artists"
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", rows[0])
    rows[0].click()
    wait_for(d, lambda d: [e for e in d.find_elements(By.CSS_SELECTOR, f"{panel} .album-tile") if album in e.text])
    tile = next(e for e in d.find_elements(By.CSS_SELECTOR, f"{panel} .album-tile") if album in e.text)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", tile)
    tile.click()


def test_a_guest_requests_and_suggests_from_the_library(demo_server, browser, shot):
    host = demo_server.signup(display_name="Browse Host")
    sid = held_party(demo_server, host)
    tracks = demo_server.tracks()
    busy = {e["track"]["id"] for e in [demo_server.timeline(sid).get("current")] + demo_server.timeline(sid)["upNext"] if e}
    song = next(t for t in tracks if t["id"] not in busy and t["artist"] == t["albumArtist"])
    g = browser(PHONE)
    g.get(f"{demo_server.base}/#/station/{sid}")
    wait_for(g, lambda d: shown(d, ".party-join"))
    type_into(g, "#party-name", "Browser")
    find(g, "#party-name").send_keys(Keys.ENTER)
    wait_for(g, lambda d: shown(d, ".party-panel .party-browse"), "no way to browse the library at the party")
    browse_to_album(g, ".party-panel", song["artist"], song["album"])
    button = f".party-panel .btn-request[data-track-id='{song['id']}']"
    wait_for(g, lambda d: d.find_elements(By.CSS_SELECTOR, button), "the album's songs have no Request")
    click(g, button)
    wait_for(g, lambda d: find(d, button).text == "Asked", "Request never said Asked")
    wait_for(g, lambda d: f"Asked for {song['title']}" in (text_of(d, "#toasts") or ""))
    wait_for(None, lambda _: any(r["track"]["id"] == song["id"] for r in party(demo_server, sid, host.token)["requests"])
             or (demo_server.timeline(sid)["upNext"] and any(e["track"]["id"] == song["id"] for e in demo_server.timeline(sid)["upNext"])))
    shot(g, "party-browse")
    at_every_width(g, shot, "party browse", [button], reveal=button, block="center")

    # In a lobby, the same lists suggest a song for the ballot.
    patch_party(demo_server, sid, host.token, {"mode": "lobby"})
    wait_for(g, lambda d: shown(d, ".lobby-panel .party-browse"), "no way to browse the library in the lobby")
    other = next(t for t in tracks if t["id"] not in busy and t["id"] != song["id"] and t["artist"] == t["albumArtist"])
    browse_to_album(g, ".lobby-panel", other["artist"], other["album"])
    button = f".lobby-panel .btn-suggest[data-track-id='{other['id']}']"
    wait_for(g, lambda d: d.find_elements(By.CSS_SELECTOR, button), "the album's songs have no Suggest")
    click(g, button)
    wait_for(g, lambda d: find(d, button).text == "Suggested", "Suggest never said Suggested")


# ------------------------------------------------------------------ 10


def test_a_guest_opens_their_liked_songs(demo_server, browser, shot):
    owner = demo_server.signup(display_name="Likeable")
    sid = owner.station_id
    g = browser(PHONE)
    g.get(f"{demo_server.base}/#/station/{sid}")
    wait_for(g, lambda d: (station_screen(d) or {}).get("connection") == "live")
    # A guest by the chat's own "join with a name", who saves the song playing with ♥.
    wait_for(g, lambda d: shown(d, "#chat-guest-name"))
    type_into(g, "#chat-guest-name", "Liking Guest")
    find(g, "#chat-guest-name").send_keys(Keys.ENTER)
    wait_for(g, lambda d: d.execute_script("return document.getElementById('account-link')?.dataset.state") == "guest")
    wait_for(g, lambda d: shown(d, ".btn-like"), "no ♥ for the guest")
    click(g, ".btn-like")
    wait_for(g, lambda d: find(d, ".btn-like").get_attribute("aria-pressed") == "true", "♥ never took")
    liked = g.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/me/likes', {credentials: 'same-origin'}).then(r => r.json()).then(l => done(l.map(t => t.id)), e => done(String(e)));")
    assert liked, liked
    track = {"id": liked[0]}
    # The header (hidden over the station screen) on the dial.
    g.execute_script("location.hash = '#/'")
    wait_for(g, lambda d: shown(d, "#account-link"))
    click(g, "#account-link")
    wait_for(g, lambda d: d.find_elements(By.CSS_SELECTOR, f".liked-row[data-track-id='{track['id']}']"),
             "the guest's header link didn't lead to their liked songs")
    assert shown(g, ".btn-guest-signup"), "the guest's page lost 'Create an account'"
    shot(g, "guest-liked")
    at_every_width(g, shot, "guest account", [".liked-row", ".btn-guest-signup"])


# ------------------------------------------------------------------ 11


def test_the_host_limits_requests_to_their_playlist(demo_server, browser, shot):
    host = demo_server.signup(display_name="Playlist Host")
    sid = host.station_id
    patch_party(demo_server, sid, host.token, {"mode": "requests"})
    auth_request(demo_server, "PUT", f"/api/stations/{sid}/pool", {"trackIDs": []}, host.token)
    tracks = demo_server.tracks()
    first, second = tracks[0], next(t for t in tracks if t["title"] != tracks[0]["title"])
    d = browser(PHONE)
    log_in_browser(d, demo_server, host, f"/station/{sid}/settings")
    wait_for(d, settings_ready)
    wait_for(d, lambda d: text_of(d, "#playlist-heading") == "The host's playlist")
    assert "Requests only from the host's playlist" in text_of(d, "label[for='party-pool-only']")
    # Add two songs from search; the list shows them.
    for track in (first, second):
        type_into(d, "#playlist-search", track["title"])
        wait_for(d, lambda d: d.execute_script("return document.querySelector('#playlist-results').dataset.query") == track["title"])
        button = f"#playlist-results .btn-add[data-track-id='{track['id']}']"
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, button))
        click(d, button)
        wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f".playlist-row[data-track-id='{track['id']}']"))
    assert sorted(auth_request(demo_server, "GET", f"/api/stations/{sid}/pool", token=host.token)["trackIDs"]) == sorted([first["id"], second["id"]])
    # Remove one.
    click(d, f".playlist-row[data-track-id='{first['id']}'] .btn-playlist-remove")
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, f".playlist-row[data-track-id='{first['id']}']"))
    assert auth_request(demo_server, "GET", f"/api/stations/{sid}/pool", token=host.token)["trackIDs"] == [second["id"]]
    # The switch, saved with the form.
    click(d, "label[for='party-pool-only']")
    click(d, ".party-form .btn-primary")
    wait_for(d, lambda d: "Listeners can request" in text_of(d, "#party-status"))
    assert party(demo_server, sid, host.token)["settings"]["poolOnly"] is True
    at_every_width(d, shot, "playlist settings", ["#playlist-search", ".playlist-row .btn-playlist-remove"], reveal=".playlist-panel")
    # A lobby calls it the base playlist.
    click(d, "label[for='mode-lobby']")
    wait_for(d, lambda d: text_of(d, "#playlist-heading") == "Base playlist")
    assert "base playlist" in text_of(d, "label[for='party-pool-only']")
