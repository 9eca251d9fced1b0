import Foundation

/// Wall-clock times in a time zone, turned into instants the way RFC 5545
/// says (section 3.3.5): a time that happens twice when the clocks go back
/// is the first of the two, and a time that never happens when they go
/// forward is read with the offset from before the gap (2:30 becomes 3:30).
/// Foundation's calendar has its own policies for both; these are spelled
/// out here so a 2 AM show is where the RFC, and every calendar app, puts it.
public enum ZonedTime {
    public static func instant(_ date: LocalDate, _ time: LocalTime, in zone: TimeZone) -> EpochMillis {
        let wall = Int64(date.dayNumber) * 86_400 + Int64(time.minute) * 60
        let before = offset(zone, at: wall - 86_400)
        let after = offset(zone, at: wall + 86_400)
        // A wall time is real under an offset when that offset is in force
        // at the instant it names.
        let real = [wall - before, wall - after].filter { offset(zone, at: $0) == wall - $0 }
        let seconds = real.min() ?? (wall - before)
        return seconds * 1000
    }

    /// The wall-clock date and time of an instant in `zone`.
    public static func local(_ instant: EpochMillis, in zone: TimeZone) -> (date: LocalDate, time: LocalTime) {
        let seconds = floorDiv(instant, 1000)
        let wall = seconds + offset(zone, at: seconds)
        let day = floorDiv(wall, 86_400)
        let minute = Int((wall - day * 86_400) / 60)
        return (LocalDate(dayNumber: Int(day)), LocalTime(minute: minute)!)
    }

    static func offset(_ zone: TimeZone, at seconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
