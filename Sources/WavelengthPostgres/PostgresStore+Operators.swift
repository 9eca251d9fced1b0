import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: OperatorRepository {
    public func standing(personID: String) async throws -> PersonStanding? {
        try await query(
            """
            SELECT is_administrator, suspended_at, suspension_reason, awaiting_approval_since FROM person
            WHERE id = \(personID)
            """
        ).first { row in
            PersonStanding(
                isAdministrator: try row.value("is_administrator"), suspendedAt: try row.value("suspended_at"),
                suspensionReason: try row.value("suspension_reason"),
                awaitingApprovalSince: try row.value("awaiting_approval_since"))
        }
    }

    public func setAdministrator(handle: String, _ isAdministrator: Bool, audit: AuditEntry) async throws -> PersonRecord? {
        try await transaction { [logger] connection in
            guard
                let person = try await connection.query(
                    "SELECT \(unescaped: PersonRows.columns) FROM person WHERE handle = \(handle.lowercased()) FOR UPDATE",
                    logger: logger
                ).first(PersonRows.person), person.kind == .user
            else { return nil }
            let changed = try await connection.query(
                """
                UPDATE person SET is_administrator = \(isAdministrator)
                WHERE id = \(person.id) AND is_administrator <> \(isAdministrator) RETURNING id
                """, logger: logger
            ).first { _ in true } != nil
            if changed { try await Self.insert(audit, connection, logger: logger) }
            if isAdministrator {
                try await connection.query(
                    "UPDATE person SET awaiting_approval_since = NULL WHERE id = \(person.id)", logger: logger)
            }
            return person
        }
    }

    public func suspend(personID: String, reason: String, audit: AuditEntry) async throws -> Bool {
        try await transaction { [logger] connection in
            let found = try await connection.query(
                """
                UPDATE person SET suspended_at = \(audit.at), suspension_reason = \(reason)
                WHERE id = \(personID) RETURNING id
                """, logger: logger
            ).first { _ in true } != nil
            guard found else { return false }
            try await connection.query(
                "UPDATE auth_session SET revoked_at = \(audit.at) WHERE person_id = \(personID) AND revoked_at IS NULL",
                logger: logger)
            try await Self.insert(audit, connection, logger: logger)
            return true
        }
    }

    public func unsuspend(personID: String, audit: AuditEntry) async throws -> Bool {
        try await transaction { [logger] connection in
            let found = try await connection.query(
                "UPDATE person SET suspended_at = NULL, suspension_reason = NULL WHERE id = \(personID) RETURNING id",
                logger: logger
            ).first { _ in true } != nil
            guard found else { return false }
            try await Self.insert(audit, connection, logger: logger)
            return true
        }
    }

    public func record(_ entry: AuditEntry) async throws {
        try await transaction { [logger] connection in try await Self.insert(entry, connection, logger: logger) }
    }

    public func auditLog(before: Int64?, limit: Int) async throws -> [AuditEntry] {
        try await query(
            """
            SELECT id, at, actor_id, actor_name, action, subject_kind, subject_id, subject_name, reason FROM audit_entry
            WHERE id < \(before ?? Int64.max) ORDER BY id DESC LIMIT \(Int64(limit))
            """
        ).all { row in
            AuditEntry(
                id: try row.value("id"), at: try row.value("at"), actorID: try row.value("actor_id"),
                actorName: try row.value("actor_name"), action: try row.value("action"),
                subjectKind: try row.value("subject_kind"), subjectID: try row.value("subject_id"),
                subjectName: try row.value("subject_name"), reason: try row.value("reason"))
        }
    }

    public func administrators() async throws -> [PersonRecord] {
        try await query(
            "SELECT \(unescaped: PersonRows.columns) FROM person WHERE is_administrator ORDER BY handle"
        ).all(PersonRows.person)
    }

    public func deleteStation(id: StationID, audit: AuditEntry) async throws -> Bool {
        try await transaction { [logger] connection in
            // Every table of a station references it ON DELETE CASCADE.
            let found = try await connection.query(
                "DELETE FROM station WHERE id = \(id) RETURNING id", logger: logger
            ).first { _ in true } != nil
            guard found else { return false }
            try await Self.insert(audit, connection, logger: logger)
            return true
        }
    }

    public func setHiddenFromDial(stationID: StationID, _ hidden: Bool, audit: AuditEntry) async throws -> Bool {
        try await transaction { [logger] connection in
            let found = try await connection.query("SELECT id FROM station WHERE id = \(stationID)", logger: logger)
                .first { _ in true } != nil
            guard found else { return false }
            if hidden {
                try await connection.query(
                    "INSERT INTO station_hidden (station_id, hidden_at) VALUES (\(stationID), \(audit.at)) ON CONFLICT DO NOTHING",
                    logger: logger)
            } else {
                try await connection.query("DELETE FROM station_hidden WHERE station_id = \(stationID)", logger: logger)
            }
            try await Self.insert(audit, connection, logger: logger)
            return true
        }
    }

    public func hiddenFromDial(_ ids: [StationID]) async throws -> Set<StationID> {
        guard !ids.isEmpty else { return [] }
        return Set(
            try await query("SELECT station_id FROM station_hidden WHERE station_id = ANY(\(ids))").all {
                try $0.value("station_id", as: String.self)
            })
    }

    public func deletePerson(id: String, audit: AuditEntry) async throws -> DeletedPerson? {
        try await transaction { [logger] connection in
            let found = try await connection.query("SELECT id FROM person WHERE id = \(id) FOR UPDATE", logger: logger)
                .first { _ in true } != nil
            guard found else { return nil }
            let stations = try await connection.query("SELECT id FROM station WHERE owner_id = \(id)", logger: logger)
                .all { try $0.value("id", as: String.self) }
            let clips = try await connection.query(
                "SELECT id FROM voice_clip WHERE person_id = \(id) OR station_id = ANY(\(stations))", logger: logger
            ).all { try $0.value("id", as: String.self) }
            let uploads = try await connection.query(
                "DELETE FROM track WHERE uploader_id = \(id) RETURNING \(unescaped: Self.trackColumns)", logger: logger
            ).all(Self.track)
            // Every table of a station references it ON DELETE CASCADE, and
            // every table of a person references them so (a station's owner
            // is only set to NULL: its stations go first).
            try await connection.query("DELETE FROM station WHERE owner_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM server_invite WHERE created_by = \(id)", logger: logger)
            try await connection.query("DELETE FROM person WHERE id = \(id)", logger: logger)
            try await Self.insert(audit, connection, logger: logger)
            return DeletedPerson(stations: stations, clips: clips, uploads: uploads)
        }
    }

    public func activeSessions(personID: String, at now: EpochMillis) async throws -> [SessionRecord] {
        try await query(
            """
            SELECT \(unescaped: PersonRows.sessionColumns) FROM auth_session
            WHERE person_id = \(personID) AND revoked_at IS NULL AND expires_at > \(now)
            ORDER BY created_at DESC LIMIT 100
            """
        ).all(PersonRows.session)
    }

    public func serverCounts() async throws -> ServerCounts {
        try await query(
            """
            SELECT (SELECT count(*) FROM person WHERE kind = 'user' AND awaiting_approval_since IS NULL) AS users,
                (SELECT count(*) FROM station) AS stations,
                (SELECT count(*) FROM person WHERE awaiting_approval_since IS NOT NULL) AS waiting
            """
        ).first { row in
            ServerCounts(
                users: Int(try row.value("users", as: Int64.self)), stations: Int(try row.value("stations", as: Int64.self)),
                waitingSignups: Int(try row.value("waiting", as: Int64.self)))
        } ?? ServerCounts(users: 0, stations: 0, waitingSignups: 0)
    }

    static func insert(_ entry: AuditEntry, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO audit_entry (at, actor_id, actor_name, action, subject_kind, subject_id, subject_name, reason)
            VALUES (\(entry.at), \(entry.actorID), \(entry.actorName), \(entry.action), \(entry.subjectKind),
                \(entry.subjectID), \(entry.subjectName), \(entry.reason))
            """, logger: logger)
    }
}
