import Foundation
import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: RegistrationRepository {
    /// Serialises the checks of a count before an insert (the waiting
    /// list's size, a person's usable invites): at READ COMMITTED two
    /// sign-ups could otherwise both see room for one.
    static let registrationLock: Int64 = 0x5265_6769  // "Regi"

    public func registrationPolicy() async throws -> RegistrationPolicy? {
        try await query("SELECT value FROM server_setting WHERE key = 'registration'").first { row in
            try JSONDecoder().decode(RegistrationPolicy.self, from: Data(try row.value("value", as: String.self).utf8))
        }
    }

    public func setRegistrationPolicy(_ policy: RegistrationPolicy, audit: AuditEntry) async throws {
        let value = String(decoding: try JSONEncoder().encode(policy), as: UTF8.self)
        try await transaction { [logger] connection in
            try await connection.query(
                """
                INSERT INTO server_setting (key, value) VALUES ('registration', \(value))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, logger: logger)
            try await Self.insert(audit, connection, logger: logger)
        }
    }

    public func insertWaitingSignup(_ person: PersonRecord, limit: Int) async throws {
        do {
            try await transaction { [logger] connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.registrationLock))", logger: logger)
                let waiting = try await connection.query(
                    "SELECT count(*) AS n FROM person WHERE awaiting_approval_since IS NOT NULL", logger: logger
                ).first { try $0.value("n", as: Int64.self) } ?? 0
                guard waiting < limit else { throw StorageError.waitingListFull(limit) }
                try await PersonRows.insert(person, connection, logger: logger)
                try await connection.query(
                    "UPDATE person SET awaiting_approval_since = \(person.createdAt) WHERE id = \(person.id)", logger: logger)
            }
        } catch let error as PSQLError where error.isUniqueViolation && error.serverInfo?[.constraintName] == "person_handle_key" {
            throw StorageError.handleTaken(person.handle ?? "")
        }
    }

    public func waitingSignups(limit: Int) async throws -> [WaitingSignup] {
        try await query(
            """
            SELECT \(unescaped: PersonRows.columns), awaiting_approval_since FROM person
            WHERE awaiting_approval_since IS NOT NULL ORDER BY awaiting_approval_since, id LIMIT \(Int64(limit))
            """
        ).all { WaitingSignup(person: try PersonRows.person($0), since: try $0.value("awaiting_approval_since")) }
    }

    public func approveSignup(personID: String, audit: AuditEntry) async throws -> PersonRecord? {
        try await transaction { [logger] connection in
            guard
                let person = try await connection.query(
                    """
                    UPDATE person SET awaiting_approval_since = NULL
                    WHERE id = \(personID) AND awaiting_approval_since IS NOT NULL RETURNING \(unescaped: PersonRows.columns)
                    """, logger: logger
                ).first(PersonRows.person)
            else { return nil }
            try await Self.insert(audit, connection, logger: logger)
            return person
        }
    }

    public func declineSignup(personID: String, audit: AuditEntry) async throws -> PersonRecord? {
        try await transaction { [logger] connection in
            guard
                let person = try await connection.query(
                    """
                    DELETE FROM person WHERE id = \(personID) AND awaiting_approval_since IS NOT NULL
                    RETURNING \(unescaped: PersonRows.columns)
                    """, logger: logger
                ).first(PersonRows.person)
            else { return nil }
            try await Self.insert(audit, connection, logger: logger)
            return person
        }
    }

    public func insertServerInvite(_ i: ServerInviteRecord, limit: Int, audit: AuditEntry?) async throws {
        try await transaction { [logger] connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.registrationLock))", logger: logger)
            let usable = try await connection.query(
                """
                SELECT count(*) AS n FROM server_invite
                WHERE created_by = \(i.createdBy) AND revoked_at IS NULL AND expires_at > \(i.createdAt) AND uses < max_uses
                """, logger: logger
            ).first { try $0.value("n", as: Int64.self) } ?? 0
            guard usable < limit else { throw StorageError.inviteLimit(limit) }
            try await connection.query(
                """
                INSERT INTO server_invite
                    (id, code_hash, created_by, created_by_name, created_at, expires_at, max_uses, uses, revoked_at)
                VALUES (\(i.id), \(i.codeHash), \(i.createdBy), \(i.createdByName), \(i.createdAt), \(i.expiresAt),
                    \(Int32(i.maxUses)), \(Int32(i.uses)), \(i.revokedAt))
                """, logger: logger)
            if let audit { try await Self.insert(audit, connection, logger: logger) }
        }
    }

    public func serverInvite(codeHash: String) async throws -> ServerInviteRecord? {
        try await query(
            "SELECT \(unescaped: ServerInviteRows.columns) FROM server_invite WHERE code_hash = \(codeHash)"
        ).first(ServerInviteRows.invite)
    }

    public func serverInvites(createdBy: String?, limit: Int) async throws -> [ServerInviteRecord] {
        try await query(
            """
            SELECT \(unescaped: ServerInviteRows.columns) FROM server_invite
            WHERE \(createdBy)::text IS NULL OR created_by = \(createdBy)
            ORDER BY created_at DESC, id LIMIT \(Int64(limit))
            """
        ).all(ServerInviteRows.invite)
    }

    public func redeemServerInvite(codeHash: String, at now: EpochMillis) async throws -> ServerInviteRecord? {
        try await query(
            """
            UPDATE server_invite SET uses = uses + 1
            WHERE code_hash = \(codeHash) AND revoked_at IS NULL AND expires_at > \(now) AND uses < max_uses
            RETURNING \(unescaped: ServerInviteRows.columns)
            """
        ).first(ServerInviteRows.invite)
    }

    public func returnServerInviteUse(id: String) async throws {
        try await query("UPDATE server_invite SET uses = uses - 1 WHERE id = \(id) AND uses > 0")
    }

    public func revokeServerInvite(id: String, by personID: String, byAnyone: Bool, at now: EpochMillis) async throws -> Bool {
        try await query(
            """
            UPDATE server_invite SET revoked_at = \(now)
            WHERE id = \(id) AND revoked_at IS NULL AND (\(byAnyone) OR created_by = \(personID)) RETURNING 1 AS done
            """
        ).first { _ in true } ?? false
    }
}

enum ServerInviteRows {
    static let columns = "id, code_hash, created_by, created_by_name, created_at, expires_at, max_uses, uses, revoked_at"

    static func invite(_ row: PostgresRandomAccessRow) throws -> ServerInviteRecord {
        ServerInviteRecord(
            id: try row.value("id"), codeHash: try row.value("code_hash"), createdBy: try row.value("created_by"),
            createdByName: try row.value("created_by_name"), createdAt: try row.value("created_at"),
            expiresAt: try row.value("expires_at"), maxUses: Int(try row.value("max_uses", as: Int32.self)),
            uses: Int(try row.value("uses", as: Int32.self)), revokedAt: try row.value("revoked_at"))
    }
}
