import PostgresNIO
import WavelengthCore
import WavelengthStore

/// Listener presence on PostgreSQL: a row per station and node in
/// `station_presence`, timed on PostgreSQL's clock like the leases (nodes'
/// clocks never decide).
extension PostgresStore: ListenerPresence {
    public func reportPresence(_ listeners: [StationID: Int], for seconds: Double) async throws {
        guard let node else { return }
        let reported = listeners.filter { $0.value > 0 && $0.key.utf8.count <= ClusterSignal.maxIDLength }
        let ids = Array(reported.keys)
        let counts = ids.map { Int32(clamping: reported[$0]!) }
        try await transaction { connection in
            try await connection.query(
                """
                DELETE FROM station_presence
                WHERE node_id = \(node.id) AND NOT (station_id = ANY(\(ids)::text[]))
                """, logger: logger)
            guard !ids.isEmpty else { return }
            try await connection.query(
                """
                INSERT INTO station_presence (station_id, node_id, listeners, expires_at)
                SELECT station_id, \(node.id), listeners, clock_timestamp() + make_interval(secs => \(seconds))
                FROM unnest(\(ids)::text[], \(counts)::integer[]) AS r(station_id, listeners)
                ON CONFLICT (station_id, node_id)
                DO UPDATE SET listeners = EXCLUDED.listeners, expires_at = EXCLUDED.expires_at
                """, logger: logger)
        }
    }

    public func presence(of stations: Set<StationID>) async throws -> [StationID: [String: Int]] {
        guard !stations.isEmpty else { return [:] }
        let ids = Array(stations)
        var found: [StationID: [String: Int]] = [:]
        let rows = try await query(
            """
            SELECT station_id, node_id, listeners FROM station_presence
            WHERE station_id = ANY(\(ids)::text[]) AND node_id <> \(node?.id ?? "")
              AND expires_at > clock_timestamp()
            """)
        for row in try rows.all({ row in
            (try row.value("station_id", as: String.self), try row.value("node_id", as: String.self),
             Int(try row.value("listeners", as: Int32.self)))
        }) {
            found[row.0, default: [:]][row.1] = row.2
        }
        return found
    }
}
