"""The party in three real browsers: the host turns requests on in the
station settings; two guests join the party by name, find songs as they type
and request them; a guest's downvote changes the order the other guest sees;
only the host sees the vote counts; the host's veto is told to everyone.
Names from people are text, never markup. Every wait is for an event on the
page, never a fixed sleep."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from conftest import ALERT_TITLE, DESKTOP, PHONE, at_every_width
from helpers import assert_fits, find, text_of, wait_for
from test_private import call, click, log_in, no_alert, ok, party_station, settings_ready, signup, station_screen, type_into


def request_ids(d) -> list[str]:
    """The track ids of the waiting requests, in the order the page shows."""
    return d.execute_script("return [...document.querySelectorAll('.request-row')].map(r => r.dataset.trackId);")


def free_tracks(server, sid: str, count: int, token: str | None = None) -> list[dict]:
    """Songs that aren't playing and haven't played here (the robot's
    upcoming picks may be asked for)."""
    tracks = ok(call(server, "GET", "/api/library/tracks?limit=200"))
    window = ok(call(server, "GET", f"/api/stations/{sid}/timeline", token=token))
    busy = {e["track"]["id"] for e in [window.get("current")] + window["history"] if e}
    # One title each: a search for it finds that song.
    unique = {}
    for t in tracks:
        if t["id"] not in busy:
            unique.setdefault(t["title"].lower(), t)
    picked = list(unique.values())[:count]
    assert len(picked) == count, f"the demo library has too few free songs: {tracks}"
    return picked


def join_party(d, server, sid: str, name: str) -> None:
    d.get(f"{server.base}/#/station/{sid}")
    wait_for(d, lambda d: (station_screen(d) or {}).get("state") == "ready")
    wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, ".party-panel").is_displayed(), "no party panel")
    wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, ".party-join").is_displayed())
    type_into(d, "#party-name", name)
    click(d, ".party-join .btn-primary")
    wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, ".party-search").is_displayed(), "never joined the party")
    # Reconnected as the guest: the party comes with their own votes.
    wait_for(d, lambda d: (station_screen(d) or {}).get("connection") == "live")


def ask_for(d, track: dict) -> None:
    type_into(d, "#party-search", track["title"])
    # The results of this search, not the one before (an album's songs
    # show for each other's titles).
    wait_for(d, lambda d: d.execute_script("return document.querySelector('#party-results').dataset.query") == track["title"])
    button = f".btn-request[data-track-id='{track['id']}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, button), f"{track['title']} never showed in the search")
    click(d, button)
    wait_for(d, lambda d: find(d, button).text == "Asked")


def test_guests_request_and_vote_and_the_host_overrides(demo_server, browser, shot):
    host = signup(demo_server, display_name="Party Host")
    station, _ = party_station(demo_server, host, "Kitchen Party", visibility="public")
    sid = station["id"]

    # The host turns requests on in the station settings.
    h = browser(DESKTOP)
    log_in(h, demo_server, host, f"/station/{sid}/settings")
    wait_for(h, settings_ready)
    click(h, "label[for='mode-requests']")
    click(h, ".party-form .btn-primary")
    wait_for(h, lambda h: "Listeners can request" in (text_of(h, "#party-status") or ""))
    h.get(f"{demo_server.base}/#/station/{sid}")
    wait_for(h, lambda h: (station_screen(h) or {}).get("role") == "owner")
    wait_for(h, lambda h: h.find_element(By.CSS_SELECTOR, ".party-panel").is_displayed())
    # The host holds the station, so the song playing stays the one playing
    # (a song asked for may not be the one on the air).
    ok(call(demo_server, "POST", f"/api/stations/{sid}/commands", {"id": "hold", "command": {"op": "pause"}}, host.token))

    # Two guests join by name and ask for songs as they type.
    first, second, third, fourth = free_tracks(demo_server, sid, 4)
    ann = browser(PHONE)
    join_party(ann, demo_server, sid, "Ann")
    shot(ann, "joined")
    ask_for(ann, first)
    # With nothing else asked for, the first request is lined up at once:
    # in Up Next, and still in the requests as Ann's, marked up next, past
    # voting (until it starts playing).
    wait_for(ann, lambda d: d.execute_script(
        "return [...document.querySelectorAll('.upnext-row')].some(r => r.dataset.trackId === arguments[0])", first["id"]),
        "the first request never reached Up Next")
    wait_for(ann, lambda d: request_ids(d) == [first["id"]], "the lined-up request isn't in Ann's requests")
    lined_up = f".request-row[data-track-id='{first['id']}']"
    assert "Up next" in text_of(ann, f"{lined_up} .request-by") and "asked by Ann" in text_of(ann, f"{lined_up} .request-by")
    assert not ann.find_elements(By.CSS_SELECTOR, f"{lined_up} .btn-vote"), "votes offered on a lined-up request"
    ask_for(ann, second)
    wait_for(ann, lambda d: request_ids(d) == [first["id"], second["id"]])
    assert "Asked by Ann" in text_of(ann, f".request-row[data-track-id='{second['id']}'] .request-by")

    bo = browser(PHONE)
    join_party(bo, demo_server, sid, ALERT_TITLE)
    ask_for(bo, third)
    # Fair turns: Ann's lined-up song was her turn, so Bo's first comes
    # before her second (the lined-up one stays first).
    wait_for(ann, lambda d: request_ids(d) == [first["id"], third["id"], second["id"]], f"turns: {request_ids(ann)}")
    wait_for(bo, lambda d: request_ids(d) == [first["id"], third["id"], second["id"]])
    assert ALERT_TITLE in text_of(ann, f".request-row[data-track-id='{third['id']}'] .request-by")
    assert not bo.find_elements(By.CSS_SELECTOR, f"{lined_up} .btn-vote"), "votes offered on a lined-up request"
    ask_for(bo, fourth)
    # Same turn for Ann's second and Bo's second, one vote each: the earlier request leads.
    wait_for(ann, lambda d: request_ids(d) == [first["id"], third["id"], second["id"], fourth["id"]], f"turns: {request_ids(ann)}")

    # Bo votes Ann's song down: Ann sees the order change.
    click(bo, f".request-row[data-track-id='{second['id']}'] .btn-vote-down")
    wait_for(bo, lambda d: find(d, f".request-row[data-track-id='{second['id']}'] .btn-vote-down").get_attribute("aria-pressed") == "true")
    wait_for(ann, lambda d: request_ids(d) == [first["id"], third["id"], fourth["id"], second["id"]], "Ann never saw the order change")

    # Guests don't see the counts (seed 001); the host does.
    assert not ann.find_elements(By.CSS_SELECTOR, ".vote-count")
    second_row = f".request-row[data-track-id='{second['id']}']"
    wait_for(h, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, f"{second_row} .vote-count")] == ["1", "1"])
    shot(h, "host-sees-counts")
    shot(ann, "guest-order")
    assert_fits(ann, "party", [".party-panel", ".request-row .btn-vote-up"])

    # The host vetoes Bo's request: everyone is told, by name, as text.
    click(h, f".request-row[data-track-id='{third['id']}'] .btn-veto")
    wait_for(ann, lambda d: f"The host said no to {third['title']}" in (text_of(d, "#toasts") or ""))
    wait_for(bo, lambda d: ALERT_TITLE in (text_of(d, "#toasts") or ""))
    wait_for(ann, lambda d: request_ids(d) == [first["id"], fourth["id"], second["id"]])
    assert no_alert(ann) and no_alert(bo) and no_alert(h)
    assert ann.execute_script("return window.__xss") is None


def test_thumbs_and_liked_songs(demo_server, browser, shot):
    """A listener gives the song a thumb and saves it with ♥; the DJ sees the
    room's thumbs; the song is in the listener's liked songs, which can
    become the robot DJ's pool for their own station."""
    host = signup(demo_server, display_name="Thumbs Host")
    station, _ = party_station(demo_server, host, "Thumbs Radio", visibility="public")
    sid = station["id"]
    h = browser(DESKTOP)
    log_in(h, demo_server, host, f"/station/{sid}")
    wait_for(h, lambda h: (station_screen(h) or {}).get("role") == "owner")
    ok(call(demo_server, "POST", f"/api/stations/{sid}/commands", {"id": "hold", "command": {"op": "pause"}}, host.token))

    fan = signup(demo_server, display_name="Fan")
    d = browser(PHONE)
    log_in(d, demo_server, fan, f"/station/{sid}")
    wait_for(d, lambda d: (station_screen(d) or {}).get("state") == "ready")
    wait_for(d, lambda d: d.find_element(By.CSS_SELECTOR, ".reactions").is_displayed(), "no reactions for a named listener")
    playing = ok(call(demo_server, "GET", f"/api/stations/{sid}/timeline"))["current"]

    click(d, ".btn-thumb-up")
    wait_for(d, lambda d: find(d, ".btn-thumb-up").get_attribute("aria-pressed") == "true")
    wait_for(h, lambda h: (text_of(h, ".thumb-counts") or "") == "▲ 1 · ▼ 0", "the DJ never saw the thumb")
    # A second press takes it back.
    click(d, ".btn-thumb-up")
    wait_for(d, lambda d: find(d, ".btn-thumb-up").get_attribute("aria-pressed") == "false")
    wait_for(h, lambda h: (text_of(h, ".thumb-counts") or "") == "▲ 0 · ▼ 0")

    click(d, ".btn-like")
    wait_for(d, lambda d: find(d, ".btn-like").get_attribute("aria-pressed") == "true")
    shot(d, "reactions")
    assert_fits(d, "reactions", [".reactions .btn-like", ".reactions .btn-thumb-down"])

    # The song is in the fan's liked songs; they make them their station's pool.
    d.get(f"{demo_server.base}/#/account")
    row = f".liked-row[data-track-id='{playing['track']['id']}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, row), "the saved song isn't in the liked songs")
    click(d, ".btn-liked-pool")
    wait_for(d, lambda d: "now plays your 1 liked song" in (text_of(d, "#toasts") or ""))
    pool = ok(call(demo_server, "GET", f"/api/stations/{fan.station_id}/pool", token=fan.token))
    assert pool["trackIDs"] == [playing["track"]["id"]]
    shot(d, "liked-songs")


