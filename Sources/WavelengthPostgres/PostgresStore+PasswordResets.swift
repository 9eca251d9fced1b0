import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: PasswordResetRepository {
    public func issuePasswordReset(tokenHash: String, personID: String, expiresAt: EpochMillis, audit: AuditEntry) async throws
        -> Bool
    {
        try await transaction { [logger] connection in
            let isUser = try await connection.query(
                "SELECT kind FROM person WHERE id = \(personID) FOR UPDATE", logger: logger
            ).first { try $0.value("kind", as: String.self) } == PersonKind.user.rawValue
            guard isUser else { return false }
            // One live link at a time: an earlier one stops working.
            try await connection.query(
                "UPDATE password_reset SET used_at = \(audit.at) WHERE person_id = \(personID) AND used_at IS NULL",
                logger: logger)
            try await connection.query(
                """
                INSERT INTO password_reset (token_hash, person_id, created_at, expires_at)
                VALUES (\(tokenHash), \(personID), \(audit.at), \(expiresAt))
                """, logger: logger)
            try await Self.insert(audit, connection, logger: logger)
            return true
        }
    }

    public func passwordResetHolder(tokenHash: String, at now: EpochMillis) async throws -> PersonRecord? {
        try await query(
            """
            SELECT \(unescaped: PersonRows.qualifiedColumns) FROM password_reset JOIN person ON person.id = password_reset.person_id
            WHERE token_hash = \(tokenHash) AND used_at IS NULL AND expires_at > \(now)
            """
        ).first(PersonRows.person)
    }

    public func redeemPasswordReset(tokenHash: String, newPasswordHash: String, at now: EpochMillis) async throws -> PersonRecord? {
        try await transaction { [logger] connection in
            // The UPDATE takes the row: two uses of one link can't both pass.
            guard
                let personID = try await connection.query(
                    """
                    UPDATE password_reset SET used_at = \(now)
                    WHERE token_hash = \(tokenHash) AND used_at IS NULL AND expires_at > \(now) RETURNING person_id
                    """, logger: logger
                ).first({ try $0.value("person_id", as: String.self) })
            else { return nil }
            try await connection.query(
                "UPDATE person SET password_hash = \(newPasswordHash) WHERE id = \(personID)", logger: logger)
            try await connection.query(
                "UPDATE auth_session SET revoked_at = \(now) WHERE person_id = \(personID) AND revoked_at IS NULL",
                logger: logger)
            return try await connection.query(
                "SELECT \(unescaped: PersonRows.columns) FROM person WHERE id = \(personID)", logger: logger
            ).first(PersonRows.person)
        }
    }
}
