"""Roles on screen: a co-DJ finds the station they were given on their dial
("Stations you co-DJ", right after their own), and when the DJ booth changes
hands everyone tuned in is told who has it now (the promoted co-DJ "You're
the DJ now", the others "<name> is the DJ now").

The handover runs on a server of its own with `--dj-grace 2`, so a co-DJ is
promoted 2 s after the owner's connection goes (not the default 20 s)."""

import pytest
from selenium.webdriver.common.by import By

from accounts_api import auth_request, log_in_browser, signup, unique_handle
from conftest import PHONE, Server, at_every_width
from helpers import click, find, text_of, wait_for


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def handover_server(tmp_path_factory):
    """The demo library, and a 2 s grace before a co-DJ takes an empty booth."""
    server = Server(
        tmp_path_factory.mktemp("handover-data"), name="handover",
        options=["--signups-per-hour", "100000", "--guests-per-hour", "100000", "--bcrypt-cost", "4", "--dj-grace", "2"],
    ).start()
    yield server
    server.stop()


# ---------------------------------------------------------------- helpers


def dial_ready(d) -> bool:
    return d.execute_script("return document.querySelector('.dial-screen')?.dataset.state") == "ready"


def section_kinds(d) -> list[str]:
    return d.execute_script(
        "return [...document.querySelectorAll('.station-section:not([hidden])')].map(s => s.dataset.kind)")


def section_of(d, station_id: str) -> str | None:
    return d.execute_script(
        "const c = document.querySelector(`.station-card[data-station-id='${arguments[0]}']`);"
        "return c ? c.closest('.station-section').dataset.kind : null;",
        station_id,
    )


def grant_codj(server, owner, person_id: str) -> None:
    auth_request(server, "PUT", f"/api/stations/{owner.station_id}/codjs/{person_id}", token=owner.token)


def dial_sections(server, account) -> dict:
    """The server's dial for `account`: {kind: [station ids]}."""
    dial = auth_request(server, "GET", "/api/dial", token=account.token)
    return {s["kind"]: [st["id"] for st in s["stations"]] for s in dial["sections"]}


# Every toast the page shows, kept (a toast goes after 4.5 s; the test
# reads what came, not what is still on screen).
WATCH_TOASTS = """
if (!window.__toastsSeen) {
  window.__toastsSeen = [];
  const region = document.getElementById('toasts');
  const seen = (node) => {
    if (node.nodeType === 1 && node.classList.contains('toast')) window.__toastsSeen.push(node.textContent);
  };
  region.querySelectorAll('.toast').forEach(seen);
  new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(seen)))
    .observe(region, {childList: true});
}
"""


def toasts_seen(d) -> list[str]:
    return d.execute_script("return window.__toastsSeen || []")


def tuned_in(d, station_id: str) -> bool:
    """The station screen for station_id is built and its live connection is up."""
    return d.execute_script(
        "const s = document.querySelector('.station-screen[data-state=\"ready\"]');"
        "return Boolean(s) && location.hash === '#/station/' + arguments[0] && s.dataset.connection === 'live';",
        station_id,
    )


# ---------------------------------------------------------------- tests


