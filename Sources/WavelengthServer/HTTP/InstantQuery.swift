import Foundation
import Hummingbird
import WavelengthCore

/// Instants in query strings, as people and widgets write them: epoch
/// milliseconds, or ISO 8601 local time ("2026-11-24T21:41", seconds
/// optional, a date alone is its midnight) read in `zone` unless it names
/// its own offset ("Z", "+01:00").
enum InstantQuery {
    static func parse(_ text: String, zone: TimeZone) -> EpochMillis? {
        guard text.utf8.count <= 40 else { return nil }
        if let millis = Int64(text) { return millis }
        let pattern = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?(Z|[+-]\d{2}:?\d{2})?$/
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        if let offset = match.7 {
            guard let fixed = offsetZone(String(offset)) else { return nil }
            calendar.timeZone = fixed
        }
        let parts = DateComponents(
            year: Int(match.1), month: Int(match.2), day: Int(match.3), hour: match.4.flatMap { Int($0) } ?? 0,
            minute: match.5.flatMap { Int($0) } ?? 0, second: match.6.flatMap { Int($0) } ?? 0)
        guard let month = parts.month, (1...12).contains(month), let day = parts.day, (1...31).contains(day),
            let hour = parts.hour, hour < 24, let minute = parts.minute, minute < 60, let second = parts.second,
            second < 60, let date = calendar.date(from: parts),
            calendar.component(.day, from: date) == day
        else { return nil }
        return EpochMillis((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func offsetZone(_ text: String) -> TimeZone? {
        if text == "Z" { return TimeZone(identifier: "UTC") }
        let digits = text.dropFirst().filter(\.isNumber)
        guard digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)), hours < 24,
            minutes < 60
        else { return nil }
        let seconds = (hours * 3600 + minutes * 60) * (text.first == "-" ? -1 : 1)
        return TimeZone(secondsFromGMT: seconds)
    }

    /// The zone named by `tz` (an IANA name such as "America/Los_Angeles"),
    /// UTC when absent.
    static func zone(_ name: String?) throws -> TimeZone {
        guard let name else { return TimeZone(identifier: "UTC")! }
        guard name.utf8.count <= 64, let zone = TimeZone(identifier: name) else {
            throw APIError.badRequest("tz must be a time zone name such as Europe/Oslo.")
        }
        return zone
    }
}

extension Request {
    /// An instant query parameter (`InstantQuery`), or a 400 saying how to write one.
    func instantQuery(_ name: String, zone: TimeZone) throws -> EpochMillis? {
        guard let raw = queryValue(name) else { return nil }
        guard let instant = InstantQuery.parse(raw, zone: zone) else {
            throw APIError.badRequest(
                "Query parameter \(name) must be a time like 2026-11-24T21:41 (with tz, or an offset) or epoch milliseconds.")
        }
        return instant
    }
}
