"""A station's shows on a schedule, in the browser (issue "Shows on a
schedule"):

- the owner adds an alternating-weeks show through the editor form (from
  the empty schedule's "Add a show"); its page says "Every other …" in its
  own zone; the schedule shows it in exactly the weeks the server lists it,
  present, then absent the week in between, then present again (moving
  with the next-week button); a listener signed in on another browser sees
  the week and the show's page but no editing controls;
- a show that would overlap another is refused: the form shows the
  server's own clash message (the same words the API answers) and keeps
  what was typed;
- "Cancel episode" on the show's page: the spec gains the episode's
  original date and the schedule drops it; "Move…" moves the next one, the
  schedule marks it "moved"; editing the show keeps both; "Restore" puts
  the cancelled one back; "Delete" asks in the page, then the show is gone;
- "Remind me" is a toggle (aria-pressed), the server lists the reminder,
  and one due now goes off in the app (and, with notifications granted,
  as a Notification); it fires once, not again after a reload;
- every screen (schedule, show page, editor) at 360, 390, 768, 1024 and
  1440 px with no sideways scroll, with screenshots; a show named with
  HTML is shown as text and runs nothing.

Each test signs up its own people (each with their own station) on the
shared demo server. Every wait is on a condition (helpers.wait_for).
"""

from __future__ import annotations

import datetime as dt
import math
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from accounts_api import ApiFailure, auth_request, make_browser_user, signup, unique_handle
from conftest import ALERT_TITLE, DESKTOP, PHONE, XSS_TITLE, at_every_width, set_viewport
from helpers import assert_fits, find, no_alert, wait_for

WIDTHS = [360, 390, 768, 1024, 1440]
DAY_CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


# ---------------------------------------------------------------- helpers


def api(server, account, method: str, path: str, body=None):
    return auth_request(server, method, path, body, token=account.token)


def show_spec(name: str, *, start_time: str, season_start: str, duration: int = 60, kind: str = "weekly",
              interval: int = 1, weekdays: list[str] | None = None, zone: str = "UTC", **extra) -> dict:
    repeat: dict = {"kind": kind}
    if kind == "weekly":
        repeat.update(interval=interval, weekdays=weekdays or [])
    spec = {
        "name": name, "description": "", "genre": "", "hosts": [], "timeZone": zone, "startTime": start_time,
        "durationMinutes": duration, "repeat": repeat, "seasonStart": season_start, "seasonEnd": None,
        "cancelled": [], "moved": [],
    }
    spec.update(extra)
    return spec


def create_show(server, account, spec: dict) -> dict:
    return api(server, account, "POST", f"/api/stations/{account.station_id}/shows", spec)


def day_code(day: str) -> str:
    return DAY_CODES[dt.date.fromisoformat(day).weekday()]


def browser_day(d, days_from_today: int = 0) -> str:
    """The browser's local date, `days_from_today` on."""
    return d.execute_script(
        "const t = new Date(); t.setDate(t.getDate() + arguments[0]); const p = (n) => String(n).padStart(2, '0');"
        "return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())}`;", days_from_today)


def browser_zone(d) -> str:
    return d.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")


def screen_ready(root: str):
    return lambda d: d.find_elements(By.CSS_SELECTOR, f"{root}[data-state='ready']")


schedule_ready = screen_ready(".schedule-screen")
show_ready = screen_ready(".show-screen")
editor_ready = screen_ready(".show-editor-screen")


def open_schedule(d, server, station_id: str, week: str | None = None) -> None:
    d.get(f"{server.base}/#/station/{station_id}/schedule" + (f"?week={week}" if week else ""))
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".schedule-screen[data-state='ready']")
             and (week is None or find(d, ".schedule-screen").get_attribute("data-week") == monday_of(week)),
             "the schedule never loaded")


def monday_of(day: str) -> str:
    date = dt.date.fromisoformat(day)
    return (date - dt.timedelta(days=date.weekday())).isoformat()


def open_show(d, server, station_id: str, show_id: str) -> None:
    d.get(f"{server.base}/#/station/{station_id}/show/{show_id}")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f".show-screen[data-show-id='{show_id}'][data-state='ready']"),
             "the show's page never loaded")


