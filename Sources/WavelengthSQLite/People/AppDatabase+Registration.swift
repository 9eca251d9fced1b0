import Foundation
import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: RegistrationRepository {
    static let registrationKey = "registration"

    public func registrationPolicy() async throws -> RegistrationPolicy? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM serverSetting WHERE key = ?", arguments: [Self.registrationKey])
                .flatMap { try? JSONDecoder().decode(RegistrationPolicy.self, from: Data($0.utf8)) }
        }
    }

    public func setRegistrationPolicy(_ policy: RegistrationPolicy, audit: AuditEntry) async throws {
        let value = String(decoding: try JSONEncoder().encode(policy), as: UTF8.self)
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO serverSetting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                arguments: [Self.registrationKey, value])
            try Self.insert(audit, db)
        }
    }

    public func insertWaitingSignup(_ person: PersonRecord, limit: Int) async throws {
        do {
            try await writer.write { db in
                let waiting = try Int.fetchOne(db, sql: "SELECT count(*) FROM person WHERE awaitingApprovalSince IS NOT NULL") ?? 0
                guard waiting < limit else { throw StorageError.waitingListFull(limit) }
                try person.insert(db)
                try db.execute(
                    sql: "UPDATE person SET awaitingApprovalSince = ? WHERE id = ?", arguments: [person.createdAt, person.id])
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StorageError.handleTaken(person.handle ?? "")
        }
    }

    public func waitingSignups(limit: Int) async throws -> [WaitingSignup] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM person WHERE awaitingApprovalSince IS NOT NULL ORDER BY awaitingApprovalSince, id LIMIT ?",
                arguments: [limit]
            ).map { WaitingSignup(person: try PersonRecord(row: $0), since: $0["awaitingApprovalSince"]) }
        }
    }

    public func approveSignup(personID: String, audit: AuditEntry) async throws -> PersonRecord? {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE person SET awaitingApprovalSince = NULL WHERE id = ? AND awaitingApprovalSince IS NOT NULL",
                arguments: [personID])
            guard db.changesCount > 0 else { return nil }
            try Self.insert(audit, db)
            return try PersonRecord.fetchOne(db, key: personID)
        }
    }

    public func declineSignup(personID: String, audit: AuditEntry) async throws -> PersonRecord? {
        try await writer.write { db in
            guard
                let person = try PersonRecord.fetchOne(
                    db, sql: "SELECT * FROM person WHERE id = ? AND awaitingApprovalSince IS NOT NULL", arguments: [personID])
            else { return nil }
            try db.execute(sql: "DELETE FROM person WHERE id = ?", arguments: [personID])
            try Self.insert(audit, db)
            return person
        }
    }

    public func insertServerInvite(_ invite: ServerInviteRecord, limit: Int, audit: AuditEntry?) async throws {
        try await writer.write { db in
            let usable = try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM serverInvite
                    WHERE createdBy = ? AND revokedAt IS NULL AND expiresAt > ? AND uses < maxUses
                    """,
                arguments: [invite.createdBy, invite.createdAt]) ?? 0
            guard usable < limit else { throw StorageError.inviteLimit(limit) }
            try invite.insert(db)
            if let audit { try Self.insert(audit, db) }
        }
    }

    public func serverInvite(codeHash: String) async throws -> ServerInviteRecord? {
        try await writer.read { db in try ServerInviteRecord.filter(Column("codeHash") == codeHash).fetchOne(db) }
    }

    public func serverInvites(createdBy: String?, limit: Int) async throws -> [ServerInviteRecord] {
        try await writer.read { db in
            var request = ServerInviteRecord.order(Column("createdAt").desc, Column("id")).limit(limit)
            if let createdBy { request = request.filter(Column("createdBy") == createdBy) }
            return try request.fetchAll(db)
        }
    }

    public func redeemServerInvite(codeHash: String, at now: EpochMillis) async throws -> ServerInviteRecord? {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE serverInvite SET uses = uses + 1
                    WHERE codeHash = ? AND revokedAt IS NULL AND expiresAt > ? AND uses < maxUses
                    """,
                arguments: [codeHash, now])
            guard db.changesCount > 0 else { return nil }
            return try ServerInviteRecord.filter(Column("codeHash") == codeHash).fetchOne(db)
        }
    }

    public func returnServerInviteUse(id: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE serverInvite SET uses = uses - 1 WHERE id = ? AND uses > 0", arguments: [id])
        }
    }

    public func revokeServerInvite(id: String, by personID: String, byAnyone: Bool, at now: EpochMillis) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE serverInvite SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL AND (? OR createdBy = ?)",
                arguments: [now, id, byAnyone, personID])
            return db.changesCount > 0
        }
    }
}
