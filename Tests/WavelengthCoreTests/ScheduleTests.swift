import Foundation
import Testing
import WavelengthCore

/// Shows' episodes from their rules: RFC 5545's own examples, daylight
/// saving in both directions, exceptions, and overlaps.
@Suite("Schedule")
struct ScheduleTests {
    static func date(_ text: String) -> LocalDate { LocalDate(text)! }
    static func time(_ text: String) -> LocalTime { LocalTime(text)! }

    static func show(
        id: String = "w1", zone: String = "America/New_York", at start: String = "09:00", minutes: Int = 60,
        _ repeats: ShowRepeat, from: String, to: String? = nil
    ) -> Show {
        Show(
            id: id, stationID: "s1", name: id, timeZone: zone, startTime: time(start), durationMinutes: minutes,
            repeats: repeats, seasonStart: date(from), seasonEnd: to.map(date))
    }

    /// The local days of the episodes in a span of days, in the show's zone.
    static func days(_ show: Show, from: String, through: String) -> [String] {
        let zone = show.zone
        let start = ZonedTime.instant(date(from), time("00:00"), in: zone)
        let end = ZonedTime.instant(date(through).adding(days: 1), time("00:00"), in: zone)
        return show.episodes(overlapping: start, end).map { ZonedTime.local($0.start, in: zone).date.description }
    }

    @Test func datesCountDaysAndNameWeekdays() {
        #expect(Self.date("2026-11-24").weekday == .tuesday)
        #expect(Self.date("1970-01-01").dayNumber == 0)
        #expect(Self.date("2000-02-29").adding(days: 1).description == "2000-03-01")
        #expect(Self.date("2024-02-29").daysInMonth == 29)
        #expect(LocalDate("2026-02-30") == nil)
        #expect(LocalDate("2026-1-05") == nil)
        #expect(LocalDate("２０２６-11-24") == nil)
        #expect(LocalTime("24:00") == nil)
        #expect(LocalTime("7:00") == nil)
        #expect(Self.time("22:05").minute == 22 * 60 + 5)
        for number in stride(from: -719_000, to: 2_900_000, by: 997) {
            let day = LocalDate(dayNumber: number)
            #expect(LocalDate(year: day.year, month: day.month, day: day.day) == day)
        }
    }