def week_state(d) -> dict:
    """The schedule screen's week ([from, to) in ms) and its cards."""
    return d.execute_script(
        """
        const screen = document.querySelector('.schedule-screen');
        return {
          week: screen.dataset.week, from: Number(screen.dataset.from), to: Number(screen.dataset.to),
          cards: [...document.querySelectorAll('.sched-ep')].map((c) => ({
            showID: c.dataset.showId, start: Number(c.dataset.start),
            name: c.querySelector('.sched-ep-name').textContent,
            moved: c.classList.contains('is-moved'), now: c.classList.contains('is-now'), next: c.classList.contains('is-next'),
            day: c.closest('.sched-day').dataset.day,
          })),
        };
        """
    )


def server_week(server, account, station_id: str, state: dict, zone: str) -> dict:
    return auth_request(server, "GET", f"/api/stations/{station_id}/schedule?from={state['from']}&to={state['to']}&tz={zone}",
                        token=account.token)


def starts_of(cards_or_episodes: list[dict], show_id: str) -> list[int]:
    return sorted(c["start"] for c in cards_or_episodes if c["showID"] == show_id)


def next_week(d) -> dict:
    """Presses "Next week" and waits for the following week to load."""
    before = find(d, ".schedule-screen").get_attribute("data-week")
    expected = (dt.date.fromisoformat(before) + dt.timedelta(days=7)).isoformat()
    press_button(d, ".sched-next")
    wait_for(d, lambda d: find(d, ".schedule-screen").get_attribute("data-week") == expected
             and find(d, ".schedule-screen").get_attribute("data-state") == "ready", f"week {expected} never loaded")
    return week_state(d)


def set_value(d, selector: str, value: str) -> None:
    """Sets a date or time input as its picker would."""
    d.execute_script(
        "const input = document.querySelector(arguments[0]); input.value = arguments[1];"
        "input.dispatchEvent(new Event('input', {bubbles: true})); input.dispatchEvent(new Event('change', {bubbles: true}));",
        selector, value)


def press_button(d, selector: str) -> None:
    """Clicks a control after scrolling it to the middle of the screen (clear
    of the sticky header)."""
    element = find(d, selector)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def type_into(d, selector: str, text: str) -> None:
    field = find(d, selector)
    field.clear()
    field.send_keys(text)


def fill_show_form(d, *, name: str, start_time: str, duration: int, weekday: str, first_day: str, interval_label: str,
                   zone: str | None = None, genre: str = "", hosts: str | None = None, description: str = "") -> None:
    type_into(d, "#show-name", name)
    type_into(d, "#show-genre", genre)
    if hosts is not None:
        type_into(d, "#show-hosts", hosts)
    type_into(d, "#show-description", description)
    if zone:
        Select(find(d, "#show-tz")).select_by_value(zone)
    set_value(d, "#show-start", start_time)
    type_into(d, "#show-duration", str(duration))
    press_button(d, "label[for='show-kind-weekly']")
    Select(find(d, "#show-interval")).select_by_visible_text(interval_label)
    for code in DAY_CODES:
        box = find(d, f"#show-day-{code}")
        if box.is_selected() != (code == weekday):
            press_button(d, f"label[for='show-day-{code}']")
    set_value(d, "#show-season-start", first_day)


def no_markup_ran(d) -> bool:
    return d.execute_script("return window.__xss === undefined") and no_alert(d) and not d.find_elements(By.CSS_SELECTOR, "img[src='x']")


# ------------------------------------------------- an alternating show


