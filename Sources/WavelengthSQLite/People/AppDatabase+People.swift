import WavelengthStore
import Foundation
import GRDB
import WavelengthCore

extension AppDatabase: PeopleRepository {
    public func createAccount(
        _ person: PersonRecord, station: StationRecord, upgrading: Bool, now: EpochMillis, band: FrequencyBand
    ) async throws -> FrequencyAssignment {
        do {
            return try await writer.write { db in
                if upgrading {
                    try person.update(db)
                } else {
                    try person.insert(db)
                }
                var station = station
                let allocation = try frequencyDraw.draw { rng in
                    try SQLiteFrequencyLedger.allocate(db, now: now, band: band, using: &rng)
                }
                station.frequency = allocation.frequency
                try station.insert(db)
                return (station, allocation.reclaimedFrom)
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StorageError.handleTaken(person.handle ?? "")
        }
    }

    public func insertGuest(_ person: PersonRecord) async throws {
        try await writer.write { db in try person.insert(db) }
    }

    public func person(id: String) async throws -> PersonRecord? {
        try await writer.read { db in try PersonRecord.fetchOne(db, key: id) }
    }

    public func person(handle: String) async throws -> PersonRecord? {
        try await writer.read { db in
            try PersonRecord.filter(Column("handle") == handle.lowercased()).fetchOne(db)
        }
    }

    public func searchPeople(prefix: String, limit: Int, guests: Bool) async throws -> [PersonRecord] {
        // LIKE with the wildcards escaped: a prefix match on handle or name.
        let escaped = prefix.lowercased()
            .replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return try await writer.read { db in
            try PersonRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM person
                    WHERE (kind = 'user' OR ?) AND (handle LIKE ? ESCAPE '\\' OR lower(displayName) LIKE ? ESCAPE '\\'
                        OR lower(displayName) LIKE ? ESCAPE '\\' OR (? AND id = ?))
                    ORDER BY (handle LIKE ? ESCAPE '\\') DESC, handle
                    LIMIT ?
                    """,
                arguments: [guests, escaped + "%", escaped + "%", "% " + escaped + "%", guests, prefix, escaped + "%", limit])
        }
    }

    public func changePassword(personID: String, hash: String, keepingSession: String?, at: EpochMillis) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE person SET passwordHash = ? WHERE id = ?", arguments: [hash, personID])
            try db.execute(
                sql: """
                    UPDATE authSession SET revokedAt = ?
                    WHERE personID = ? AND revokedAt IS NULL AND id IS NOT ?
                    """, arguments: [at, personID, keepingSession])
        }
    }

    public func insertSession(_ session: SessionRecord) async throws {
        try await writer.write { db in try session.insert(db) }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await writer.read { db in
            try SessionRecord.filter(Column("tokenHash") == tokenHash).fetchOne(db)
        }
    }

    public func session(previousTokenHash: String) async throws -> SessionRecord? {
        try await writer.read { db in
            try SessionRecord.filter(Column("previousTokenHash") == previousTokenHash).fetchOne(db)
        }
    }

    public func session(id: String) async throws -> SessionRecord? {
        try await writer.read { db in try SessionRecord.fetchOne(db, key: id) }
    }

    public func revokeSession(id: String, at: EpochMillis) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE authSession SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL", arguments: [at, id])
        }
    }

    public func rotateSession(id: String, from oldHash: String, to newHash: String, expiresAt: EpochMillis, at: EpochMillis)
        async throws -> Bool
    {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE authSession SET previousTokenHash = tokenHash, tokenHash = ?, expiresAt = ?
                    WHERE id = ? AND tokenHash = ? AND revokedAt IS NULL AND expiresAt > ?
                    """, arguments: [newHash, expiresAt, id, oldHash, at])
            return db.changesCount == 1
        }
    }

    public func follow(_ followerID: String, _ followeeID: String, at: EpochMillis) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO follow (followerID, followeeID, createdAt) VALUES (?, ?, ?)",
                arguments: [followerID, followeeID, at])
        }
    }

    public func unfollow(_ followerID: String, _ followeeID: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM follow WHERE followerID = ? AND followeeID = ?", arguments: [followerID, followeeID])
        }
    }

    public func followers(of personID: String, limit: Int) async throws -> [PersonRecord] {
        try await writer.read { db in
            try PersonRecord.fetchAll(
                db,
                sql: """
                    SELECT person.* FROM follow JOIN person ON person.id = follow.followerID
                    WHERE follow.followeeID = ? ORDER BY follow.createdAt DESC LIMIT ?
                    """, arguments: [personID, limit])
        }
    }

    public func following(of personID: String, limit: Int) async throws -> [PersonRecord] {
        try await writer.read { db in
            try PersonRecord.fetchAll(
                db,
                sql: """
                    SELECT person.* FROM follow JOIN person ON person.id = follow.followeeID
                    WHERE follow.followerID = ? ORDER BY follow.createdAt DESC LIMIT ?
                    """, arguments: [personID, limit])
        }
    }

    public func followCounts(of personID: String) async throws -> (followers: Int, following: Int) {
        try await writer.read { db in
            let followers =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM follow WHERE followeeID = ?", arguments: [personID]) ?? 0
            let following =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM follow WHERE followerID = ?", arguments: [personID]) ?? 0
            return (followers, following)
        }
    }

    public func isFollowing(_ followerID: String, _ followeeID: String) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM follow WHERE followerID = ? AND followeeID = ?)",
                arguments: [followerID, followeeID]) ?? false
        }
    }

    public func followeeIDs(of personID: String) async throws -> Set<String> {
        try await writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT followeeID FROM follow WHERE followerID = ?", arguments: [personID]))
        }
    }

    /// Secrets an older version kept in the database, removed from it as they
    /// are read (one transaction): the server keeps them in their own file now.
    public func takeServerSecrets() async throws -> [String: [UInt8]] {
        try await writer.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT name, value FROM serverSecret")
            try db.execute(sql: "DELETE FROM serverSecret")
            var secrets: [String: [UInt8]] = [:]
            for row in rows {
                let name: String = row["name"]
                let value: Data = row["value"]
                secrets[name] = [UInt8](value)
            }
            return secrets
        }
    }
}
