import Foundation

/// A schedule as an iCalendar feed (RFC 5545), for calendar apps to
/// subscribe to: the way a listener is reminded of a show while our app is
/// closed. Each show is one recurring event with a stable UID; cancelled
/// episodes are EXDATEs and moved ones are overrides with a RECURRENCE-ID,
/// so a calendar expands exactly the episodes `Show+Episodes` does.
public struct CalendarFeed: Sendable {
    public var name: String
    public var shows: [Show]
    /// Display names of hosts, by person id.
    public var hostNames: [String: String]
    /// Where a show's page is, by show id, for the event's URL.
    public var pageURL: @Sendable (Show) -> String?
    /// When the zones' daylight-saving transitions are written from and to.
    public var now: EpochMillis

    public init(
        name: String, shows: [Show], hostNames: [String: String] = [:], now: EpochMillis,
        pageURL: @escaping @Sendable (Show) -> String? = { _ in nil }
    ) {
        self.name = name
        self.shows = shows
        self.hostNames = hostNames
        self.now = now
        self.pageURL = pageURL
    }

    public func render() -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Wavelength//Schedule//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:" + Self.text(name),
        ]
        let shows = shows.filter { $0.firstDate != nil }
        for zone in Set(shows.map(\.timeZone)).sorted() {
            let inZone = shows.filter { $0.timeZone == zone }
            let from = inZone.map { ZonedTime.instant($0.firstDate!, $0.startTime, in: $0.zone) }.min()!
            lines += timeZone(inZone[0].zone, from: min(from, now) - 400 * 86_400_000, to: now + 6 * 366 * 86_400_000)
        }
        for show in shows { lines += events(show) }
        lines.append("END:VCALENDAR")
        return lines.map(Self.fold).joined(separator: "\r\n") + "\r\n"
    }

    func events(_ show: Show) -> [String] {
        let first = show.firstDate!
        let zone = show.zone
        let tzid = "TZID=" + Self.parameter(show.timeZone)
        let uid = "UID:show-\(show.id)@wavelength"
        let stamp = "DTSTAMP:" + Self.utc(show.updatedAt)
        var common = ["SUMMARY:" + Self.text(show.name)]
        var about = show.description
        let hosts = show.hostIDs.compactMap { hostNames[$0] }
        if !hosts.isEmpty { about += (about.isEmpty ? "" : "\n\n") + "Hosted by " + hosts.joined(separator: ", ") }
        if !about.isEmpty { common.append("DESCRIPTION:" + Self.text(about)) }
        if !show.genre.isEmpty { common.append("CATEGORIES:" + Self.text(show.genre)) }
        if let url = pageURL(show) { common.append("URL:" + url) }

        var main = ["BEGIN:VEVENT", uid, stamp, "DTSTART;\(tzid):" + Self.local(first, show.startTime)]
        main.append("DURATION:PT\(show.durationMinutes)M")
        if let rule = rule(show, zone: zone) { main.append("RRULE:" + rule) }
        let cancelled = show.cancelled.filter { show.occurs(on: $0, first: first) }.sorted()
        if !cancelled.isEmpty {
            main.append("EXDATE;\(tzid):" + cancelled.map { Self.local($0, show.startTime) }.joined(separator: ","))
        }
        main += common + ["END:VEVENT"]
        for move in show.moved.sorted(by: { $0.original < $1.original })
        where show.occurs(on: move.original, first: first) && !show.cancelled.contains(move.original) {
            main += [
                "BEGIN:VEVENT", uid, stamp, "RECURRENCE-ID;\(tzid):" + Self.local(move.original, show.startTime),
                "DTSTART;\(tzid):" + Self.local(move.date, move.time), "DURATION:PT\(move.durationMinutes)M",
            ] + common + ["END:VEVENT"]
        }
        return main
    }

    func rule(_ show: Show, zone: TimeZone) -> String? {
        var parts: [String]
        switch show.repeats {
        case .once:
            return nil
        case .weekly(let interval, let weekdays, let weekStart):
            parts = [
                "FREQ=WEEKLY", "INTERVAL=\(interval)", "BYDAY=" + weekdays.sorted().map(\.rawValue).joined(separator: ","),
                "WKST=" + weekStart.rawValue,
            ]
        case .monthly(let interval, let weekday, let ordinal):
            parts = ["FREQ=MONTHLY", "INTERVAL=\(interval)", "BYDAY=\(ordinal)\(weekday.rawValue)"]
        }
        // UNTIL is in UTC when DTSTART has a zone, and is inclusive: the
        // last day's start itself.
        if let end = show.seasonEnd { parts.append("UNTIL=" + Self.utc(ZonedTime.instant(end, show.startTime, in: zone))) }
        return parts.joined(separator: ";")
    }

    /// A VTIMEZONE with one observance per transition in `from...to`, read
    /// from the system's zone data (so no rule is guessed); a zone without
    /// daylight saving gets its one standard offset.
    func timeZone(_ zone: TimeZone, from: EpochMillis, to: EpochMillis) -> [String] {
        let lines = ["BEGIN:VTIMEZONE", "TZID:" + Self.parameter(zone.identifier)]
        var at = Date(timeIntervalSince1970: Double(from) / 1000)
        let end = Date(timeIntervalSince1970: Double(to) / 1000)
        var observances: [[String]] = []
        while let next = zone.nextDaylightSavingTimeTransition(after: at), next <= end, observances.count < 40 {
            let seconds = Int64(next.timeIntervalSince1970.rounded())
            let before = ZonedTime.offset(zone, at: seconds - 1)
            let after = ZonedTime.offset(zone, at: seconds)
            let wall = seconds + before
            let day = LocalDate(dayNumber: Int(ZonedTime.floorDiv(wall, 86_400)))
            let second = wall - Int64(day.dayNumber) * 86_400
            let kind = zone.isDaylightSavingTime(for: next) ? "DAYLIGHT" : "STANDARD"
            observances.append([
                "BEGIN:\(kind)", "DTSTART:" + day.basicFormat + "T" + Self.hms(Int(second)),
                "TZOFFSETFROM:" + Self.offset(before), "TZOFFSETTO:" + Self.offset(after),
                "TZNAME:" + Self.text(zone.abbreviation(for: next) ?? zone.identifier), "END:\(kind)",
            ])
            at = next.addingTimeInterval(1)
        }
        if observances.isEmpty {
            let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(from) / 1000)))
            observances.append([
                "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:" + Self.offset(offset),
                "TZOFFSETTO:" + Self.offset(offset), "TZNAME:" + Self.text(zone.abbreviation() ?? zone.identifier),
                "END:STANDARD",
            ])
        }
        return lines + observances.flatMap { $0 } + ["END:VTIMEZONE"]
    }

    // MARK: Formatting

    static func local(_ date: LocalDate, _ time: LocalTime) -> String {
        date.basicFormat + "T" + hms(time.minute * 60)
    }

    static func hms(_ seconds: Int) -> String {
        LocalDate.pad(seconds / 3600, 2) + LocalDate.pad(seconds / 60 % 60, 2) + LocalDate.pad(seconds % 60, 2)
    }

    static func utc(_ instant: EpochMillis) -> String {
        let (date, _) = ZonedTime.local(instant, in: TimeZone(identifier: "UTC")!)
        let seconds = ZonedTime.floorDiv(instant, 1000) - Int64(date.dayNumber) * 86_400
        return date.basicFormat + "T" + hms(Int(seconds)) + "Z"
    }

    static func offset(_ seconds: Int64) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = Int(abs(seconds))
        let text = LocalDate.pad(magnitude / 3600, 2) + LocalDate.pad(magnitude / 60 % 60, 2)
        return sign + text + (magnitude % 60 == 0 ? "" : LocalDate.pad(magnitude % 60, 2))
    }

    /// A TEXT value: backslash, semicolon, comma and newline escaped, other
    /// control characters dropped (they would end the line).
    static func text(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A parameter value (a zone id): quoted when it holds `:;,`.
    static func parameter(_ value: String) -> String {
        let clean = String(value.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\"" })
        return clean.contains(where: { ":;,".contains($0) }) ? "\"\(clean)\"" : clean
    }

    /// Lines longer than 75 octets continue on the next line after a space,
    /// never splitting a UTF-8 character.
    static func fold(_ line: String) -> String {
        var out = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            if octets + size > 75 {
                out += "\r\n "
                octets = 1
            }
            out.append(character)
            octets += size
        }
        return out
    }
}