def test_owner_schedules_an_alternating_show_and_a_listener_reads_it(demo_server, browser, shot):
    d = browser(PHONE)
    owner = make_browser_user(d, demo_server, display_name="Campus Owls")
    sid = owner.station_id
    zone = browser_zone(d)

    # An empty schedule offers its DJ "Add a show".
    open_schedule(d, demo_server, sid)
    assert "No shows on the schedule yet" in find(d, ".sched-empty").text
    shot(d, "schedule-empty")
    press_button(d, ".sched-add-first")
    wait_for(d, editor_ready, "the editor never opened")
    assert find(d, "#show-tz").get_attribute("value") == zone, "the zone isn't the browser's"
    assert find(d, "#show-hosts").get_attribute("value") == owner.handle, "the owner isn't the first host"

    # Every other week, on the day after tomorrow, from that day on.
    first_day = browser_day(d, 2)
    weekday = day_code(first_day)
    name = f"Night Owls {unique_handle('o')}"
    fill_show_form(d, name=name, start_time="22:00", duration=120, weekday=weekday, first_day=first_day,
                   interval_label="Every other week", genre="Jazz", description="Late jazz\nfrom the stacks")
    phrase = f"Every other {DAY_NAMES[DAY_CODES.index(weekday)]}, 22:00–00:00 ({zone.replace('_', ' ')} time)"
    assert find(d, "#show-preview").text == phrase
    shot(d, "editor-filled")
    press_button(d, ".show-save")

    # The show's page.
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".show-screen[data-state='ready']"), "the show's page never opened")
    show_id = find(d, ".show-screen").get_attribute("data-show-id")
    page = api(demo_server, owner, "GET", f"/api/stations/{sid}/shows/{show_id}")
    assert page["show"]["name"] == name and page["show"]["repeat"]["interval"] == 2, page["show"]
    assert find(d, ".show-title").text == name
    assert find(d, ".show-airs").text == phrase
    assert find(d, ".show-genre").text.lower() == "jazz"
    assert owner.handle in find(d, ".show-hosts").text
    upcoming = [int(s) for s in d.execute_script("return [...document.querySelectorAll('.show-ep')].map((li) => li.dataset.start)")]
    assert upcoming == [e["start"] for e in page["upcoming"]], "not the server's next episodes"
    assert len(upcoming) >= 2 and all(b - a >= 13 * 86_400_000 for a, b in zip(upcoming, upcoming[1:])), upcoming
    assert find(d, ".show-ep").get_attribute("data-date") == first_day
    assert find(d, ".show-edit").is_displayed() and find(d, ".show-delete").is_displayed()
    assert find(d, ".cal-subscribe").get_attribute("href").startswith("webcal://")
    assert find(d, ".cal-subscribe").get_attribute("href").endswith(page["show"]["calendarURL"])
    shot(d, "show-page")

    # The schedule: weeks as the server lists them, the show every other week.
    find(d, ".btn-back-schedule").click()
    wait_for(d, schedule_ready)
    state = week_state(d)
    seen = []
    for index in range(4):
        expected = starts_of(server_week(demo_server, owner, sid, state, zone)["episodes"], show_id)
        assert starts_of(state["cards"], show_id) == expected, f"week {state['week']}: the cards aren't the server's episodes"
        seen.append(bool(expected))
        if expected:
            shot(d, f"schedule-week-{index}")
        if index < 3:
            state = next_week(d)
    first = seen.index(True)
    assert first in (0, 1), f"not in this week or the next: {seen}"
    assert seen[first + 1] is False, f"the show is in the week in between: {seen}"
    assert seen[first + 2] is True, f"the show isn't back two weeks on: {seen}"

    # A listener signed in on a wide screen: the week, the show, no editing.
    listener_browser = browser(DESKTOP)
    listener = make_browser_user(listener_browser, demo_server, display_name="Night Listener")
    open_schedule(listener_browser, demo_server, sid, week=first_day)
    cards = [c for c in week_state(listener_browser)["cards"] if c["showID"] == show_id]
    assert len(cards) == 1 and cards[0]["day"] == first_day and cards[0]["name"] == name, cards
    assert not find(listener_browser, ".sched-add").is_displayed()
    assert listener_browser.execute_script(
        "return getComputedStyle(document.querySelector('.sched-week')).gridTemplateColumns.split(' ').length") == 7, "not a 7-column week"
    shot(listener_browser, "schedule-listener-desktop")
    press_button(listener_browser, f".sched-ep[data-show-id='{show_id}'] .sched-ep-link")
    wait_for(listener_browser, show_ready, "the listener never saw the show's page")
    assert find(listener_browser, ".show-title").text == name
    assert find(listener_browser, ".show-remind").get_attribute("aria-pressed") == "false"
    for selector in (".show-edit", ".show-delete", ".show-ep-cancel", ".show-ep-move"):
        assert not [e for e in listener_browser.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()], f"a listener sees {selector}"
    shot(listener_browser, "show-page-listener")
    assert api(demo_server, listener, "GET", f"/api/stations/{sid}/shows/{show_id}")["canEdit"] is False


# ------------------------------------------------- a private station's feed


