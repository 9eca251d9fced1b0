import WavelengthStore
import GRDB
import WavelengthCore

/// Hands out frequency codes inside a write transaction, so two stations
/// never get the same one.
///
/// A code is taken while its station holds it and it has not expired. When
/// none is free, the station that has been quiet longest gives its code back
/// (never a code-protected one: its guests were told that code); it gets a
/// fresh one when it next goes on the air.
enum FrequencyAllocation {
    struct Allocation {
        var frequency: String
        var reclaimedFrom: StationID?
    }

    static func allocate(_ db: Database, now: EpochMillis, pick: (Set<String>) -> String?) throws -> Allocation {
        let taken = Set(
            try String.fetchAll(
                db,
                sql: """
                    SELECT frequency FROM station
                    WHERE frequency IS NOT NULL AND (codeExpiresAt IS NULL OR codeExpiresAt > ?)
                    """, arguments: [now]))
        if let code = pick(taken) {
            // An expired holder lets go of it now.
            let holder = try String.fetchOne(db, sql: "SELECT id FROM station WHERE frequency = ?", arguments: [code])
            if let holder {
                try db.execute(sql: "UPDATE station SET frequency = NULL WHERE id = ?", arguments: [holder])
            }
            return Allocation(frequency: code, reclaimedFrom: holder)
        }
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT id, frequency FROM station
                WHERE frequency IS NOT NULL AND quietSince IS NOT NULL AND visibility != 'code'
                ORDER BY quietSince LIMIT 1
                """)
        guard let row, let id: String = row["id"], let code: String = row["frequency"] else {
            throw StorageError.noFrequency
        }
        try db.execute(sql: "UPDATE station SET frequency = NULL WHERE id = ?", arguments: [id])
        return Allocation(frequency: code, reclaimedFrom: id)
    }
}
