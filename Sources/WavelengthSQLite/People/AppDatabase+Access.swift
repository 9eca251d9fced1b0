import WavelengthStore
import GRDB
import WavelengthCore

extension AppDatabase: StationAccessRepository {
    public func access(stationID: StationID, personID: String, ownerID: String?) async throws -> StoredAccess {
        try await writer.read { db in
            let role = try String.fetchOne(
                db, sql: "SELECT role FROM stationMember WHERE stationID = ? AND personID = ?",
                arguments: [stationID, personID])
            let banned =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM stationBan WHERE stationID = ? AND personID = ?)",
                    arguments: [stationID, personID]) ?? false
            var follows = false
            if let ownerID {
                follows =
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM follow WHERE followerID = ? AND followeeID = ?)",
                        arguments: [personID, ownerID]) ?? false
            }
            return StoredAccess(memberRole: role.flatMap(StationRole.init(rawValue:)), banned: banned, followsOwner: follows)
        }
    }

    public func join(stationID: StationID, personID: String, at: EpochMillis) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO stationMember (stationID, personID, role, joinedAt) VALUES (?, ?, 'listener', ?)",
                arguments: [stationID, personID, at])
        }
    }

    public func setMemberRole(stationID: StationID, personID: String, role: StationRole, at: EpochMillis) async throws {
        try await writer.write { db in
            try db.execute(
                // A grant keeps what they were before it (none, for a stranger),
                // so revoking gives that back; a later role leaves nothing behind.
                sql: """
                    INSERT INTO stationMember (stationID, personID, role, joinedAt, beforeCoDJ)
                    VALUES (?, ?, ?, ?, CASE WHEN ? = 'codj' THEN 'none' END)
                    ON CONFLICT (stationID, personID) DO UPDATE SET
                        beforeCoDJ = CASE WHEN excluded.role != 'codj' THEN NULL
                            WHEN stationMember.role = 'codj' THEN stationMember.beforeCoDJ ELSE stationMember.role END,
                        role = excluded.role
                    """, arguments: [stationID, personID, role.rawValue, at, role.rawValue])
        }
    }

    public func revokeCoDJ(stationID: StationID, personID: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM stationMember WHERE stationID = ? AND personID = ? AND role = 'codj' AND beforeCoDJ = 'none'",
                arguments: [stationID, personID])
            try db.execute(
                sql: "UPDATE stationMember SET role = ?, beforeCoDJ = NULL WHERE stationID = ? AND personID = ? AND role = ?",
                arguments: [StationRole.listener.rawValue, stationID, personID, StationRole.codj.rawValue])
        }
    }

    public func leave(stationID: StationID, personID: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM stationMember WHERE stationID = ? AND personID = ?", arguments: [stationID, personID])
        }
    }

    public func dropListeners(stationID: StationID) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM stationMember WHERE stationID = ? AND role = 'listener'", arguments: [stationID])
        }
    }

    public func ban(stationID: StationID, personID: String, at: EpochMillis) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM stationMember WHERE stationID = ? AND personID = ?", arguments: [stationID, personID])
            try db.execute(
                sql: "INSERT OR IGNORE INTO stationBan (stationID, personID, bannedAt) VALUES (?, ?, ?)",
                arguments: [stationID, personID, at])
        }
    }

    public func unban(stationID: StationID, personID: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM stationBan WHERE stationID = ? AND personID = ?", arguments: [stationID, personID])
        }
    }

    public func memberships(stationID: StationID) async throws -> [Membership] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT person.*, m.role AS memberRole, (b.personID IS NOT NULL) AS banned
                    FROM person
                    LEFT JOIN stationMember m ON m.personID = person.id AND m.stationID = ?
                    LEFT JOIN stationBan b ON b.personID = person.id AND b.stationID = ?
                    WHERE m.personID IS NOT NULL OR b.personID IS NOT NULL
                    ORDER BY person.displayName
                    LIMIT 1000
                    """, arguments: [stationID, stationID])
            return try rows.map { row in
                Membership(
                    person: try PersonRecord(row: row),
                    role: (row["memberRole"] as String?).flatMap(StationRole.init(rawValue:)),
                    banned: row["banned"])
            }
        }
    }

    public func people(ids: [String]) async throws -> [String: PersonRecord] {
        guard !ids.isEmpty else { return [:] }
        return try await writer.read { db in
            let found = try PersonRecord.filter(keys: Set(ids)).fetchAll(db)
            return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        }
    }

    public func stations(ownedBy personIDs: Set<String>) async throws -> [StationRecord] {
        guard !personIDs.isEmpty else { return [] }
        return try await writer.read { db in
            try StationRecord.filter(personIDs.contains(Column("ownerID"))).order(Column("createdAt")).fetchAll(db)
        }
    }

    public func stations(coDJ personID: String) async throws -> [StationRecord] {
        try await writer.read { db in
            try StationRecord.fetchAll(
                db,
                sql: """
                    SELECT station.* FROM station JOIN stationMember m ON m.stationID = station.id
                    WHERE m.personID = ? AND m.role = 'codj' ORDER BY station.createdAt
                    """, arguments: [personID])
        }
    }

    public func updateStation(id: StationID, name: String, visibility: StationVisibility, maxListeners: Int?)
        async throws -> StationRecord?
    {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE station SET name = ?, visibility = ?, maxListeners = ? WHERE id = ?",
                arguments: [name, visibility.rawValue, maxListeners, id])
            return try StationRecord.fetchOne(db, key: id)
        }
    }

    public func assignCode(
        stationID: StationID, accessCode: String?, expiresAt: EpochMillis?, now: EpochMillis, band: FrequencyBand
    ) async throws -> FrequencyAssignment {
        try await writer.write { db in
            guard var record = try StationRecord.fetchOne(db, key: stationID) else { throw StorageError.noSuchStation }
            // The old code stays held while the new one is picked, so it
            // can't come straight back; then it is let go.
            let allocation = try frequencyDraw.draw { rng in
                try SQLiteFrequencyLedger.allocate(db, now: now, band: band, using: &rng)
            }
            record.frequency = allocation.frequency
            record.accessCode = accessCode
            record.codeExpiresAt = expiresAt
            try record.update(db)
            return (record, allocation.reclaimedFrom == stationID ? nil : allocation.reclaimedFrom)
        }
    }

    public func setAccessCode(stationID: StationID, accessCode: String) async throws -> StationRecord? {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE station SET accessCode = ? WHERE id = ?", arguments: [accessCode, stationID])
            return try StationRecord.fetchOne(db, key: stationID)
        }
    }

    public func releaseCode(stationID: StationID) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE station SET frequency = NULL, accessCode = NULL, codeExpiresAt = NULL WHERE id = ?",
                arguments: [stationID])
        }
    }

    public func claim(stationID: StationID, keyHash: String, ownerID: String, ownerName: String) async throws
        -> StationRecord?
    {
        try await writer.write { db in
            guard var record = try StationRecord.fetchOne(db, key: stationID), let stored = record.ownerKeyHash,
                ConstantTime.equal(stored, keyHash)
            else { return nil }
            record.ownerID = ownerID
            record.owner = ownerName
            record.ownerKeyHash = nil
            try record.update(db)
            return record
        }
    }

    public func insertInvite(_ invite: InviteRecord) async throws {
        try await writer.write { db in try invite.insert(db) }
    }

    public func invite(tokenHash: String) async throws -> InviteRecord? {
        try await writer.read { db in try InviteRecord.filter(Column("tokenHash") == tokenHash).fetchOne(db) }
    }

    public func invites(stationID: StationID) async throws -> [InviteRecord] {
        try await writer.read { db in
            try InviteRecord.filter(Column("stationID") == stationID).order(Column("createdAt").desc).limit(200)
                .fetchAll(db)
        }
    }

    public func revokeInvite(id: String, stationID: StationID, at: EpochMillis) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE invite SET revokedAt = ? WHERE id = ? AND stationID = ? AND revokedAt IS NULL",
                arguments: [at, id, stationID])
            return db.changesCount == 1
        }
    }

    public func countInviteUse(id: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE invite SET uses = uses + 1 WHERE id = ?", arguments: [id])
        }
    }
}