def test_a_codj_finds_the_station_on_their_dial(demo_server, browser, shot):
    owner = signup(demo_server, unique_handle("own"), "Owner Of The Night Shift")
    d = browser(PHONE)
    friend = signup(demo_server, unique_handle("codj"), "Cody Codj")
    log_in_browser(d, demo_server, friend)

    # Not a co-DJ yet: no "Stations you co-DJ" on the dial.
    d.get(f"{demo_server.base}/#/")
    wait_for(d, dial_ready, "the dial never loaded")
    wait_for(d, lambda d: "own" in section_kinds(d), "the dial has no 'Your station'")
    assert "codj" not in section_kinds(d), section_kinds(d)
    assert not d.find_elements(By.CSS_SELECTOR, "#list-codj")
    assert section_of(d, owner.station_id) != "codj"
    assert "codj" not in dial_sections(demo_server, friend)

    # The owner makes them a co-DJ: the dial, opened again, lists the
    # station right after their own.
    grant_codj(demo_server, owner, friend.id)
    assert dial_sections(demo_server, friend).get("codj") == [owner.station_id]
    d.refresh()
    wait_for(d, dial_ready, "the dial never loaded again")
    wait_for(d, lambda d: section_of(d, owner.station_id) == "codj",
             "the owner's station is not under 'Stations you co-DJ'",
             explain=lambda: {"sections": section_kinds(d), "server": dial_sections(demo_server, friend)})
    kinds = section_kinds(d)
    assert kinds[:2] == ["own", "codj"], kinds
    assert text_of(d, "#list-codj").strip() == "Stations you co-DJ"
    card = f"#list-codj ~ .station-list .station-card[data-station-id='{owner.station_id}']"
    assert find(d, card).get_attribute("href").endswith(f"#/station/{owner.station_id}")
    assert (text_of(d, f"{card} .card-owner") or "").strip() == "Co-DJ · by Owner Of The Night Shift"
    assert "you co-DJ" in find(d, card).get_attribute("aria-label")
    shot(d, "dial-codj")

    at_every_width(d, shot, "dial-codj", [".band", "#list-codj", card], reveal="#list-codj", block="center")

    # The card opens the station, with the booth a co-DJ has.
    click(d, card)
    wait_for(d, lambda d: d.execute_script("return location.hash") == f"#/station/{owner.station_id}",
             "the card never opened the station")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner[data-state='ready'] .btn-skip"),
             "the station opened without the co-DJ's booth")
    assert d.execute_script("return document.querySelector('.station-screen').dataset.role") == "codj"
    shot(d, "station-as-codj")


def test_everyone_is_told_when_the_dj_hands_over(handover_server, browser, shot):
    server = handover_server
    owner = signup(server, unique_handle("boss"), "Bo Owner")
    codj = signup(server, unique_handle("cody"), "Cody Second")
    grant_codj(server, owner, codj.id)
    sid = owner.station_id

    # The owner in their booth first: they hold the DJ booth.
    o = browser(PHONE)
    log_in_browser(o, server, owner)
    o.get(f"{server.base}/#/station/{sid}")
    wait_for(o, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner[data-state='ready'] .btn-skip"),
             "the owner's booth never opened")
    wait_for(o, lambda d: tuned_in(d, sid), "the owner's page never connected")

    # The co-DJ on the same station (the booth's controls, but not the booth).
    c = browser(PHONE)
    log_in_browser(c, server, codj)
    c.get(f"{server.base}/#/station/{sid}")
    wait_for(c, lambda d: d.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner[data-state='ready']"),
             "the co-DJ's station screen never opened")
    wait_for(c, lambda d: tuned_in(d, sid), "the co-DJ's page never connected")
    c.execute_script(WATCH_TOASTS)

    # A listener who isn't signed in.
    li = browser(PHONE)
    li.get(f"{server.base}/#/station/{sid}")
    wait_for(li, lambda d: tuned_in(d, sid), "the listener's page never connected")
    assert not li.find_elements(By.CSS_SELECTOR, ".station-screen.is-owner")
    li.execute_script(WATCH_TOASTS)
    wait_for(li, lambda d: server.get(f"/api/stations/{sid}")["listeners"] >= 3,
             "the server never counted the three browsers",
             explain=lambda: server.get(f"/api/stations/{sid}"))

    # The owner closes their browser: after the grace the co-DJ is promoted,
    # and everyone still tuned in is told.
    o.quit()
    wait_for(c, lambda d: any(t.startswith("You're the DJ now") for t in toasts_seen(d)),
             "the co-DJ was never told the booth is theirs", explain=lambda: toasts_seen(c))
    wait_for(li, lambda d: "Cody Second is the DJ now." in toasts_seen(d),
             "the listener was never told who the DJ is now", explain=lambda: toasts_seen(li))
    shot(c, "codj-promoted")
    shot(li, "listener-told")
    assert "You're the DJ now: the booth is yours." in toasts_seen(c)
    # Each is told once, in their own words.
    assert not any("Cody Second is the DJ now" in t for t in toasts_seen(c)), toasts_seen(c)
    assert not any(t.startswith("You're the DJ now") for t in toasts_seen(li)), toasts_seen(li)