def read_feed(url: str) -> tuple[int, str]:
    """GETs a feed as a calendar app does: no cookie, no header."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_private_stations_listener_gets_a_calendar_link_of_their_own(demo_server, browser, shot):
    """A calendar app can't sign in. On a private station the listener asks
    for a link of their own, which the app reads with no session, and which
    stops working when they stop it."""
    owner = signup(demo_server, unique_handle("pco"), "Private Calendar")
    sid = owner.station_id
    show = create_show(demo_server, owner, show_spec(
        f"Members Only {unique_handle('m')}", start_time="21:00", season_start=(dt.date.today() + dt.timedelta(days=1)).isoformat(),
        kind="weekly", weekdays=DAY_CODES[:5]))
    api(demo_server, owner, "PATCH", f"/api/stations/{sid}", {"visibility": "code"})
    code = api(demo_server, owner, "GET", f"/api/stations/{sid}/code")
    d = browser(PHONE)
    member = make_browser_user(d, demo_server, display_name="Calendar Member")
    api(demo_server, member, "POST", f"/api/frequencies/{code['frequency']}/join", {"accessCode": code["accessCode"]})
    station_feed = f"{demo_server.base}/api/stations/{sid}/schedule.ics"
    assert read_feed(station_feed)[0] == 401, "the bare feed of a private station opened"

    # No webcal:// link that would fail in the calendar app: a button that asks for one.
    open_schedule(d, demo_server, sid)
    assert not d.find_elements(By.CSS_SELECTOR, ".sched-subscribe .cal-subscribe")
    assert "stops working if you lose access" in find(d, ".sched-subscribe .cal-hint").text
    press_button(d, ".sched-subscribe .cal-get")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".sched-subscribe .cal-mine:not([hidden]) .cal-subscribe"),
             "no calendar link came")
    subscribe = find(d, ".sched-subscribe .cal-mine .cal-subscribe")
    assert d.switch_to.active_element == subscribe, "focus didn't move to the new link"
    href = subscribe.get_attribute("href")
    url = find(d, ".sched-subscribe .cal-mine-url").get_attribute("value")
    assert href.startswith("webcal://") and "?token=" in href, href
    assert url == "http://" + href[len("webcal://"):] and url.startswith(station_feed + "?token="), (href, url)
    status, body = read_feed(url)
    assert status == 200 and f"UID:show-{show['id']}@wavelength" in body, (status, body[:200])
    shot(d, "private-calendar-link")
    at_every_width(d, shot, "private-calendar-link", [".sched-subscribe .cal-mine-url", ".sched-subscribe .cal-stop"],
                   reveal=".sched-subscribe .cal-mine")

    # A show's page: the same, for the show's own feed.
    open_show(d, demo_server, sid, show["id"])
    press_button(d, ".cal-get")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".cal-mine:not([hidden]) .cal-mine-url"), "no link for the show")
    show_url = find(d, ".cal-mine-url").get_attribute("value")
    assert show_url.startswith(f"{demo_server.base}{show['calendarURL']}?token="), show_url
    assert read_feed(show_url)[0] == 200

    # Stopped, every link of theirs for the station is dead.
    press_button(d, ".cal-stop")
    wait_for(d, lambda d: "stopped working" in " ".join(t.text for t in d.find_elements(By.CSS_SELECTOR, ".toast")),
             "no word that the links stopped")
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, ".cal-mine:not([hidden])"))
    assert d.switch_to.active_element == find(d, ".cal-get"), "focus didn't go back to the button"
    assert read_feed(url)[0] == 403 and read_feed(show_url)[0] == 403


# ---------------------------------------------------------------- clash


def test_an_overlapping_show_is_refused_with_the_servers_message(demo_server, browser, shot):
    d = browser(PHONE)
    owner = make_browser_user(d, demo_server, display_name="Clash Radio")
    sid = owner.station_id
    tomorrow = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=1)).date().isoformat()
    weekday = day_code(tomorrow)
    create_show(demo_server, owner, show_spec("Morning Drive", start_time="20:00", duration=120, weekdays=[weekday],
                                              season_start=tomorrow))
    clashing = show_spec("Overlap Hour", start_time="21:00", duration=60, weekdays=[weekday], season_start=tomorrow)
    try:
        create_show(demo_server, owner, clashing)
        raise AssertionError("the server took an overlapping show")
    except ApiFailure as refusal:
        assert refusal.status == 409 and refusal.code == "schedule_clash", refusal
        message = refusal.message

    d.get(f"{demo_server.base}/#/station/{sid}/shows/new")
    wait_for(d, editor_ready, "the editor never opened")
    fill_show_form(d, name="Overlap Hour", start_time="21:00", duration=60, weekday=weekday, first_day=tomorrow,
                   interval_label="Every week", zone="UTC", hosts="")
    press_button(d, ".show-save")
    wait_for(d, lambda d: find(d, ".show-form-error").text.strip() != "", "no refusal shown")
    assert find(d, ".show-form-error").text == message
    assert find(d, ".show-form-error").get_attribute("role") == "alert"
    # What was typed stays, and nothing was added.
    assert find(d, "#show-name").get_attribute("value") == "Overlap Hour"
    assert find(d, "#show-start").get_attribute("value") == "21:00"
    assert find(d, "#show-day-" + weekday).is_selected()
    assert "/shows/new" in d.current_url
    shot(d, "editor-clash")
    names = [s["name"] for s in api(demo_server, owner, "GET", f"/api/stations/{sid}/schedule")["shows"]]
    assert names == ["Morning Drive"], names


# ------------------------------------------------------ cancel and move


def test_cancel_move_edit_restore_and_delete_from_the_show_page(demo_server, browser, shot):
    d = browser(PHONE)
    owner = make_browser_user(d, demo_server, display_name="Daily Desk")
    sid = owner.station_id
    tomorrow = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=1)).date().isoformat()
    show = create_show(demo_server, owner, show_spec("Noon News", start_time="12:00", duration=30, weekdays=DAY_CODES,
                                                     season_start=tomorrow))
    show_id = show["id"]
    open_show(d, demo_server, sid, show_id)
    rows = lambda d: d.execute_script(
        "return [...document.querySelectorAll('.show-ep')].map((li) => ({date: li.dataset.date, start: Number(li.dataset.start),"
        " moved: li.classList.contains('is-moved')}))")
    first, second = rows(d)[:2]
    assert first["date"] == tomorrow, rows(d)

    # Cancel the first: the spec gains its original date, the page drops it.
    press_button(d, f".show-ep[data-date='{first['date']}'] .show-ep-cancel")
    wait_for(d, lambda d: first["date"] not in [r["date"] for r in rows(d)], "the cancelled episode stayed on the page")
    assert "Cancelled" in find(d, ".show-status").text
    assert first["date"] in api(demo_server, owner, "GET", f"/api/stations/{sid}/shows/{show_id}")["show"]["cancelled"]
    shot(d, "show-page-cancelled")

    # Move the next one to 18:30 the same day (in the show's zone, UTC).
    press_button(d, f".show-ep[data-date='{second['date']}'] .show-ep-move")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".show-move-form"))
    assert find(d, ".show-move-start").get_attribute("value") == f"{second['date']}T12:00"
    set_value(d, ".show-move-start", f"{second['date']}T18:30")
    shot(d, "show-page-move")
    press_button(d, ".show-move-save")
    wait_for(d, lambda d: any(r["date"] == second["date"] and r["moved"] for r in rows(d)), "the moved episode isn't marked moved")
    spec = api(demo_server, owner, "GET", f"/api/stations/{sid}/shows/{show_id}")["show"]
    assert spec["moved"] == [{"date": second["date"], "start": f"{second['date']}T18:30", "durationMinutes": 30}], spec["moved"]
    moved_start = next(r["start"] for r in rows(d) if r["date"] == second["date"])
    assert moved_start == second["start"] + int(6.5 * 3_600_000)

    # The schedule: no cancelled episode, the moved one marked.
    for day, start, gone in ((first["date"], first["start"], True), (second["date"], moved_start, False)):
        open_schedule(d, demo_server, sid, week=day)
        cards = week_state(d)["cards"]
        starts = starts_of(cards, show_id)
        if gone:
            assert start not in starts, f"the cancelled episode of {day} is still on the schedule"
        else:
            card = next(c for c in cards if c["start"] == start)
            assert card["moved"], card
            assert "moved" in d.find_element(By.CSS_SELECTOR, f".sched-ep[data-start='{start}']").text
            shot(d, "schedule-moved")

    # Edit: the editor keeps the cancelled and moved episodes it doesn't show.
    open_show(d, demo_server, sid, show_id)
    press_button(d, ".show-edit")
    wait_for(d, editor_ready, "the editor never opened")
    assert find(d, "#show-name").get_attribute("value") == "Noon News"
    assert find(d, "#show-start").get_attribute("value") == "12:00"
    assert all(find(d, f"#show-day-{code}").is_selected() for code in DAY_CODES)
    type_into(d, "#show-name", "Noon News Extra")
    press_button(d, ".show-save")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, f".show-screen[data-show-id='{show_id}'][data-state='ready']")
             and find(d, ".show-title").text == "Noon News Extra", "the edited show's page never opened")
    edited = api(demo_server, owner, "GET", f"/api/stations/{sid}/shows/{show_id}")["show"]
    assert edited["cancelled"] == [first["date"]] and edited["moved"] == spec["moved"], edited

    # Restore the cancelled one from the show's page.
    press_button(d, f".show-restore[data-date='{first['date']}']")
    wait_for(d, lambda d: first["date"] in [r["date"] for r in rows(d)], "the restored episode never came back")
    assert api(demo_server, owner, "GET", f"/api/stations/{sid}/shows/{show_id}")["show"]["cancelled"] == []

    # Delete asks in the page first; keeping it changes nothing.
    press_button(d, ".show-delete")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.confirm-dialog[open]"), "Delete asked nothing")
    assert "Noon News Extra" in find(d, ".confirm-title").text and no_alert(d)
    shot(d, "show-delete-confirm")
    find(d, ".confirm-dialog .btn-cancel").click()
    wait_for(d, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.confirm-dialog"))
    assert api(demo_server, owner, "GET", f"/api/stations/{sid}/shows/{show_id}")["show"]["name"] == "Noon News Extra"
    press_button(d, ".show-delete")
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.confirm-dialog[open]"))
    find(d, ".confirm-dialog .btn-confirm").click()
    wait_for(d, schedule_ready, "Delete didn't go back to the schedule")
    assert "No shows on the schedule yet" in find(d, ".sched-empty").text
    try:
        api(demo_server, owner, "GET", f"/api/stations/{sid}/shows/{show_id}")
        raise AssertionError("the deleted show is still there")
    except ApiFailure as gone:
        assert gone.status == 404, gone


# ------------------------------------------------------------ reminders


def test_remind_me_toggles_and_a_due_reminder_goes_off_once(demo_server, browser, shot):
    owner = signup(demo_server, display_name="Soon FM")
    sid = owner.station_id
    # A one-off a few minutes from now (UTC), so the default 10 minutes' lead is already due.
    start = dt.datetime.fromtimestamp(math.ceil(time.time() / 60) * 60 + 4 * 60, dt.timezone.utc)
    name = f"Starting Soon {unique_handle('s')}"
    show = create_show(demo_server, owner, show_spec(name, kind="once", start_time=start.strftime("%H:%M"), duration=30,
                                                     season_start=start.date().isoformat()))
    show_id = show["id"]

    d = browser(PHONE)
    d.execute_cdp_cmd("Browser.grantPermissions", {"origin": demo_server.base, "permissions": ["notifications"]})
    listener = make_browser_user(d, demo_server, display_name="Reminded Listener")
    open_show(d, demo_server, sid, show_id)
    remind = find(d, ".show-remind")
    assert remind.get_attribute("aria-pressed") == "false"
    press_button(d, ".show-remind")
    wait_for(d, lambda d: find(d, ".show-remind").get_attribute("aria-pressed") == "true", "Remind me never turned on")
    reminders = api(demo_server, listener, "GET", "/api/me/reminders")
    mine = [r for r in reminders if r["show"]["id"] == show_id]
    assert len(mine) == 1 and mine[0]["next"]["start"] == int(start.timestamp() * 1000), reminders

    # Due now: it goes off in the app.
    toast = f".toast-reminder[data-reminder-key='{show_id}@{mine[0]['next']['start']}']"
    wait_for(d, lambda d: d.find_elements(By.CSS_SELECTOR, toast), "the reminder never went off")
    words = d.execute_script("return document.querySelector(arguments[0]).textContent", toast)
    assert f"{name} starts in" in words, words
    assert find(d, toast).get_attribute("role") == "status"
    shot(d, "reminder")
    fired = d.execute_script("return window.__wavelength.reminders.fired")
    assert [f["showID"] for f in fired] == [show_id], fired
    permission = d.execute_script("return window.Notification ? Notification.permission : 'unsupported'")
    if permission == "granted":
        assert fired[0]["notified"], "notifications are granted but none was shown"
        assert "notification" in find(d, ".show-remind-note").text.lower()

    # Once: a reload plans the same reminders again and fires nothing.
    d.refresh()
    wait_for(d, show_ready)
    wait_for(d, lambda d: d.execute_script("return window.__wavelength.reminders.list.length") >= 1, "the reminders never loaded again")
    assert d.execute_script("return window.__wavelength.reminders.fired.length") == 0
    assert not d.find_elements(By.CSS_SELECTOR, ".toast-reminder")

    # Off again.
    press_button(d, ".show-remind")
    wait_for(d, lambda d: find(d, ".show-remind").get_attribute("aria-pressed") == "false", "Remind me never turned off")
    assert not [r for r in api(demo_server, listener, "GET", "/api/me/reminders") if r["show"]["id"] == show_id]


# ------------------------------------------------------- widths, markup


def test_every_schedule_screen_fits_every_width_and_shows_html_as_text(demo_server, browser, shot):
    d = browser(DESKTOP)
    owner = make_browser_user(d, demo_server, display_name="Wide Load Radio")
    sid = owner.station_id
    now = dt.datetime.now(dt.timezone.utc).replace(second=0, microsecond=0)
    # On now: a one-off that began ten minutes ago.
    began = now - dt.timedelta(minutes=10)
    on_now = create_show(demo_server, owner, show_spec(
        "The Very Long Named Afternoon Programme of Extended Listening", kind="once", start_time=began.strftime("%H:%M"),
        duration=60, season_start=began.date().isoformat(), genre="Talk"))
    # Next: every day three hours on, named and described with markup.
    daily = now + dt.timedelta(hours=3)
    hostile = create_show(demo_server, owner, show_spec(
        ALERT_TITLE, start_time=daily.strftime("%H:%M"), duration=90, weekdays=DAY_CODES,
        season_start=(now - dt.timedelta(days=1)).date().isoformat(), genre=XSS_TITLE,
        description='<script>window.__xss=1</script> and <b onmouseover="window.__xss=2">bold</b>', hosts=[owner.handle]))
    schedule = api(demo_server, owner, "GET", f"/api/stations/{sid}/schedule")
    assert schedule["now"] and schedule["now"]["showID"] == on_now["id"], schedule["now"]
    assert schedule["next"] and schedule["next"]["showID"] == hostile["id"], schedule["next"]

    screens = [
        ("schedule", f"#/station/{sid}/schedule", schedule_ready,
         [".btn-back-station", ".sched-title", ".sched-add", ".sched-banner", ".sched-prev", ".sched-next", ".sched-week-title",
          ".sched-ep.is-now .sched-ep-link", ".cal-subscribe", ".cal-download"]),
        ("show", f"#/station/{sid}/show/{hostile['id']}", show_ready,
         [".btn-back-schedule", ".show-title", ".show-airs", ".show-remind", ".show-edit", ".show-delete", ".show-ep-cancel",
          ".show-ep-move", ".cal-subscribe"]),
        ("editor", f"#/station/{sid}/show/{hostile['id']}/edit", editor_ready,
         ["#show-name", "#show-hosts", "#show-tz", "#show-start", "#show-duration", "label[for='show-kind-monthly']",
          "#show-interval", "label[for='show-day-SU']", "#show-season-start", "#show-season-end", ".show-save"]),
    ]
    for screen, path, ready, selectors in screens:
        d.get(f"{demo_server.base}/{path}")
        wait_for(d, ready, f"the {screen} screen never loaded")
        # Names, genres and descriptions that are HTML are text.
        assert no_markup_ran(d), f"markup ran on the {screen} screen"
        if screen == "schedule":
            assert find(d, ".sched-banner .sched-slot-next .sched-slot-name").text == ALERT_TITLE
            assert ALERT_TITLE in [c["name"] for c in week_state(d)["cards"]]
        elif screen == "show":
            assert find(d, ".show-title").text == ALERT_TITLE
            assert find(d, ".show-genre").text.lower() == XSS_TITLE.lower()
            assert "<script>" in find(d, ".show-description").text
            assert d.title.startswith(ALERT_TITLE)
        else:
            assert find(d, "#show-name").get_attribute("value") == ALERT_TITLE
        for width in WIDTHS:
            set_viewport(d, (width, 900))
            wait_for(d, lambda d: d.execute_script("return Math.min(innerWidth, screen.width)") == width)
            assert_fits(d, f"{screen} at {width}px", selectors)
            shot(d, f"{screen}-{width}")
        set_viewport(d, DESKTOP)
        assert no_markup_ran(d), f"markup ran on the {screen} screen"