def test_the_party_screen_shows_the_room_and_a_guest_joins_by_its_code(demo_server, browser, shot):
    """The host opens the party screen on a TV-sized window: the song in big,
    the room's requests live, the frequency and a QR code that loads. A guest
    opens the link the code holds, gives a name and is in, ready to request;
    their request shows on the screen."""
    host = signup(demo_server, display_name="Screen Host")
    station, code = party_station(demo_server, host, "Living Room Party", visibility="code")
    sid = station["id"]
    ok(call(demo_server, "PATCH", f"/api/stations/{sid}/party", {"mode": "requests"}, host.token))
    tv = browser((1440, 900))
    log_in(tv, demo_server, host, f"/station/{sid}")
    wait_for(tv, lambda d: (station_screen(d) or {}).get("role") == "owner")
    click(tv, ".btn-room")
    wait_for(tv, lambda d: d.find_element(By.CSS_SELECTOR, ".room").is_displayed(), "the party screen never opened")
    assert tv.execute_script("return location.hash") == f"#/station/{sid}/screen"
    wait_for(tv, lambda d: d.execute_script(
        "const i = document.querySelector('.room-qr-img'); return Boolean(i) && i.complete && i.naturalWidth > 0;"),
        "the join code never loaded")
    assert code["frequency"] in text_of(tv, ".room-frequency")
    assert "No requests yet" in text_of(tv, ".room-empty")
    ok(call(demo_server, "POST", f"/api/stations/{sid}/commands", {"id": "hold", "command": {"op": "pause"}}, host.token))
    link = tv.execute_script("return document.querySelector('.room').dataset.inviteLink")
    assert link.startswith(f"{demo_server.base}/#/i/")

    # The guest "scans" it: the code's link, then a name.
    g = browser(PHONE)
    g.get(link)
    wait_for(g, lambda g: g.execute_script("return document.querySelector('.invite-screen')?.dataset.state") == "ready")
    type_into(g, "#invite-name", "Scanner")
    click(g, ".invite-screen .btn-join")
    wait_for(g, lambda g: (station_screen(g) or {}).get("id") == sid)
    wait_for(g, lambda g: g.find_element(By.CSS_SELECTOR, ".party-search").is_displayed(), "the guest isn't ready to request")
    first, second = free_tracks(demo_server, sid, 2, token=host.token)
    ask_for(g, first)
    ask_for(g, second)
    wait_for(tv, lambda d: second["title"] in (text_of(d, ".room-requests") or ""), "the request never reached the screen")
    assert "asked by Scanner" in text_of(tv, ".room-request-by")
    shot(tv, "party-screen")
    assert_fits(tv, "party screen", [".room-qr-img", ".room-title", ".room-exit"])


