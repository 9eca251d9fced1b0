import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: AttemptRepository {
    /// How long after its end a lockout is kept (as `AppDatabase` keeps it):
    /// the longest wait any policy escalates to.
    static let lockoutMemory: EpochMillis = 60 * 60 * 1000

    public func saveLockout(limiter: String, _ lockout: AttemptLimiter.Lockout) async throws {
        try await transaction { connection in
            // Lockouts long over go as new ones come, so the table stays small.
            try await connection.query(
                "DELETE FROM attempt_lockout WHERE locked_until < \(lockout.lastFailure - Self.lockoutMemory)",
                logger: logger)
            try await connection.query(
                """
                INSERT INTO attempt_lockout (limiter, key, locked_until, level, last_failure)
                VALUES (\(limiter), \(lockout.key), \(lockout.lockedUntil), \(Int64(lockout.level)), \(lockout.lastFailure))
                ON CONFLICT (limiter, key) DO UPDATE SET locked_until = EXCLUDED.locked_until,
                    level = EXCLUDED.level, last_failure = EXCLUDED.last_failure
                """, logger: logger)
        }
    }

    public func lockouts(activeAt now: EpochMillis) async throws -> [(limiter: String, lockout: AttemptLimiter.Lockout)] {
        try await transaction { connection in
            try await connection.query(
                "DELETE FROM attempt_lockout WHERE locked_until < \(now - Self.lockoutMemory)", logger: logger)
            return try await connection.query(
                "SELECT limiter, key, locked_until, level, last_failure FROM attempt_lockout", logger: logger
            ).all { row in
                (
                    limiter: try row.value("limiter", as: String.self),
                    lockout: AttemptLimiter.Lockout(
                        key: try row.value("key"), lockedUntil: try row.value("locked_until"),
                        level: Int(try row.value("level", as: Int64.self)), lastFailure: try row.value("last_failure"))
                )
            }
        }
    }
}

extension PostgresStore: StreamKeyRepository {
    public func setStreamKey(personID: String, hash: String, at: EpochMillis) async throws {
        try await query(
            """
            INSERT INTO stream_key (person_id, hash, created_at) VALUES (\(personID), \(hash), \(at))
            ON CONFLICT (person_id) DO UPDATE SET hash = EXCLUDED.hash, created_at = EXCLUDED.created_at
            """)
    }

    public func streamKeyHolder(hash: String) async throws -> String? {
        try await query("SELECT person_id FROM stream_key WHERE hash = \(hash)")
            .first { try $0.value("person_id", as: String.self) }
    }

    public func streamKeyCreated(personID: String) async throws -> EpochMillis? {
        try await query("SELECT created_at FROM stream_key WHERE person_id = \(personID)")
            .first { try $0.value("created_at", as: EpochMillis.self) }
    }

    public func removeStreamKey(personID: String) async throws -> Bool {
        try await query(
            "DELETE FROM stream_key WHERE person_id = \(personID) RETURNING 1 AS gone"
        ).first { _ in true } ?? false
    }
}

extension PostgresStore: LinkTokenRepository {
    public func issueLinkToken(
        hash: String, purpose: LinkPurpose, stationID: StationID, personID: String, keep: Int, at: EpochMillis
    ) async throws {
        try await transaction { connection in
            // The newest `keep - 1` stay beside the new one; revoked tokens
            // are deleted, so asking again and again can't grow the table.
            try await connection.query(
                """
                DELETE FROM link_token
                WHERE station_id = \(stationID) AND person_id = \(personID) AND purpose = \(purpose.rawValue)
                  AND hash NOT IN (
                    SELECT hash FROM link_token
                    WHERE station_id = \(stationID) AND person_id = \(personID) AND purpose = \(purpose.rawValue)
                    ORDER BY created_at DESC, seq DESC LIMIT \(max(0, keep - 1)))
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO link_token (hash, station_id, person_id, purpose, created_at)
                VALUES (\(hash), \(stationID), \(personID), \(purpose.rawValue), \(at))
                """, logger: logger)
        }
    }

    public func linkTokenHolder(hash: String, purpose: LinkPurpose) async throws -> (stationID: StationID, personID: String)? {
        try await query(
            "SELECT station_id, person_id FROM link_token WHERE hash = \(hash) AND purpose = \(purpose.rawValue)"
        ).first { (stationID: try $0.value("station_id", as: String.self), personID: try $0.value("person_id", as: String.self)) }
    }

    public func revokeLinkTokens(purpose: LinkPurpose, stationID: StationID, personID: String) async throws -> Int {
        try await query(
            """
            WITH gone AS (
                DELETE FROM link_token
                WHERE station_id = \(stationID) AND person_id = \(personID) AND purpose = \(purpose.rawValue) RETURNING 1)
            SELECT count(*) AS n FROM gone
            """
        ).first { Int(try $0.value("n", as: Int64.self)) } ?? 0
    }
}