    /// RFC 5545 3.8.5.3: "every other week on Tuesday and Thursday, for 8
    /// occurrences", WKST=SU, from Tue 2 Sep 1997.
    @Test func rfcEveryOtherWeekOnTuesdayAndThursday() {
        let show = Self.show(.weekly(interval: 2, weekdays: [.tuesday, .thursday], weekStart: .sunday), from: "1997-09-02")
        #expect(
            Self.days(show, from: "1997-09-01", through: "1997-10-16") == [
                "1997-09-02", "1997-09-04", "1997-09-16", "1997-09-18", "1997-09-30", "1997-10-02", "1997-10-14",
                "1997-10-16",
            ])
    }

    /// RFC 5545 3.8.5.3: WKST changes which days fall in a counted week when
    /// INTERVAL > 1 and BYDAY has several days (5 Aug 1997, TU and SU).
    @Test func rfcWeekStartChangesTheResult() {
        let monday = Self.show(.weekly(interval: 2, weekdays: [.tuesday, .sunday], weekStart: .monday), from: "1997-08-05")
        #expect(Self.days(monday, from: "1997-08-01", through: "1997-08-24") == ["1997-08-05", "1997-08-10", "1997-08-19", "1997-08-24"])
        let sunday = Self.show(.weekly(interval: 2, weekdays: [.tuesday, .sunday], weekStart: .sunday), from: "1997-08-05")
        #expect(Self.days(sunday, from: "1997-08-01", through: "1997-08-31") == ["1997-08-05", "1997-08-17", "1997-08-19", "1997-08-31"])
    }

    /// RFC 5545 3.8.5.3: "every other week on Monday, Wednesday and Friday
    /// until December 24, 1997", from Mon 1 Sep 1997 (WKST=SU). The RFC's
    /// UNTIL is midnight UTC starting the 24th, so the last day is the 23rd.
    @Test func rfcEveryOtherWeekUntilAnEnd() {
        let show = Self.show(
            .weekly(interval: 2, weekdays: [.monday, .wednesday, .friday], weekStart: .sunday), from: "1997-09-01",
            to: "1997-12-23")
        let days = Self.days(show, from: "1997-08-25", through: "1998-01-31")
        #expect(days.count == 25)
        #expect(days.prefix(6) == ["1997-09-01", "1997-09-03", "1997-09-05", "1997-09-15", "1997-09-17", "1997-09-19"])
        #expect(days.suffix(3) == ["1997-12-10", "1997-12-12", "1997-12-22"])
        #expect(!days.contains("1997-12-24"))
    }

    /// RFC 5545 3.8.5.3: "monthly on the first Friday", and on the last
    /// Monday, and a 5th Tuesday that most months lack.
    @Test func rfcMonthlyByWeekday() {
        let first = Self.show(.monthly(interval: 1, weekday: .friday, ordinal: 1), from: "1997-09-05")
        #expect(
            Self.days(first, from: "1997-09-01", through: "1998-06-30") == [
                "1997-09-05", "1997-10-03", "1997-11-07", "1997-12-05", "1998-01-02", "1998-02-06", "1998-03-06",
                "1998-04-03", "1998-05-01", "1998-06-05",
            ])
        let last = Self.show(.monthly(interval: 2, weekday: .monday, ordinal: -1), from: "2026-01-01")
        #expect(Self.days(last, from: "2026-01-01", through: "2026-06-30") == ["2026-01-26", "2026-03-30", "2026-05-25"])
        let fifth = Self.show(.monthly(interval: 1, weekday: .tuesday, ordinal: 5), from: "2026-01-01")
        #expect(Self.days(fifth, from: "2026-01-01", through: "2026-12-31") == ["2026-03-31", "2026-06-30", "2026-09-29", "2026-12-29"])
    }

    /// A 2 AM show stays at 2 AM local on both of the year's changes. In
    /// the spring 2:00 doesn't exist on the day itself, and RFC 5545 reads
    /// it with the offset from before the gap: 3:00 PDT. In the autumn the
    /// hour from 1:00 happens twice, and the first is meant.
    @Test func localTimeHoldsAcrossDaylightSaving() {
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let show = Self.show(
            zone: "America/Los_Angeles", at: "02:00", .weekly(interval: 1, weekdays: [.sunday], weekStart: .monday),
            from: "2026-02-01")
        let spring = show.episodes(
            overlapping: ZonedTime.instant(Self.date("2026-03-01"), Self.time("00:00"), in: zone),
            ZonedTime.instant(Self.date("2026-03-16"), Self.time("00:00"), in: zone))
        #expect(spring.map(\.start) == [1_772_359_200_000, 1_772_964_000_000, 1_773_565_200_000])  // 10:00Z, 10:00Z, 09:00Z
        #expect(ZonedTime.local(spring[0].start, in: zone).time.description == "02:00")
        #expect(ZonedTime.local(spring[1].start, in: zone).time.description == "03:00")  // the gap
        #expect(ZonedTime.local(spring[2].start, in: zone).time.description == "02:00")

        let autumn = show.episodes(
            overlapping: ZonedTime.instant(Self.date("2026-10-25"), Self.time("00:00"), in: zone),
            ZonedTime.instant(Self.date("2026-11-09"), Self.time("00:00"), in: zone))
        #expect(autumn.map { ZonedTime.local($0.start, in: zone).time.description } == ["02:00", "02:00", "02:00"])
        #expect(autumn[1].start - autumn[0].start == (7 * 24 + 1) * 3_600_000)  // the week with the extra hour

        // 1:30 on the night the clocks go back is the first 1:30, in PDT.
        let late = Self.show(zone: "America/Los_Angeles", at: "01:30", .once, from: "2026-11-01")
        let first = late.upcoming(after: 1_793_500_000_000, count: 1)
        #expect(first.map(\.start) == [1_793_521_800_000])  // 08:30Z
    }

    @Test func cancelledAndMovedEpisodes() {
        var show = Self.show(
            zone: "UTC", at: "20:00", minutes: 120, .weekly(interval: 2, weekdays: [.tuesday], weekStart: .monday),
            from: "2026-11-03")
        #expect(Self.days(show, from: "2026-11-01", through: "2026-12-31") == [
            "2026-11-03", "2026-11-17", "2026-12-01", "2026-12-15", "2026-12-29",
        ])
        show.cancelled = [Self.date("2026-11-17"), Self.date("2026-11-10")]  // the 10th is no episode anyway
        show.moved = [MovedEpisode(original: Self.date("2026-12-01"), date: Self.date("2026-12-02"), time: Self.time("18:00"), durationMinutes: 60)]
        #expect(Self.days(show, from: "2026-11-01", through: "2026-12-31") == [
            "2026-11-03", "2026-12-02", "2026-12-15", "2026-12-29",
        ])
        let moved = show.upcoming(after: ZonedTime.instant(Self.date("2026-11-20"), Self.time("00:00"), in: show.zone), count: 1)[0]
        #expect(moved.moved && moved.originalDate == Self.date("2026-12-01"))
        #expect(moved.end - moved.start == 3_600_000)
        // A moved episode is found in the window it moved to, not the one it left.
        let dayItLeft = ZonedTime.instant(Self.date("2026-12-01"), Self.time("00:00"), in: show.zone)
        #expect(show.episodes(overlapping: dayItLeft, dayItLeft + 86_400_000).isEmpty)
    }

    @Test func upcomingAndPastAcrossWindows() {
        let show = Self.show(zone: "UTC", at: "12:00", .monthly(interval: 3, weekday: .monday, ordinal: 1), from: "2026-01-01")
        let now = ZonedTime.instant(Self.date("2026-11-24"), Self.time("00:00"), in: show.zone)
        let next = show.upcoming(after: now, count: 3).map { ZonedTime.local($0.start, in: show.zone).date.description }
        #expect(next == ["2027-01-04", "2027-04-05", "2027-07-05"])
        let past = show.past(before: now, count: 3).map { ZonedTime.local($0.start, in: show.zone).date.description }
        #expect(past == ["2026-10-05", "2026-07-06", "2026-04-06"])
    }

    @Test func alternatingShowsInOppositeWeeksShareASlot() {
        let now = ZonedTime.instant(Self.date("2026-11-01"), Self.time("00:00"), in: TimeZone(identifier: "UTC")!)
        let odd = Self.show(id: "odd", zone: "UTC", at: "20:00", minutes: 120, .weekly(interval: 2, weekdays: [.tuesday], weekStart: .monday), from: "2026-11-03")
        let even = Self.show(id: "even", zone: "UTC", at: "20:00", minutes: 120, .weekly(interval: 2, weekdays: [.tuesday], weekStart: .monday), from: "2026-11-10")
        let schedule = StationSchedule(shows: [odd])
        #expect(schedule.firstClash(with: even, from: now) == nil)
        // Back to back is no overlap either.
        let after = Self.show(id: "after", zone: "UTC", at: "22:00", .weekly(interval: 1, weekdays: [.tuesday], weekStart: .monday), from: "2026-11-01")
        #expect(schedule.firstClash(with: after, from: now) == nil)
        // The same weeks clash, at the first shared episode.
        let same = Self.show(id: "same", zone: "UTC", at: "21:00", .weekly(interval: 4, weekdays: [.tuesday], weekStart: .monday), from: "2026-11-10")
        let clash = try! #require(StationSchedule(shows: [odd, even]).firstClash(with: same, from: now))
        #expect(clash.other.id == "even")
        #expect(ZonedTime.local(clash.episode.start, in: same.zone).date.description == "2026-11-10")
        // Editing a show never clashes with its own old self.
        #expect(StationSchedule(shows: [odd]).firstClash(with: odd, from: now) == nil)
        // A cancelled episode frees its slot.
        var once = Self.show(id: "once", zone: "UTC", at: "20:30", .once, from: "2026-11-17")
        #expect(schedule.firstClash(with: once, from: now) != nil)
        var freed = odd
        freed.cancelled = [Self.date("2026-11-17")]
        #expect(StationSchedule(shows: [freed]).firstClash(with: once, from: now) == nil)
        once.seasonStart = Self.date("2026-11-24")
        #expect(schedule.firstClash(with: once, from: now) == nil)
    }

    @Test func nowAndNext() {
        let morning = Self.show(id: "morning", zone: "UTC", at: "07:00", minutes: 180, .weekly(interval: 1, weekdays: [.monday, .tuesday], weekStart: .monday), from: "2026-11-01")
        let night = Self.show(id: "night", zone: "UTC", at: "22:00", minutes: 120, .weekly(interval: 2, weekdays: [.tuesday], weekStart: .monday), from: "2026-11-03")
        let schedule = StationSchedule(shows: [morning, night])
        let tuesday8 = ZonedTime.instant(Self.date("2026-11-24"), Self.time("08:00"), in: morning.zone)
        let (current, next) = schedule.nowAndNext(at: tuesday8)
        #expect(current?.showID == "morning")
        #expect(next?.showID == "morning")  // the 24th is an off week for the night show
        #expect(next.map { ZonedTime.local($0.start, in: morning.zone).date.description } == "2026-11-30")
        let (idle, then) = schedule.nowAndNext(at: ZonedTime.instant(Self.date("2026-11-17"), Self.time("12:00"), in: morning.zone))
        #expect(idle == nil)
        #expect(then?.showID == "night")
    }
}
