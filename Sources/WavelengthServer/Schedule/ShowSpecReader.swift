import Foundation
import WavelengthCore
import WavelengthWire

/// Turns an editor's `ShowSpec` into a `Show`, or says which field is wrong.
/// Host handles are resolved by the caller (they need storage).
enum ShowSpecReader {
    static func show(
        _ spec: ShowSpec, id: ShowID, stationID: StationID, hostIDs: [String], updatedAt: EpochMillis
    ) throws -> Show {
        let name = spec.name.trimmingCharacters(in: .whitespacesAndNewlines)
        try check(ScheduleLimits.nameLength.contains(name.count), "A show's name has 1 to 80 characters.")
        let description = spec.description ?? ""
        try check(ScheduleLimits.descriptionLength.contains(description.count), "A description has at most 2,000 characters.")
        let genre = (spec.genre ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        try check(ScheduleLimits.genreLength.contains(genre.count), "A genre has at most 60 characters.")
        try check(
            spec.artTrackID.map { !$0.isEmpty && $0.utf8.count <= WireLimits.maxIDLength } ?? true,
            "artTrackID is not a track id.")
        try check(
            spec.timeZone.utf8.count <= 64 && TimeZone(identifier: spec.timeZone) != nil,
            "timeZone must be a zone like America/Los_Angeles.")
        guard let startTime = LocalTime(spec.startTime) else { throw bad("startTime must be a time like 22:00.") }
        try check(
            ScheduleLimits.durationMinutes.contains(spec.durationMinutes), "durationMinutes is from 5 to 720 (12 hours).")
        guard let seasonStart = LocalDate(spec.seasonStart) else { throw bad("seasonStart must be a date like 2026-09-22.") }
        let seasonEnd = try spec.seasonEnd.map { text in
            guard let date = LocalDate(text) else { throw bad("seasonEnd must be a date like 2027-06-10.") }
            return date
        }
        if let seasonEnd { try check(seasonEnd >= seasonStart, "The season ends on or after the day it starts.") }
        let cancelled = try (spec.cancelled ?? []).map { text in
            guard let date = LocalDate(text) else { throw bad("Each cancelled episode is a date like 2026-11-24.") }
            return date
        }
        let moved = try (spec.moved ?? []).map { move in
            guard let original = LocalDate(move.date) else { throw bad("A moved episode's date is like 2026-12-01.") }
            let parts = move.start.split(separator: "T")
            guard parts.count == 2, let date = LocalDate(parts[0]), let time = LocalTime(parts[1]) else {
                throw bad("A moved episode's start is like 2026-12-02T20:00.")
            }
            let minutes = move.durationMinutes ?? spec.durationMinutes
            try check(ScheduleLimits.durationMinutes.contains(minutes), "A moved episode lasts 5 to 720 minutes.")
            return MovedEpisode(original: original, date: date, time: time, durationMinutes: minutes)
        }
        try check(
            cancelled.count + moved.count <= ScheduleLimits.maxExceptions,
            "A show has at most 500 cancelled and moved episodes.")
        try check(Set(moved.map(\.original)).count == moved.count, "An episode is moved once.")
        try check(hostIDs.count <= ScheduleLimits.maxHosts, "A show has at most 10 hosts.")
        let pool = spec.pool ?? []
        try check(pool.count <= ScheduleLimits.maxPoolTracks, "A show's pool has at most 1,000 tracks.")
        try check(
            pool.allSatisfy { !$0.isEmpty && $0.utf8.count <= WireLimits.maxIDLength }, "Each pool entry is a track id.")
        let show = Show(
            id: id, stationID: stationID, name: name, description: description, genre: genre, artTrackID: spec.artTrackID,
            hostIDs: hostIDs, timeZone: spec.timeZone, startTime: startTime, durationMinutes: spec.durationMinutes,
            repeats: try repeats(spec.repeat), seasonStart: seasonStart, seasonEnd: seasonEnd,
            cancelled: Array(Set(cancelled)).sorted(), moved: moved, pool: unique(pool),
            updatedAt: updatedAt)
        try check(show.firstDate != nil, "No episode falls inside the season: check its days and dates.")
        return show
    }

    static func unique(_ ids: [TrackID]) -> [TrackID] {
        var seen: Set<TrackID> = []
        return ids.filter { seen.insert($0).inserted }
    }

    static func repeats(_ spec: ShowSpec.RepeatSpec) throws -> ShowRepeat {
        let interval = spec.interval ?? 1
        switch spec.kind {
        case "once":
            return .once
        case "weekly":
            try check(ScheduleLimits.interval.contains(interval), "repeat.interval is from 1 to 12.")
            let days = try (spec.weekdays ?? []).map(weekday)
            try check(!days.isEmpty && days.count <= 7, "A weekly show airs on at least one day: repeat.weekdays.")
            return .weekly(
                interval: interval, weekdays: Array(Set(days)).sorted(), weekStart: try spec.weekStart.map(weekday) ?? .monday)
        case "monthly":
            try check(ScheduleLimits.interval.contains(interval), "repeat.interval is from 1 to 12.")
            guard let day = spec.weekday else { throw bad("A monthly show names its repeat.weekday.") }
            let ordinal = spec.ordinal ?? 1
            try check((1...5).contains(ordinal) || ordinal == -1, "repeat.ordinal is 1 to 5, or -1 for the last.")
            return .monthly(interval: interval, weekday: try weekday(day), ordinal: ordinal)
        default:
            throw bad("repeat.kind is once, weekly or monthly.")
        }
    }

    static func weekday(_ text: String) throws -> Weekday {
        guard let day = Weekday(rawValue: text) else { throw bad("Days are MO, TU, WE, TH, FR, SA or SU.") }
        return day
    }

    static func check(_ condition: Bool, _ message: String) throws {
        if !condition { throw bad(message) }
    }

    static func bad(_ message: String) -> APIError { APIError.badRequest(message) }
}
