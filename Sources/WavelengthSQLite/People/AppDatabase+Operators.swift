import WavelengthStore
import GRDB
import WavelengthCore

extension AppDatabase: OperatorRepository {
    public func standing(personID: String) async throws -> PersonStanding? {
        try await writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT isAdministrator, suspendedAt, suspensionReason, awaitingApprovalSince FROM person WHERE id = ?",
                arguments: [personID]
            ).map {
                PersonStanding(
                    isAdministrator: $0["isAdministrator"], suspendedAt: $0["suspendedAt"], suspensionReason: $0["suspensionReason"],
                    awaitingApprovalSince: $0["awaitingApprovalSince"])
            }
        }
    }

    public func setAdministrator(handle: String, _ isAdministrator: Bool, audit: AuditEntry) async throws -> PersonRecord? {
        try await writer.write { db in
            guard let person = try PersonRecord.filter(Column("handle") == handle.lowercased()).fetchOne(db), person.kind == .user
            else { return nil }
            try db.execute(
                sql: "UPDATE person SET isAdministrator = ? WHERE id = ? AND isAdministrator != ?",
                arguments: [isAdministrator, person.id, isAdministrator])
            if db.changesCount > 0 { try Self.insert(audit, db) }
            if isAdministrator {
                try db.execute(sql: "UPDATE person SET awaitingApprovalSince = NULL WHERE id = ?", arguments: [person.id])
            }
            return person
        }
    }

    public func suspend(personID: String, reason: String, audit: AuditEntry) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE person SET suspendedAt = ?, suspensionReason = ? WHERE id = ?",
                arguments: [audit.at, reason, personID])
            guard db.changesCount > 0 else { return false }
            try db.execute(
                sql: "UPDATE authSession SET revokedAt = ? WHERE personID = ? AND revokedAt IS NULL", arguments: [audit.at, personID])
            try Self.insert(audit, db)
            return true
        }
    }

    public func unsuspend(personID: String, audit: AuditEntry) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "UPDATE person SET suspendedAt = NULL, suspensionReason = NULL WHERE id = ?", arguments: [personID])
            guard db.changesCount > 0 else { return false }
            try Self.insert(audit, db)
            return true
        }
    }

    public func record(_ entry: AuditEntry) async throws {
        try await writer.write { db in try Self.insert(entry, db) }
    }

    public func auditLog(before: Int64?, limit: Int) async throws -> [AuditEntry] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM auditEntry WHERE id < ? ORDER BY id DESC LIMIT ?", arguments: [before ?? Int64.max, limit]
            ).map { row in
                AuditEntry(
                    id: row["id"], at: row["at"], actorID: row["actorID"], actorName: row["actorName"], action: row["action"],
                    subjectKind: row["subjectKind"], subjectID: row["subjectID"], subjectName: row["subjectName"],
                    reason: row["reason"])
            }
        }
    }

    public func administrators() async throws -> [PersonRecord] {
        try await writer.read { db in
            try PersonRecord.fetchAll(db, sql: "SELECT * FROM person WHERE isAdministrator ORDER BY handle")
        }
    }

    public func deleteStation(id: StationID, audit: AuditEntry) async throws -> Bool {
        try await writer.write { db in
            // Every table of a station references it ON DELETE CASCADE.
            try db.execute(sql: "DELETE FROM station WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { return false }
            try Self.insert(audit, db)
            return true
        }
    }

    public func setHiddenFromDial(stationID: StationID, _ hidden: Bool, audit: AuditEntry) async throws -> Bool {
        try await writer.write { db in
            guard try StationRecord.exists(db, key: stationID) else { return false }
            if hidden {
                try db.execute(
                    sql: "INSERT INTO stationHidden (stationID, hiddenAt) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    arguments: [stationID, audit.at])
            } else {
                try db.execute(sql: "DELETE FROM stationHidden WHERE stationID = ?", arguments: [stationID])
            }
            try Self.insert(audit, db)
            return true
        }
    }

    public func hiddenFromDial(_ ids: [StationID]) async throws -> Set<StationID> {
        guard !ids.isEmpty else { return [] }
        return try await writer.read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT stationID FROM stationHidden WHERE stationID IN (\(databaseQuestionMarks(count: ids.count)))",
                    arguments: StatementArguments(ids)))
        }
    }

    public func deletePerson(id: String, audit: AuditEntry) async throws -> DeletedPerson? {
        try await writer.write { db in
            guard try PersonRecord.exists(db, key: id) else { return nil }
            let stations = try String.fetchAll(db, sql: "SELECT id FROM station WHERE ownerID = ?", arguments: [id])
            let clips = try String.fetchAll(
                db, sql: "SELECT id FROM voiceClip WHERE personID = ? OR stationID IN (SELECT id FROM station WHERE ownerID = ?)",
                arguments: [id, id])
            let uploads = try TrackRecord.filter(Column("uploaderID") == id).fetchAll(db)
            // Every table of a station references it ON DELETE CASCADE, and
            // every table of a person references them so (a station's owner
            // is only set to NULL: its stations go first).
            try db.execute(sql: "DELETE FROM station WHERE ownerID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM track WHERE uploaderID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM serverInvite WHERE createdBy = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM person WHERE id = ?", arguments: [id])
            try Self.insert(audit, db)
            return DeletedPerson(stations: stations, clips: clips, uploads: uploads)
        }
    }

    public func activeSessions(personID: String, at now: EpochMillis) async throws -> [SessionRecord] {
        try await writer.read { db in
            try SessionRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM authSession WHERE personID = ? AND revokedAt IS NULL AND expiresAt > ?
                    ORDER BY createdAt DESC LIMIT 100
                    """, arguments: [personID, now])
        }
    }

    public func serverCounts() async throws -> ServerCounts {
        try await writer.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT count(*) FROM person WHERE kind = 'user' AND awaitingApprovalSince IS NULL) AS users,
                        (SELECT count(*) FROM station) AS stations,
                        (SELECT count(*) FROM person WHERE awaitingApprovalSince IS NOT NULL) AS waiting
                    """)
            return ServerCounts(users: row?["users"] ?? 0, stations: row?["stations"] ?? 0, waitingSignups: row?["waiting"] ?? 0)
        }
    }

    static func insert(_ entry: AuditEntry, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO auditEntry (at, actorID, actorName, action, subjectKind, subjectID, subjectName, reason)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                entry.at, entry.actorID, entry.actorName, entry.action, entry.subjectKind, entry.subjectID, entry.subjectName,
                entry.reason,
            ])
    }
}
