import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: HistoryRepository {
    public func plays(stationID: StationID, matching search: PlaySearch) async throws -> [Play] {
        // Words match as find-as-you-type's do (the library's folded words);
        // words that make none (only punctuation) match nothing.
        let words = search.text.map { Array(SearchWords.of(String($0.prefix(200))).prefix(16)) }
        if let words, words.isEmpty { return [] }
        let patterns = (words ?? []).map { "% \($0)%" }
        return try await query(
            """
            SELECT entry_id, track_id, start_at, duration, start_offset, source, why, listeners FROM play
            WHERE station_id = \(stationID) AND start_at < \(search.before ?? .max) AND start_at >= \(search.from ?? .min)
              AND (\(patterns.isEmpty) OR track_id IN (
                SELECT id FROM track
                WHERE (words_title || words_artist || words_album || words_album_artist) LIKE ALL(\(patterns))))
            ORDER BY start_at DESC LIMIT \(search.limit)
            """
        ).all(Self.play)
    }

    public func play(stationID: StationID, at instant: EpochMillis) async throws -> Play? {
        // The latest play that started by then, if it was still playing.
        let latest = try await query(
            """
            SELECT entry_id, track_id, start_at, duration, start_offset, source, why, listeners FROM play
            WHERE station_id = \(stationID) AND start_at <= \(instant) ORDER BY start_at DESC LIMIT 1
            """
        ).first(Self.play)
        return latest.flatMap { $0.entry.start + $0.entry.duration > instant ? $0 : nil }
    }

    static func play(_ row: PostgresRandomAccessRow) throws -> Play {
        Play(entry: try StationRows.entry(row, id: "entry_id"), listeners: try row.value("listeners", as: Int64?.self).map { Int($0) })
    }

    public func recordAudience(stationID: StationID, minutes: [ListenerMinute]) async throws {
        try await transaction { connection in
            for m in minutes {
                try await connection.query(
                    """
                    INSERT INTO listener_minute (station_id, minute, peak, listener_millis, departures, stay_millis)
                    VALUES (\(stationID), \(m.minute), \(Int64(m.peak)), \(m.listenerMillis), \(Int64(m.departures)), \(m.stayMillis))
                    ON CONFLICT (station_id, minute) DO UPDATE SET
                        peak = greatest(listener_minute.peak, EXCLUDED.peak),
                        listener_millis = listener_minute.listener_millis + EXCLUDED.listener_millis,
                        departures = listener_minute.departures + EXCLUDED.departures,
                        stay_millis = listener_minute.stay_millis + EXCLUDED.stay_millis
                    """, logger: logger)
            }
        }
    }

    public func audience(stationID: StationID, from: EpochMillis, to: EpochMillis) async throws -> [ListenerMinute] {
        try await query(
            """
            SELECT minute, peak, listener_millis, departures, stay_millis FROM listener_minute
            WHERE station_id = \(stationID) AND minute >= \(from) AND minute < \(to) ORDER BY minute
            """
        ).all { row in
            ListenerMinute(
                minute: try row.value("minute"), peak: Int(try row.value("peak", as: Int64.self)),
                listenerMillis: try row.value("listener_millis"), departures: Int(try row.value("departures", as: Int64.self)),
                stayMillis: try row.value("stay_millis"))
        }
    }
}