# Where the first Up Next row and the party panel are on screen.
PLACE_JS = """
const panel = document.querySelector('.party-panel');
const row = document.querySelector('.upnext-row');
const p = panel.getBoundingClientRect();
return {panelTop: p.top, panelBottom: p.bottom, rowTop: row ? row.getBoundingClientRect().top : null,
        rowTrack: row ? row.dataset.trackId : null, height: window.innerHeight, scrollY: window.scrollY,
        requests: document.querySelectorAll('.request-row').length};
"""


def test_up_next_stays_put_when_a_request_comes_in_above_it(demo_server, browser, shot):
    """A guest on a phone reads Up Next, scrolled so that the party's
    requests begin above the top of the window. Someone asks for a song:
    the requests grow, and the Up Next row the guest is reading stays where
    it was on screen."""
    host = signup(demo_server, display_name="Steady Host")
    station, _ = party_station(demo_server, host, "Steady Party", visibility="public")
    sid = station["id"]
    ok(call(demo_server, "PATCH", f"/api/stations/{sid}/party", {"mode": "requests"}, host.token))
    ann = browser(PHONE)
    join_party(ann, demo_server, sid, "Ann")
    # Ann woke the station; held, the song playing stays the one playing.
    demo_server.command(sid, host.token, {"op": "pause"})
    wait_for(None, lambda _: demo_server.timeline(sid).get("pausedAt") is not None)
    first, second, third = free_tracks(demo_server, sid, 3, host.token)
    # The first is lined up at once (and listed first until it plays); the
    # second waits behind it.
    demo_server.command(sid, host.token, {"op": "request", "trackID": first["id"]})
    demo_server.command(sid, host.token, {"op": "request", "trackID": second["id"]})
    wait_for(ann, lambda d: request_ids(d) == [first["id"], second["id"]], f"Ann never saw the requests: {request_ids(ann)}")
    wait_for(ann, lambda d: d.execute_script(PLACE_JS)["rowTop"] is not None, "no Up Next row")
    # The panel's top 40 px above the window, the rest of it and Up Next in it.
    ann.execute_script("const p = document.querySelector('.party-panel').getBoundingClientRect();"
                       "window.scrollBy({top: p.top + 40, behavior: 'instant'});")
    before = ann.execute_script(PLACE_JS)
    assert before["panelTop"] < 0 < before["panelBottom"], f"the panel should begin above the window: {before}"
    assert 0 < before["rowTop"] < before["height"], f"Up Next should be in the window: {before}"

    demo_server.command(sid, host.token, {"op": "request", "trackID": third["id"]})
    after = wait_for(ann, lambda d: (lambda p: p["requests"] == 3 and p)(d.execute_script(PLACE_JS)), "the third request never showed")
    shot(ann, "up-next-after-a-request")
    assert after["rowTrack"] == before["rowTrack"], f"{before} → {after}"
    assert abs(after["rowTop"] - before["rowTop"]) < 1, f"Up Next moved on screen: {before} → {after}"


