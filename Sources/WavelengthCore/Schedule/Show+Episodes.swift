import Foundation

/// Expanding a show's rule into episodes. Each day is tested against the
/// rule on its own (is it one of the rule's weekdays, in a counted week or
/// month, inside the season?), so a window anywhere in the future costs only
/// its own days, and DST can't shift which day an episode falls on.
extension Show {
    /// The zone, or UTC when the identifier is unknown (validation refuses
    /// those before a show is saved).
    public var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")! }

    /// The first day the rule gives on or after the season's start: the
    /// recurrence's DTSTART, from which weeks and months are counted.
    public var firstDate: LocalDate? {
        switch repeats {
        case .once:
            return seasonStart
        case .weekly(_, let weekdays, _):
            guard !weekdays.isEmpty else { return nil }
            return (0..<7).map { seasonStart.adding(days: $0) }.first { weekdays.contains($0.weekday) }
                .flatMap { seasonEnd == nil || $0 <= seasonEnd! ? $0 : nil }
        case .monthly(_, let weekday, let ordinal):
            // Within 15 months there is always a month with a 5th of it.
            var day = seasonStart
            for _ in 0..<460 {
                if let end = seasonEnd, day > end { return nil }
                if day.weekday == weekday, Self.isOrdinal(day, ordinal) { return day }
                day = day.adding(days: 1)
            }
            return nil
        }
    }

    /// Whether the rule puts an episode on `day`, before exceptions.
    public func occurs(on day: LocalDate, first: LocalDate?) -> Bool {
        guard let first, day >= first else { return false }
        if let end = seasonEnd, day > end { return false }
        switch repeats {
        case .once:
            return day == first
        case .weekly(let interval, let weekdays, let weekStart):
            guard weekdays.contains(day.weekday) else { return false }
            let origin = first.adding(days: -((first.weekday.index - weekStart.index + 7) % 7))
            let week = (day.dayNumber - origin.dayNumber) / 7
            return week % max(1, interval) == 0
        case .monthly(let interval, let weekday, let ordinal):
            guard day.weekday == weekday, Self.isOrdinal(day, ordinal) else { return false }
            let months = (day.year * 12 + day.month) - (first.year * 12 + first.month)
            return months % max(1, interval) == 0
        }
    }

    static func isOrdinal(_ day: LocalDate, _ ordinal: Int) -> Bool {
        ordinal == -1 ? day.day + 7 > day.daysInMonth : (day.day - 1) / 7 + 1 == ordinal
    }

    /// The episode the rule gives on `day`, with its exceptions applied:
    /// nil when cancelled, at its new time when moved.
    func episode(on day: LocalDate) -> Episode? {
        guard !cancelled.contains(day) else { return nil }
        let zone = zone
        let start = ZonedTime.instant(day, startTime, in: zone)
        if let move = moved.first(where: { $0.original == day }) {
            let moved = ZonedTime.instant(move.date, move.time, in: zone)
            return Episode(
                showID: id, start: moved, end: moved + EpochMillis(move.durationMinutes) * 60_000, originalStart: start,
                originalDate: day, moved: true)
        }
        return Episode(
            showID: id, start: start, end: start + EpochMillis(durationMinutes) * 60_000, originalStart: start,
            originalDate: day, moved: false)
    }

    /// Episodes that overlap `from..<to`, by start.
    public func episodes(overlapping from: EpochMillis, _ to: EpochMillis) -> [Episode] {
        guard from < to, let first = firstDate else { return [] }
        let zone = zone
        // Days whose episode could reach into the window: a show lasts at
        // most half a day, and zones are at most 14 hours off.
        let lower = max(ZonedTime.local(from, in: zone).date.adding(days: -2), first)
        var upper = ZonedTime.local(to, in: zone).date.adding(days: 1)
        if let end = seasonEnd { upper = min(upper, end) }
        var found: [Episode] = []
        if lower <= upper {
            for number in lower.dayNumber...upper.dayNumber {
                let day = LocalDate(dayNumber: number)
                guard occurs(on: day, first: first), moved.first(where: { $0.original == day }) == nil,
                    let episode = episode(on: day), episode.start < to, episode.end > from
                else { continue }
                found.append(episode)
            }
        }
        // A moved episode can land anywhere.
        for move in moved where occurs(on: move.original, first: first) {
            if let episode = episode(on: move.original), episode.start < to, episode.end > from {
                found.append(episode)
            }
        }
        return found.sorted { ($0.start, $0.originalStart) < ($1.start, $1.originalStart) }
    }

    /// The next `count` episodes that end after `now`, looking at most
    /// `years` ahead.
    public func upcoming(after now: EpochMillis, count: Int, years: Int = 6) -> [Episode] {
        var found: [Episode] = []
        var from = now
        let horizon = now + EpochMillis(years) * 366 * 86_400_000
        // A quarter of a year at a time, so a weekly show reads a few
        // months of days, not six years of them.
        while found.count < count, from < horizon {
            let to = min(horizon, from + 92 * 86_400_000)
            found += episodes(overlapping: from, to).filter { $0.start >= from || from == now }
            from = to
        }
        return Array(found.prefix(count))
    }

    /// The last `count` episodes that started before `now`, newest first,
    /// looking at most `days` back.
    public func past(before now: EpochMillis, count: Int, days: Int = 400) -> [Episode] {
        var found: [Episode] = []
        var to = now
        let floor = now - EpochMillis(days) * 86_400_000
        while found.count < count, to > floor {
            let from = max(floor, to - 92 * 86_400_000)
            // Windows go back in time, and each keeps the episodes that
            // start inside it, so none is counted twice.
            found += episodes(overlapping: from, to).filter { $0.start >= from && $0.start < to }
            to = from
        }
        return Array(found.sorted { $0.start > $1.start }.prefix(count))
    }
}
