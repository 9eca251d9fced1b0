import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: ReportRepository {
    /// Serialises the count of a reporter's reports before an insert: at
    /// READ COMMITTED two reports at once could otherwise both take the last place.
    static let reportLock: Int64 = 0x5265_706f  // "Repo"

    public func fileReport(_ report: ReportRecord, limits: ReportLimits) async throws -> ReportRecord {
        try await transaction { [logger] connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.reportLock))", logger: logger)
            if let earlier = try await connection.query(
                """
                SELECT \(unescaped: ReportRows.columns) FROM report
                WHERE reporter_id = \(report.reporterID) AND subject = \(report.subject.rawValue)
                AND subject_id = \(report.subjectID) AND status = 'open' LIMIT 1
                """, logger: logger
            ).first(ReportRows.report) {
                return earlier
            }
            func count(_ query: PostgresQuery) async throws -> Int {
                Int(try await connection.query(query, logger: logger).first { try $0.value("n", as: Int64.self) } ?? 0)
            }
            let hour = try await count(
                "SELECT count(*) AS n FROM report WHERE reporter_id = \(report.reporterID) AND created_at > \(report.createdAt - 3_600_000)")
            let waiting = try await count(
                "SELECT count(*) AS n FROM report WHERE reporter_id = \(report.reporterID) AND status = 'open'")
            let server = try await count("SELECT count(*) AS n FROM report WHERE status = 'open'")
            if let refusal = limits.refusal(lastHour: hour, waiting: waiting, onServer: server) {
                throw StorageError.reportLimit(refusal)
            }
            try await connection.query(
                """
                INSERT INTO report (\(unescaped: ReportRows.columns)) VALUES (
                    \(report.id), \(report.subject.rawValue), \(report.subjectID), \(report.reason.rawValue), \(report.note),
                    \(report.reporterID), \(report.reporterName), \(report.stationID), \(report.stationName),
                    \(report.reportedPersonID), \(report.reportedName), \(report.content), \(report.contentAt),
                    \(report.evidence), \(report.createdAt), \(report.status.rawValue), \(report.closedAt),
                    \(report.closedByName), \(report.action?.rawValue), \(report.closingNote))
                """, logger: logger)
            return report
        }
    }

    public func report(id: String) async throws -> ReportRecord? {
        try await query("SELECT \(unescaped: ReportRows.columns) FROM report WHERE id = \(id)").first(ReportRows.report)
    }

    public func reports(_ filter: ReportFilter, limit: Int) async throws -> [ReportRecord] {
        let room = ReportSubject.allCases.filter(\.reachesTheRoom).map(\.rawValue)
        let beforeAt = filter.before?.at
        let beforeID = filter.before?.id
        return try await query(
            """
            SELECT \(unescaped: ReportRows.columns) FROM report
            WHERE (\(filter.status?.rawValue)::text IS NULL OR status = \(filter.status?.rawValue))
            AND (\(filter.roomOf)::text IS NULL OR (station_id = \(filter.roomOf) AND subject = ANY(\(room))))
            AND (\(beforeAt)::bigint IS NULL OR created_at < \(beforeAt) OR (created_at = \(beforeAt) AND id < \(beforeID)))
            ORDER BY created_at DESC, id DESC LIMIT \(limit)
            """
        ).all(ReportRows.report)
    }

    public func closeReport(id: String, _ closing: ReportClosing, audit: AuditEntry?) async throws -> ReportRecord? {
        try await transaction { [logger] connection in
            guard
                let closed = try await connection.query(
                    """
                    UPDATE report SET status = \(closing.status.rawValue), closed_at = \(closing.at),
                        closed_by_name = \(closing.byName), action = \(closing.action.rawValue), closing_note = \(closing.note)
                    WHERE id = \(id) AND status = 'open' RETURNING \(unescaped: ReportRows.columns)
                    """, logger: logger
                ).first(ReportRows.report)
            else { return nil }
            if let audit { try await Self.insert(audit, connection, logger: logger) }
            return closed
        }
    }

    public func openReportCount() async throws -> Int {
        Int(try await query("SELECT count(*) AS n FROM report WHERE status = 'open'").first { try $0.value("n", as: Int64.self) } ?? 0)
    }
}

