import Foundation
import Testing
import WavelengthCore

/// The iCalendar feed's text. That real parsers expand the same episodes
/// the server computes is tested with Python's icalendar and
/// recurring_ical_events (tests/browser/test_calendar_feed.py).
@Suite("Calendar feed")
struct CalendarFeedTests {
    static let now: EpochMillis = 1_795_478_400_000  // 2026-11-24T00:00Z

    static var alternating: Show {
        Show(
            id: "w1", stationID: "s1", name: "Night Owls; jazz, late\nand \\ more", description: "Ünïcode — " + String(repeating: "é", count: 60),
            genre: "Jazz", hostIDs: ["p1"], timeZone: "America/Los_Angeles", startTime: LocalTime("22:00")!,
            durationMinutes: 120, repeats: .weekly(interval: 2, weekdays: [.tuesday], weekStart: .monday),
            seasonStart: LocalDate("2026-09-21")!, seasonEnd: LocalDate("2027-06-10")!,
            cancelled: [LocalDate("2026-11-17")!, LocalDate("2026-11-24")!],
            moved: [MovedEpisode(original: LocalDate("2026-12-01")!, date: LocalDate("2026-12-02")!, time: LocalTime("20:00")!, durationMinutes: 90)],
            updatedAt: now)
    }

    static func unfolded(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    }

    @Test func anAlternatingShowIsOneRecurringEventWithItsExceptions() {
        let text = CalendarFeed(name: "KDVS", shows: [Self.alternating], hostNames: ["p1": "Ada"], now: Self.now).render()
        let lines = Self.unfolded(text)
        #expect(lines.first == "BEGIN:VCALENDAR")
        #expect(lines.contains("X-WR-CALNAME:KDVS"))
        // The first Tuesday on or after the season's start is DTSTART.
        #expect(lines.contains("DTSTART;TZID=America/Los_Angeles:20260922T220000"))
        #expect(lines.contains("DURATION:PT120M"))
        // UNTIL is the last day's start, in UTC (10 June 2027 22:00 PDT).
        #expect(lines.contains("RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=MO;UNTIL=20270611T050000Z"))
        // (The 24th is an off week: nothing to cancel.)
        #expect(lines.contains("EXDATE;TZID=America/Los_Angeles:20261117T220000"))
        #expect(lines.contains("RECURRENCE-ID;TZID=America/Los_Angeles:20261201T220000"))
        #expect(lines.contains("DTSTART;TZID=America/Los_Angeles:20261202T200000"))
        #expect(lines.filter { $0 == "UID:show-w1@wavelength" }.count == 2)
        #expect(lines.contains("SUMMARY:Night Owls\\; jazz\\, late\\nand \\\\ more"))
        #expect(lines.contains { $0.hasPrefix("DESCRIPTION:") && $0.hasSuffix("Hosted by Ada") })
        // The zone, with both of its changes.
        #expect(lines.contains("BEGIN:VTIMEZONE") && lines.contains("TZID:America/Los_Angeles"))
        #expect(lines.contains("BEGIN:DAYLIGHT") && lines.contains("BEGIN:STANDARD"))
        #expect(lines.contains("TZOFFSETFROM:-0800") && lines.contains("TZOFFSETTO:-0700"))
        #expect(lines.contains("DTSTART:20261101T020000"))  // 2 AM PDT, when the clocks go back
    }

    @Test func linesAreFoldedAt75OctetsWithoutSplittingCharacters() {
        let text = CalendarFeed(name: "KDVS", shows: [Self.alternating], now: Self.now).render()
        #expect(text.hasSuffix("\r\n"))
        for line in text.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 75, "\(line)")
        }
        #expect(text.contains("\r\n "))
    }

    @Test func aZoneWithoutDaylightSavingAndAOneOffShow() {
        var show = Self.alternating
        show.timeZone = "Asia/Tokyo"
        show.repeats = .once
        show.seasonStart = LocalDate("2026-12-31")!
        show.cancelled = []
        show.moved = []
        let lines = Self.unfolded(CalendarFeed(name: "K", shows: [show], now: Self.now).render())
        #expect(lines.contains("TZOFFSETTO:+0900"))
        #expect(!lines.contains { $0.hasPrefix("RRULE") })
        #expect(lines.contains("DTSTART;TZID=Asia/Tokyo:20261231T220000"))
    }
}
