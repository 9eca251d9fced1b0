import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: ScheduleRepository {
    public func shows(stationID: StationID) async throws -> [Show] {
        try await query("SELECT spec FROM show WHERE station_id = \(stationID) ORDER BY id")
            .all(Self.show)
    }

    public func show(id: ShowID) async throws -> Show? {
        try await query("SELECT spec FROM show WHERE id = \(id)").first(Self.show)
    }

    public func shows(ids: [ShowID]) async throws -> [Show] {
        guard !ids.isEmpty else { return [] }
        return try await query("SELECT spec FROM show WHERE id = ANY(\(ids))").all(Self.show)
    }

    static func show(_ row: PostgresRandomAccessRow) throws -> Show {
        try JSONColumn.decode(try row.value("spec", as: String.self), as: Show.self)
    }

    public func saveShow(_ show: Show, check: @escaping @Sendable ([Show]) throws -> Void) async throws {
        let spec = try JSONColumn.encode(show)
        try await transaction { connection in
            // The station's row is locked first, so two editors saving shows
            // on one station take turns: the second sees the first's show.
            let exists = try await connection.query(
                "SELECT 1 AS one FROM station WHERE id = \(show.stationID) FOR UPDATE", logger: logger
            ).first { _ in true } ?? false
            guard exists else { throw StorageError.noSuchStation }
            let others = try await connection.query(
                "SELECT spec FROM show WHERE station_id = \(show.stationID)", logger: logger
            ).all(Self.show)
            try check(others)
            try await connection.query(
                """
                INSERT INTO show (id, station_id, spec, updated_at) VALUES (\(show.id), \(show.stationID), \(spec), \(show.updatedAt))
                ON CONFLICT (id) DO UPDATE SET spec = EXCLUDED.spec, updated_at = EXCLUDED.updated_at
                """, logger: logger)
        }
    }

    public func deleteShow(id: ShowID) async throws -> Bool {
        try await query("DELETE FROM show WHERE id = \(id) RETURNING 1 AS gone")
            .first { _ in true } ?? false
    }

    public func setReminder(_ reminder: ShowReminder, limit: Int) async throws {
        try await transaction { connection in
            // One person's reminders are counted and added one request at a time.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtext(\("reminders:" + reminder.personID)))", logger: logger)
            let exists = try await connection.query(
                "SELECT 1 AS one FROM show_reminder WHERE person_id = \(reminder.personID) AND show_id = \(reminder.showID)",
                logger: logger
            ).first { _ in true } ?? false
            if !exists {
                let count = try await connection.query(
                    "SELECT count(*) AS n FROM show_reminder WHERE person_id = \(reminder.personID)", logger: logger
                ).first { try $0.value("n", as: Int64.self) } ?? 0
                guard count < limit else { throw StorageError.reminderLimit(limit) }
            }
            try await connection.query(
                """
                INSERT INTO show_reminder (person_id, show_id, lead_minutes, created_at)
                VALUES (\(reminder.personID), \(reminder.showID), \(Int64(reminder.leadMinutes)), \(reminder.createdAt))
                ON CONFLICT (person_id, show_id) DO UPDATE SET lead_minutes = EXCLUDED.lead_minutes
                """, logger: logger)
        }
    }

    public func removeReminder(personID: String, showID: ShowID) async throws -> Bool {
        try await query(
            "DELETE FROM show_reminder WHERE person_id = \(personID) AND show_id = \(showID) RETURNING 1 AS gone"
        ).first { _ in true } ?? false
    }

    public func reminders(personID: String) async throws -> [ShowReminder] {
        try await query(
            """
            SELECT show_id, lead_minutes, created_at FROM show_reminder WHERE person_id = \(personID)
            ORDER BY created_at, show_id
            """
        ).all { row in
            ShowReminder(
                personID: personID, showID: try row.value("show_id"),
                leadMinutes: Int(try row.value("lead_minutes", as: Int64.self)), createdAt: try row.value("created_at"))
        }
    }
}
