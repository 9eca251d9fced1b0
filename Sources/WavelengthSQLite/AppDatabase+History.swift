import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: HistoryRepository {
    public func plays(stationID: StationID, matching search: PlaySearch) async throws -> [Play] {
        let pattern = search.text.map { FTS5Pattern(matchingAllPrefixesIn: String($0.prefix(200))) }
        // Words that make no pattern (only punctuation) match nothing.
        if case .some(.none) = pattern { return [] }
        return try await writer.read { db in
            var conditions = ["play.stationID = ?"]
            var arguments: StatementArguments = [stationID]
            if let before = search.before {
                conditions.append("play.start < ?")
                _ = arguments.append(contentsOf: [before])
            }
            if let from = search.from {
                conditions.append("play.start >= ?")
                _ = arguments.append(contentsOf: [from])
            }
            if case .some(.some(let pattern)) = pattern {
                // The library's own index: title, artist and album words.
                conditions.append(
                    "play.trackID IN (SELECT track.id FROM track JOIN track_search ON track_search.rowid = track.rowid WHERE track_search MATCH ?)")
                _ = arguments.append(contentsOf: [pattern])
            }
            _ = arguments.append(contentsOf: [search.limit])
            return try PlayRecord.fetchAll(
                db,
                sql: "SELECT play.* FROM play WHERE \(conditions.joined(separator: " AND ")) ORDER BY play.start DESC LIMIT ?",
                arguments: arguments
            ).map(\.play)
        }
    }

    public func play(stationID: StationID, at instant: EpochMillis) async throws -> Play? {
        try await writer.read { db in
            // The latest play that started by then, if it was still playing.
            try PlayRecord
                .filter(Column("stationID") == stationID && Column("start") <= instant)
                .order(Column("start").desc)
                .fetchOne(db)
                .flatMap { $0.start + $0.duration > instant ? $0.play : nil }
        }
    }

    public func recordAudience(stationID: StationID, minutes: [ListenerMinute]) async throws {
        try await writer.write { db in
            for minute in minutes {
                try db.execute(
                    sql: """
                        INSERT INTO listenerMinute (stationID, minute, peak, listenerMillis, departures, stayMillis)
                        VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (stationID, minute) DO UPDATE SET
                            peak = max(peak, excluded.peak),
                            listenerMillis = listenerMillis + excluded.listenerMillis,
                            departures = departures + excluded.departures,
                            stayMillis = stayMillis + excluded.stayMillis
                        """,
                    arguments: [
                        stationID, minute.minute, minute.peak, minute.listenerMillis, minute.departures, minute.stayMillis,
                    ])
            }
        }
    }

    public func audience(stationID: StationID, from: EpochMillis, to: EpochMillis) async throws -> [ListenerMinute] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT minute, peak, listenerMillis, departures, stayMillis FROM listenerMinute
                    WHERE stationID = ? AND minute >= ? AND minute < ? ORDER BY minute
                    """,
                arguments: [stationID, from, to]
            ).map { row in
                ListenerMinute(
                    minute: row["minute"], peak: row["peak"], listenerMillis: row["listenerMillis"],
                    departures: row["departures"], stayMillis: row["stayMillis"])
            }
        }
    }
}