def open_party_screen(tv, server, host, sid: str) -> None:
    """The host's TV-sized window on the party screen."""
    log_in(tv, server, host, f"/station/{sid}")
    wait_for(tv, lambda d: (station_screen(d) or {}).get("role") == "owner")
    click(tv, ".btn-room")
    wait_for(tv, lambda d: d.find_element(By.CSS_SELECTOR, ".room").is_displayed(), "the party screen never opened")


def test_a_lined_up_request_shows_as_up_next_for_the_guest_the_host_and_the_tv(demo_server, browser, shot):
    """A guest's first request is lined up at once: it stays in their
    Requests panel as theirs (never "No requests yet"), marked up next, with
    no votes and their Take back; the host has Play now and Veto on it but no
    votes or moves; the TV's first is that request, marked playing next and
    whose it is."""
    host = signup(demo_server, display_name="Lined Host")
    station, _ = party_station(demo_server, host, "Lined Up Party", visibility="public")
    sid = station["id"]
    ok(call(demo_server, "PATCH", f"/api/stations/{sid}/party", {"mode": "requests"}, host.token))
    tv = browser((1440, 900))
    open_party_screen(tv, demo_server, host, sid)
    ok(call(demo_server, "POST", f"/api/stations/{sid}/commands", {"id": "hold", "command": {"op": "pause"}}, host.token))
    hb = browser(DESKTOP)
    log_in(hb, demo_server, host, f"/station/{sid}")
    wait_for(hb, lambda d: (station_screen(d) or {}).get("role") == "owner")
    wait_for(hb, lambda d: d.find_element(By.CSS_SELECTOR, ".party-panel").is_displayed())

    first, second = free_tracks(demo_server, sid, 2, token=host.token)
    ann = browser(PHONE)
    join_party(ann, demo_server, sid, "Ann")
    ask_for(ann, first)
    row = f".request-row[data-track-id='{first['id']}']"
    wait_for(ann, lambda d: request_ids(d) == [first["id"]], f"Ann's request isn't in her panel: {request_ids(ann)}")
    assert not find(ann, ".requests-empty").is_displayed(), "'No requests yet' with a request lined up"
    assert "is-lined-up" in find(ann, row).get_attribute("class")
    by = text_of(ann, f"{row} .request-by")
    assert "Up next" in by and "asked by Ann" in by, by
    assert not ann.find_elements(By.CSS_SELECTOR, f"{row} .btn-vote"), "votes on a lined-up request"
    assert ann.find_elements(By.CSS_SELECTOR, f"{row} .btn-withdraw"), "Ann can't take back her lined-up request"

    # The host: Play now and Veto on it, no votes, no moves.
    wait_for(hb, lambda d: request_ids(d) == [first["id"]])
    assert hb.find_elements(By.CSS_SELECTOR, f"{row} .btn-play-now") and hb.find_elements(By.CSS_SELECTOR, f"{row} .btn-veto")
    assert not hb.find_elements(By.CSS_SELECTOR, f"{row} .btn-vote, {row} .btn-move, {row} .btn-top")

    # The TV: #1 is Ann's request, marked playing next, with no tally.
    wait_for(tv, lambda d: first["title"] in (text_of(d, ".room-request:first-child .room-request-title") or ""),
             "the lined-up request isn't the TV's first")
    assert "Playing next" in text_of(tv, ".room-request:first-child")
    assert "asked by Ann" in text_of(tv, ".room-request:first-child .room-request-by")
    assert text_of(tv, ".room-request:first-child .room-pos") == "1"

    # A second request waits behind it, with votes and the host's arrows.
    ask_for(ann, second)
    wait_for(ann, lambda d: request_ids(d) == [first["id"], second["id"]])
    second_row = f".request-row[data-track-id='{second['id']}']"
    assert ann.find_elements(By.CSS_SELECTOR, f"{second_row} .btn-vote-up")
    wait_for(hb, lambda d: request_ids(d) == [first["id"], second["id"]])
    # Already first of the waiting ones: no "Next", and no way above the lined-up one.
    assert not hb.find_elements(By.CSS_SELECTOR, f"{second_row} .btn-top")
    assert not hb.find_elements(By.CSS_SELECTOR, f"{second_row} .btn-move-up:not([disabled])"), "a request may be moved above the lined-up one"
    wait_for(tv, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".room-request")) == 2)
    assert "Playing next" not in text_of(tv, ".room-request:nth-child(2)")
    shot(tv, "lined-up-tv")
    at_every_width(ann, shot, "lined-up-guest", [f"{row} .btn-withdraw"], restore=PHONE, reveal=row)
    at_every_width(hb, shot, "lined-up-host", [f"{row} .btn-veto"], restore=DESKTOP, reveal=row)
    assert no_alert(ann) and no_alert(hb) and no_alert(tv)


