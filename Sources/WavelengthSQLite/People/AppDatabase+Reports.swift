import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: ReportRepository {
    public func fileReport(_ report: ReportRecord, limits: ReportLimits) async throws -> ReportRecord {
        try await writer.write { db in
            if let earlier = try ReportRecord.filter(
                Column("reporterID") == report.reporterID && Column("subject") == report.subject.rawValue
                    && Column("subjectID") == report.subjectID && Column("status") == ReportStatus.open.rawValue
            ).fetchOne(db) {
                return earlier
            }
            let hour = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM report WHERE reporterID = ? AND createdAt > ?",
                arguments: [report.reporterID, report.createdAt - 3_600_000]) ?? 0
            let waiting = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM report WHERE reporterID = ? AND status = 'open'", arguments: [report.reporterID]) ?? 0
            let server = try Int.fetchOne(db, sql: "SELECT count(*) FROM report WHERE status = 'open'") ?? 0
            if let refusal = limits.refusal(lastHour: hour, waiting: waiting, onServer: server) {
                throw StorageError.reportLimit(refusal)
            }
            try report.insert(db)
            return report
        }
    }

    public func report(id: String) async throws -> ReportRecord? {
        try await writer.read { db in try ReportRecord.fetchOne(db, key: id) }
    }

    public func reports(_ filter: ReportFilter, limit: Int) async throws -> [ReportRecord] {
        try await writer.read { db in
            var request = ReportRecord.order(Column("createdAt").desc, Column("id").desc).limit(limit)
            if let status = filter.status { request = request.filter(Column("status") == status.rawValue) }
            if let station = filter.roomOf {
                let room = ReportSubject.allCases.filter(\.reachesTheRoom).map(\.rawValue)
                request = request.filter(Column("stationID") == station && room.contains(Column("subject")))
            }
            if let before = filter.before {
                request = request.filter(
                    Column("createdAt") < before.at || (Column("createdAt") == before.at && Column("id") < before.id))
            }
            return try request.fetchAll(db)
        }
    }

    public func closeReport(id: String, _ closing: ReportClosing, audit: AuditEntry?) async throws -> ReportRecord? {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE report SET status = ?, closedAt = ?, closedByName = ?, action = ?, closingNote = ?
                    WHERE id = ? AND status = 'open'
                    """,
                arguments: [closing.status.rawValue, closing.at, closing.byName, closing.action.rawValue, closing.note, id])
            guard db.changesCount == 1 else { return nil }
            if let audit { try Self.insert(audit, db) }
            return try ReportRecord.fetchOne(db, key: id)
        }
    }

    public func openReportCount() async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM report WHERE status = 'open'") ?? 0 }
    }
}

extension AppDatabase: BlockRepository {
    public func block(_ blockerID: String, _ blockedID: String, at: EpochMillis, limit: Int) async throws {
        try await writer.write { db in
            let held = try Int.fetchOne(db, sql: "SELECT count(*) FROM personBlock WHERE blockerID = ?", arguments: [blockerID]) ?? 0
            let already = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM personBlock WHERE blockerID = ? AND blockedID = ?", arguments: [blockerID, blockedID]) ?? false
            if already { return }
            guard held < limit else { throw StorageError.blockLimit(limit) }
            try db.execute(
                sql: "INSERT INTO personBlock (blockerID, blockedID, createdAt) VALUES (?, ?, ?)", arguments: [blockerID, blockedID, at])
        }
    }

    public func unblock(_ blockerID: String, _ blockedID: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM personBlock WHERE blockerID = ? AND blockedID = ?", arguments: [blockerID, blockedID])
        }
    }

    public func blocked(by blockerID: String) async throws -> [PersonRecord] {
        try await writer.read { db in
            try PersonRecord.fetchAll(
                db,
                sql: """
                    SELECT person.* FROM personBlock JOIN person ON person.id = personBlock.blockedID
                    WHERE blockerID = ? ORDER BY personBlock.createdAt DESC, person.id
                    """, arguments: [blockerID])
        }
    }

    public func blockedIDs(by blockerID: String) async throws -> Set<String> {
        try await writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT blockedID FROM personBlock WHERE blockerID = ?", arguments: [blockerID]))
        }
    }

    public func blockedEitherWay(_ personID: String) async throws -> Set<String> {
        try await writer.read { db in
            Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT blockedID FROM personBlock WHERE blockerID = ?
                        UNION SELECT blockerID FROM personBlock WHERE blockedID = ?
                        """, arguments: [personID, personID]))
        }
    }
}