extension PostgresStore: BlockRepository {
    public func block(_ blockerID: String, _ blockedID: String, at: EpochMillis, limit: Int) async throws {
        try await transaction { [logger] connection in
            // The blocker's row first: two blocks of theirs at once are counted one after the other.
            try await connection.query("SELECT id FROM person WHERE id = \(blockerID) FOR UPDATE", logger: logger)
            let already = try await connection.query(
                "SELECT 1 AS one FROM person_block WHERE blocker_id = \(blockerID) AND blocked_id = \(blockedID)", logger: logger
            ).first { _ in true } ?? false
            if already { return }
            let held = try await connection.query(
                "SELECT count(*) AS n FROM person_block WHERE blocker_id = \(blockerID)", logger: logger
            ).first { try $0.value("n", as: Int64.self) } ?? 0
            guard held < limit else { throw StorageError.blockLimit(limit) }
            try await connection.query(
                "INSERT INTO person_block (blocker_id, blocked_id, created_at) VALUES (\(blockerID), \(blockedID), \(at))",
                logger: logger)
        }
    }

    public func unblock(_ blockerID: String, _ blockedID: String) async throws {
        _ = try await query("DELETE FROM person_block WHERE blocker_id = \(blockerID) AND blocked_id = \(blockedID)")
    }

    public func blocked(by blockerID: String) async throws -> [PersonRecord] {
        try await query(
            """
            SELECT \(unescaped: PersonRows.qualifiedColumns) FROM person_block JOIN person ON person.id = person_block.blocked_id
            WHERE blocker_id = \(blockerID) ORDER BY person_block.created_at DESC, person.id
            """
        ).all(PersonRows.person)
    }

    public func blockedIDs(by blockerID: String) async throws -> Set<String> {
        Set(
            try await query("SELECT blocked_id FROM person_block WHERE blocker_id = \(blockerID)").all {
                try $0.value("blocked_id", as: String.self)
            })
    }

    public func blockedEitherWay(_ personID: String) async throws -> Set<String> {
        Set(
            try await query(
                """
                SELECT blocked_id AS other FROM person_block WHERE blocker_id = \(personID)
                UNION SELECT blocker_id AS other FROM person_block WHERE blocked_id = \(personID)
                """
            ).all { try $0.value("other", as: String.self) })
    }
}

enum ReportRows {
    static let columns = """
        id, subject, subject_id, reason, note, reporter_id, reporter_name, station_id, station_name,
        reported_person_id, reported_name, content, content_at, evidence, created_at, status, closed_at,
        closed_by_name, action, closing_note
        """

    static func report(_ row: PostgresRandomAccessRow) throws -> ReportRecord {
        var record = ReportRecord(
            id: try row.value("id"), subject: ReportSubject(rawValue: try row.value("subject")) ?? .person,
            subjectID: try row.value("subject_id"), reason: ReportReason(rawValue: try row.value("reason")) ?? .other,
            note: try row.value("note"), reporterID: try row.value("reporter_id"), reporterName: try row.value("reporter_name"),
            stationID: try row.value("station_id"), stationName: try row.value("station_name"),
            reportedPersonID: try row.value("reported_person_id"), reportedName: try row.value("reported_name"),
            content: try row.value("content"), contentAt: try row.value("content_at"), evidence: try row.value("evidence"),
            createdAt: try row.value("created_at"), status: ReportStatus(rawValue: try row.value("status")) ?? .open)
        record.closedAt = try row.value("closed_at")
        record.closedByName = try row.value("closed_by_name")
        record.action = try row.value("action", as: String?.self).flatMap(ReportAction.init(rawValue:))
        record.closingNote = try row.value("closing_note")
        return record
    }
}