def test_the_host_sees_the_vetoed_songs_and_lifts_a_veto(demo_server, browser, shot):
    """The host vetoes a guest's request: it is under "Vetoed" in the host's
    booth (never in a guest's), and the guest can't ask for it again. The
    host lifts the veto (liftVeto): it leaves the list, and the guest asks
    for it again."""
    host = signup(demo_server, display_name="Veto Host")
    station, _ = party_station(demo_server, host, "Veto Party", visibility="public")
    sid = station["id"]
    ok(call(demo_server, "PATCH", f"/api/stations/{sid}/party", {"mode": "requests"}, host.token))
    h = browser(DESKTOP)
    log_in(h, demo_server, host, f"/station/{sid}")
    wait_for(h, lambda d: (station_screen(d) or {}).get("role") == "owner")
    wait_for(h, lambda d: d.find_element(By.CSS_SELECTOR, ".party-panel").is_displayed())
    ok(call(demo_server, "POST", f"/api/stations/{sid}/commands", {"id": "hold", "command": {"op": "pause"}}, host.token))
    assert not find(h, ".vetoed-panel").is_displayed(), "a Vetoed list with nothing vetoed"

    first, second = free_tracks(demo_server, sid, 2, token=host.token)
    ann = browser(PHONE)
    join_party(ann, demo_server, sid, "Ann")
    ask_for(ann, first)
    ask_for(ann, second)
    wait_for(h, lambda d: request_ids(d) == [first["id"], second["id"]])

    click(h, f".request-row[data-track-id='{second['id']}'] .btn-veto")
    vetoed_row = f".vetoed-row[data-track-id='{second['id']}']"
    wait_for(h, lambda d: d.find_elements(By.CSS_SELECTOR, vetoed_row) and find(d, vetoed_row).is_displayed(),
             "the vetoed song isn't under Vetoed")
    assert second["title"] in text_of(h, vetoed_row)
    assert "Vetoed" in text_of(h, ".vetoed-summary")
    wait_for(ann, lambda d: request_ids(d) == [first["id"]])
    # Listeners get no vetoed list.
    assert not ann.find_elements(By.CSS_SELECTOR, ".vetoed-row")
    assert not find(ann, ".vetoed-panel").is_displayed()
    shot(h, "vetoed-list")
    at_every_width(h, shot, "vetoed", [f"{vetoed_row} .btn-lift-veto"], restore=DESKTOP, reveal=vetoed_row)

    # Lifted: gone from the list, the toast says so, and Ann asks again.
    click(h, f"{vetoed_row} .btn-lift-veto")
    wait_for(h, lambda d: not d.find_elements(By.CSS_SELECTOR, vetoed_row), "the lifted veto stayed in the list",
             explain=lambda: {"toasts": text_of(h, "#toasts"),
                              "vetoed": ok(call(demo_server, "GET", f"/api/stations/{sid}/party", token=host.token)).get("vetoed")})
    wait_for(h, lambda d: not find(d, ".vetoed-panel").is_displayed())
    wait_for(h, lambda d: "may be asked for again" in (text_of(d, "#toasts") or ""))
    # A fresh search, so the button pressed is a new one (not the old "Asked").
    type_into(ann, "#party-search", "")
    wait_for(ann, lambda d: d.execute_script("return document.querySelector('#party-results').dataset.query") == "")
    ask_for(ann, second)
    wait_for(ann, lambda d: request_ids(d) == [first["id"], second["id"]], "the lifted song couldn't be asked for again")
    wait_for(h, lambda d: request_ids(d) == [first["id"], second["id"]])
    assert no_alert(ann) and no_alert(h)
