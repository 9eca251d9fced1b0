"""Reports and blocks in real browsers. A listener on a phone reports a
message in a station's chat with a reason and a note; the owner finds it in
the DJ booth's queue (never told who reported) and deletes it, and it
leaves the listener's screen; an administrator reads it in the control
room, with who reported and what was done. A listener blocks someone and
sees no more of their messages, and reports the station from its screen.
Every screen fits at every width with no sideways scroll."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from accounts_api import auth_request, log_in_browser, signup, unique_handle
from conftest import DESKTOP, PHONE, at_every_width
from helpers import click, find, text_of, wait_for
from test_admin import grant
from test_chat import booth, open_menu, open_station, texts, wait_gone, wait_text, ws_chat


def send_report(d, reason: str, note: str) -> None:
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".report-dialog[open]"), "the report dialog never opened")
    click(d, f".report-dialog input[value='{reason}']")
    find(d, ".report-dialog .report-note").send_keys(note)
    click(d, ".report-dialog .report-send")
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, ".report-dialog"),
             lambda: f"the dialog never closed: {text_of(d, '.report-dialog')}")


def test_a_listener_reports_a_message_from_a_phone_and_the_host_deletes_it(demo_server, browser, shot):
    server = demo_server
    owner = signup(server, unique_handle("own"), "Host")
    troll = signup(server, unique_handle("tro"), "Pill Seller")
    ana = signup(server, unique_handle("ana"), "Ana")
    admin = signup(server, unique_handle("adm"), "Station Manager")
    grant(server, admin.handle)
    sid = owner.station_id
    bad = "buy cheap <b>pills</b> now <img src=x onerror=window.__pwned=1>"
    ws_chat(server, sid, troll.token, bad)

    li = browser(PHONE)
    log_in_browser(li, server, ana)
    open_station(li, server, sid, "open")
    row = open_menu(li, bad)
    # A listener's menu reports and blocks; it moderates nothing.
    assert not li.find_elements(By.CSS_SELECTOR, f"{row} .chat-tool-delete")
    click(li, f"{row} .chat-tool-report")
    wait_for(li, lambda d: d.find_elements(By.CSS_SELECTOR, ".report-dialog[open]"), "the report dialog never opened")
    assert "never told who reported" in text_of(li, ".report-dialog")
    at_every_width(li, shot, "report-dialog", [".report-dialog", ".report-form"])
    send_report(li, "spam", "Selling pills to everyone")

    o = browser(DESKTOP)
    booth(o, server, owner, sid)
    queue = "#booth-reports"
    wait_for(o, lambda d: "pills" in (text_of(d, f"{queue} .report-list") or ""), "the report never reached the booth")
    text = text_of(o, queue)
    assert "Selling pills to everyone" in text and "Spam or ads" in text and "Reported by" not in text, text
    assert o.execute_script("return typeof window.__pwned") == "undefined"
    assert not o.find_elements(By.CSS_SELECTOR, f"{queue} .report-act[data-action='suspend']")
    at_every_width(o, shot, "booth-reports", [queue, f"{queue} .report-row"], restore=DESKTOP, reveal=queue)
    click(o, f"{queue} .report-act[data-action='delete']")
    wait_gone(li, bad, "the reported message on the listener's phone")
    wait_for(o, lambda d: not d.find_elements(By.CSS_SELECTOR, f"{queue} .report-row"), "the report stayed in the booth's queue")

    a = browser(PHONE)
    log_in_browser(a, server, admin)
    a.get(f"{server.base}/#/admin")
    wait_for(a, lambda d: d.find_elements(By.CSS_SELECTOR, "#admin-reports-status"), "no reports in the control room")
    Select(find(a, "#admin-reports-status")).select_by_value("all")
    wait_for(a, lambda d: "pills" in (text_of(d, "#admin-reports") or ""), "the closed report isn't in the control room")
    text = text_of(a, "#admin-reports")
    assert f"Reported by @{ana.handle}" in text and "Delete it · Host" in text, text
    wait_for(a, lambda d: "report-delete" in (d.execute_script(
        "return [...document.querySelectorAll('.admin-log-line')].map(l => l.dataset.action).join(' ')") or ""),
        "the report's closing isn't in the log")
    at_every_width(a, shot, "admin-reports", ["#admin-reports", ".report-row"], reveal="#admin-reports")


def test_a_listener_blocks_someone_and_reports_the_station(demo_server, browser, shot):
    server = demo_server
    owner = signup(server, unique_handle("own"), "Night Owl")
    pest = signup(server, unique_handle("pes"), "Pest")
    bo = signup(server, unique_handle("bo"), "Bo")
    admin = signup(server, unique_handle("adm"), "Manager")
    grant(server, admin.handle)
    sid = owner.station_id
    ws_chat(server, sid, pest.token, "first from the pest")

    li = browser(PHONE)
    log_in_browser(li, server, bo)
    open_station(li, server, sid, "open")
    row = open_menu(li, "first from the pest")
    click(li, f"{row} .chat-tool-block")
    wait_gone(li, "first from the pest", "a blocked person's message")
    # What they say next never shows; others' messages still do.
    ws_chat(server, sid, pest.token, "second from the pest")
    ws_chat(server, sid, owner.token, "the host says hi")
    wait_text(li, "the host says hi")
    assert "second from the pest" not in texts(li)
    assert [p["id"] for p in auth_request(server, "GET", "/api/blocks", token=bo.token)] == [pest.person["id"]]

    click(li, ".report-station")
    send_report(li, "hate", "The station's name is a slur")
    reports = auth_request(server, "GET", "/api/admin/reports", token=admin.token)
    assert [(r["subject"], r["subjectID"], r["note"]) for r in reports] == [("station", sid, "The station's name is a slur")]
    # A station report is the administrators' alone.
    assert auth_request(server, "GET", f"/api/stations/{sid}/reports", token=owner.token) == []
