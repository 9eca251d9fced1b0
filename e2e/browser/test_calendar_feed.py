"""The iCalendar feeds, read by real parsers: Python's icalendar parses
them, and recurring_ical_events expands each show's rule, exceptions and
zone into episodes. They must be exactly the episodes the server's own
schedule API computes (the web app shows those), across both daylight
saving changes, alternating weeks, a WKST that matters, a monthly rule,
a one-off, and cancelled and moved episodes."""
import urllib.request
from datetime import datetime, timezone

from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

from accounts_api import auth_request

# A season that spans both of 2027's daylight-saving changes in the US and
# in Europe, and is in the future, so no edit is refused for the past.
SEASON = ("2027-01-04", "2027-12-20")
SHOWS = [
    {   # Alternating Tuesdays at 22:00 in Los Angeles, one cancelled and one moved.
        "name": "Night Owls", "genre": "Jazz", "timeZone": "America/Los_Angeles",
        "startTime": "22:00", "durationMinutes": 120,
        "repeat": {"kind": "weekly", "interval": 2, "weekdays": ["TU"]},
        "cancelled": ["2027-03-16"],
        "moved": [{"date": "2027-11-09", "start": "2027-11-10T20:00", "durationMinutes": 90}],
    },
    {   # RFC 5545's case where WKST matters: every other week on TU and SU.
        "name": "Sunday & Tuesday", "timeZone": "America/New_York", "startTime": "02:00",
        "durationMinutes": 60,
        "repeat": {"kind": "weekly", "interval": 2, "weekdays": ["TU", "SU"], "weekStart": "SU"},
    },
    {   # The last Monday of every other month, in Berlin (DST on other dates).
        "name": "Monthly Mix", "timeZone": "Europe/Berlin", "startTime": "12:00", "durationMinutes": 180,
        "repeat": {"kind": "monthly", "interval": 2, "weekday": "MO", "ordinal": -1},
    },
    {   # A one-off in a zone without daylight saving.
        "name": "Special, with; punctuation \\ and a \"quote\"", "timeZone": "Asia/Kolkata",
        "startTime": "15:30", "durationMinutes": 45, "repeat": {"kind": "once"},
        "seasonStart": "2027-07-15",
    },
]


def ms(value) -> int:
    return int(value.timestamp() * 1000)


def server_episodes(server, station_id, token):
    """Every episode of the season from the schedule API, 60 days at a time."""
    start = ms(datetime.fromisoformat(SEASON[0]).replace(tzinfo=timezone.utc)) - 86_400_000
    end = ms(datetime.fromisoformat(SEASON[1]).replace(tzinfo=timezone.utc)) + 2 * 86_400_000
    found = set()
    step = 60 * 86_400_000
    for frm in range(start, end, step):
        to = min(frm + step, end)
        view = auth_request(server, "GET", f"/api/stations/{station_id}/schedule?from={frm}&to={to}", token=token)
        # An episode overlapping a window's edge is in both windows: keep it once.
        found |= {(e["showID"], e["start"], e["end"]) for e in view["episodes"]}
    return found, start, end


def span(event) -> tuple[int, int]:
    begin = event["DTSTART"].dt
    finish = event["DTEND"].dt if "DTEND" in event else begin + event["DURATION"].dt
    return ms(begin), ms(finish)


def fetch(server, path, token):
    request = urllib.request.Request(server.base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.headers.get("Content-Type"), response.read()


def test_real_parsers_expand_the_feed_into_the_servers_episodes(demo_server):
    owner = demo_server.signup(display_name="Calendar")
    station_id, token = owner.station["id"], owner.token
    ids = {}
    for spec in SHOWS:
        body = {"seasonStart": SEASON[0], "seasonEnd": SEASON[1], **spec}
        ids[auth_request(demo_server, "POST", f"/api/stations/{station_id}/shows", body, token=token)["id"]] = spec["name"]

    expected, start, end = server_episodes(demo_server, station_id, token)
    assert len(expected) > 40
    assert {show for show, _, _ in expected} == set(ids)

    content_type, body = fetch(demo_server, f"/api/stations/{station_id}/schedule.ics", token)
    assert content_type.startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(body)
    assert str(calendar.get("X-WR-CALNAME")) == owner.station["name"]
    by_uid = {f"show-{show_id}@wavelength": show_id for show_id in ids}
    window = (datetime.fromtimestamp(start / 1000, timezone.utc), datetime.fromtimestamp(end / 1000, timezone.utc))
    parsed = set()
    for event in recurring_ical_events.of(calendar).between(*window):
        show_id = by_uid[str(event["UID"])]
        parsed.add((show_id, *span(event)))
        assert str(event["SUMMARY"]) == ids[show_id]
    # The starts agree exactly. So do the ends, but for an episode whose
    # wall-clock start doesn't exist (2:00 on the night the clocks go
    # forward): RFC 5545 reads it as 3:00 and lasts the DURATION, while
    # recurring_ical_events adds the duration to the wall clock and then
    # normalises both, ending the episode where it starts.
    assert {e[:2] for e in parsed} == {e[:2] for e in expected}, (
        f"only the server: {sorted(expected - parsed)[:5]}; only the parser: {sorted(parsed - expected)[:5]}")
    specs = {show_id: next(s for s in SHOWS if s["name"] == name) for show_id, name in ids.items()}
    gaps = set()
    for show_id, begin, finish in expected - parsed:
        spec = specs[show_id]
        local = datetime.fromtimestamp(begin / 1000, ZoneInfo(spec["timeZone"])).strftime("%H:%M")
        moved_to = {m["start"][-5:] for m in spec.get("moved", [])}
        assert local != spec["startTime"] and local not in moved_to, f"{spec['name']} ends apart at {begin}"
        gaps.add((show_id, begin))
    assert len(gaps) <= 1  # 14 March 2027, 2:00 in New York

    # One show's own feed is that show alone, with the same episodes.
    night = next(i for i, name in ids.items() if name == "Night Owls")
    _, body = fetch(demo_server, f"/api/stations/{station_id}/shows/{night}/calendar.ics", token)
    one = {(night, *span(e)) for e in recurring_ical_events.of(icalendar.Calendar.from_ical(body)).between(*window)}
    assert one == {e for e in expected if e[0] == night}
    # The cancelled episode is gone, and the moved one airs on its new day.
    la_days = {datetime.fromtimestamp(s / 1000, timezone.utc).strftime("%m-%d") for _, s, _ in one}
    assert "03-17" not in la_days  # 16 March 22:00 in LA is 05:00 UTC on the 17th
    assert "11-11" in la_days and "11-10" not in la_days  # 10 Nov 20:00 PST is 04:00 UTC on the 11th
