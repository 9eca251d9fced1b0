import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: AttemptRepository {
    /// How long after its end a lockout is kept: the longest wait any policy
    /// escalates to, after which a quiet key's escalation is forgotten.
    static let lockoutMemory: EpochMillis = 60 * 60 * 1000

    public func saveLockout(limiter: String, _ lockout: AttemptLimiter.Lockout) async throws {
        try await writer.write { db in
            // Lockouts long over go as new ones come, so the table stays small.
            try db.execute(
                sql: "DELETE FROM attemptLockout WHERE lockedUntil < ?",
                arguments: [lockout.lastFailure - Self.lockoutMemory])
            try db.execute(
                sql: """
                    INSERT INTO attemptLockout (limiter, key, lockedUntil, level, lastFailure) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (limiter, key) DO UPDATE SET lockedUntil = excluded.lockedUntil,
                        level = excluded.level, lastFailure = excluded.lastFailure
                    """,
                arguments: [limiter, lockout.key, lockout.lockedUntil, lockout.level, lockout.lastFailure])
        }
    }

    public func lockouts(activeAt now: EpochMillis) async throws
        -> [(limiter: String, lockout: AttemptLimiter.Lockout)]
    {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM attemptLockout WHERE lockedUntil < ?", arguments: [now - Self.lockoutMemory])
            return try Row.fetchAll(db, sql: "SELECT * FROM attemptLockout").map { row in
                (
                    row["limiter"],
                    AttemptLimiter.Lockout(
                        key: row["key"], lockedUntil: row["lockedUntil"], level: row["level"],
                        lastFailure: row["lastFailure"])
                )
            }
        }
    }
}
