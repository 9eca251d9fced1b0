import Foundation
import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: ScheduleRepository {
    public func shows(stationID: StationID) async throws -> [Show] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT spec FROM show WHERE stationID = ? ORDER BY id", arguments: [stationID])
                .map(Self.decodeShow)
        }
    }

    public func show(id: ShowID) async throws -> Show? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT spec FROM show WHERE id = ?", arguments: [id]).map(Self.decodeShow)
        }
    }

    public func shows(ids: [ShowID]) async throws -> [Show] {
        guard !ids.isEmpty else { return [] }
        return try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT spec FROM show WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                arguments: StatementArguments(ids)
            ).map(Self.decodeShow)
        }
    }

    public func saveShow(_ show: Show, check: @escaping @Sendable ([Show]) throws -> Void) async throws {
        let spec = try Self.encodeShow(show)
        try await writer.write { db in
            let others = try String.fetchAll(
                db, sql: "SELECT spec FROM show WHERE stationID = ?", arguments: [show.stationID]
            ).map(Self.decodeShow)
            try check(others)
            try db.execute(
                sql: """
                    INSERT INTO show (id, stationID, spec, updatedAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET spec = excluded.spec, updatedAt = excluded.updatedAt
                    """,
                arguments: [show.id, show.stationID, spec, show.updatedAt])
        }
    }

    public func deleteShow(id: ShowID) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM show WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    public func setReminder(_ reminder: ShowReminder, limit: Int) async throws {
        try await writer.write { db in
            let exists = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM showReminder WHERE personID = ? AND showID = ?",
                arguments: [reminder.personID, reminder.showID]) ?? false
            if !exists {
                let count = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM showReminder WHERE personID = ?", arguments: [reminder.personID]) ?? 0
                guard count < limit else { throw StorageError.reminderLimit(limit) }
            }
            try db.execute(
                sql: """
                    INSERT INTO showReminder (personID, showID, leadMinutes, createdAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT(personID, showID) DO UPDATE SET leadMinutes = excluded.leadMinutes
                    """,
                arguments: [reminder.personID, reminder.showID, reminder.leadMinutes, reminder.createdAt])
        }
    }

    public func removeReminder(personID: String, showID: ShowID) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM showReminder WHERE personID = ? AND showID = ?", arguments: [personID, showID])
            return db.changesCount > 0
        }
    }

    public func reminders(personID: String) async throws -> [ShowReminder] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT showID, leadMinutes, createdAt FROM showReminder WHERE personID = ? ORDER BY createdAt",
                arguments: [personID]
            ).map { ShowReminder(personID: personID, showID: $0["showID"], leadMinutes: $0["leadMinutes"], createdAt: $0["createdAt"]) }
        }
    }

    static func encodeShow(_ show: Show) throws -> String {
        String(decoding: try JSONEncoder().encode(show), as: UTF8.self)
    }

    static func decodeShow(_ spec: String) throws -> Show {
        try JSONDecoder().decode(Show.self, from: Data(spec.utf8))
    }
}
