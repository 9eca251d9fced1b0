/// A date on a wall calendar, with no zone: what a show's rule speaks in
/// ("every other Tuesday"). Kept as a day number since 1970-01-01, so
/// stepping and comparing days is integer arithmetic, free of any calendar
/// library's idea of the current zone.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var dayNumber: Int

    public init(dayNumber: Int) {
        self.dayNumber = dayNumber
    }

    /// nil when the date doesn't exist (February 30th).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= Self.daysIn(year: year, month: month)
        else { return nil }
        dayNumber = Self.days(year: year, month: month, day: day)
    }

    /// "2026-11-24"; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var year: Int { Self.civil(dayNumber).year }
    public var month: Int { Self.civil(dayNumber).month }
    public var day: Int { Self.civil(dayNumber).day }
    /// 1970-01-01 was a Thursday.
    public var weekday: Weekday { Weekday.allCases[((dayNumber + 3) % 7 + 7) % 7] }
    public var daysInMonth: Int { Self.daysIn(year: year, month: month) }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    public var description: String {
        let (y, m, d) = Self.civil(dayNumber)
        return Self.pad(y, 4) + "-" + Self.pad(m, 2) + "-" + Self.pad(d, 2)
    }

    /// "20261124", as iCalendar writes dates.
    public var basicFormat: String { description.replacingOccurrences(of: "-", with: "") }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.dayNumber < b.dayNumber }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil and civil_from_days (proleptic Gregorian).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(_ dayNumber: Int) -> (year: Int, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A day of the week, named as iCalendar names them.
public enum Weekday: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case monday = "MO", tuesday = "TU", wednesday = "WE", thursday = "TH", friday = "FR", saturday = "SA", sunday = "SU"

    /// Monday 0 ... Sunday 6.
    public var index: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.index < b.index }
}

/// A time of day on the wall clock, in minutes since midnight.
public struct LocalTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var minute: Int

    public init?(minute: Int) {
        guard (0..<1440).contains(minute) else { return nil }
        self.minute = minute
    }

    /// "22:00"; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.count == 5, parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        self.minute = hour * 60 + minute
    }

    public var description: String { LocalDate.pad(minute / 60, 2) + ":" + LocalDate.pad(minute % 60, 2) }

    public static func < (a: LocalTime, b: LocalTime) -> Bool { a.minute < b.minute }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let time = LocalTime(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a time: \(text)"))
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
