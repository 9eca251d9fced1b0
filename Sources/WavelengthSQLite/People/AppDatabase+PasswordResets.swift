import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: PasswordResetRepository {
    public func issuePasswordReset(tokenHash: String, personID: String, expiresAt: EpochMillis, audit: AuditEntry) async throws
        -> Bool
    {
        try await writer.write { db in
            guard try PersonRecord.fetchOne(db, key: personID)?.kind == .user else { return false }
            // One live link at a time: an earlier one stops working.
            try db.execute(
                sql: "UPDATE passwordReset SET usedAt = ? WHERE personID = ? AND usedAt IS NULL", arguments: [audit.at, personID])
            try db.execute(
                sql: "INSERT INTO passwordReset (tokenHash, personID, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, personID, audit.at, expiresAt])
            try Self.insert(audit, db)
            return true
        }
    }

    public func passwordResetHolder(tokenHash: String, at now: EpochMillis) async throws -> PersonRecord? {
        try await writer.read { db in
            try PersonRecord.fetchOne(
                db,
                sql: """
                    SELECT person.* FROM passwordReset JOIN person ON person.id = passwordReset.personID
                    WHERE tokenHash = ? AND usedAt IS NULL AND expiresAt > ?
                    """, arguments: [tokenHash, now])
        }
    }

    public func redeemPasswordReset(tokenHash: String, newPasswordHash: String, at now: EpochMillis) async throws -> PersonRecord? {
        try await writer.write { db in
            guard
                let personID = try String.fetchOne(
                    db, sql: "SELECT personID FROM passwordReset WHERE tokenHash = ? AND usedAt IS NULL AND expiresAt > ?",
                    arguments: [tokenHash, now])
            else { return nil }
            try db.execute(sql: "UPDATE passwordReset SET usedAt = ? WHERE tokenHash = ?", arguments: [now, tokenHash])
            try db.execute(sql: "UPDATE person SET passwordHash = ? WHERE id = ?", arguments: [newPasswordHash, personID])
            try db.execute(
                sql: "UPDATE authSession SET revokedAt = ? WHERE personID = ? AND revokedAt IS NULL", arguments: [now, personID])
            return try PersonRecord.fetchOne(db, key: personID)
        }
    }
}
