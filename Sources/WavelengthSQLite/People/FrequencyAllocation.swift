import GRDB
import WavelengthCore
import WavelengthStore

/// The questions `FrequencyAllocation` (the core's rule) asks, answered in
/// SQL inside the write transaction that saves the station.
///
/// Each is an indexed lookup (the unique index on `frequency`, and
/// `station_reclaim` on `quietSince`), so a pick costs the same with 100
/// stations or 100,000.
struct SQLiteFrequencyLedger: FrequencyLedger {
    let db: Database

    /// Allocates by the core's rule; a full band is `StorageError.noFrequency`.
    static func allocate(
        _ db: Database, now: EpochMillis, band: FrequencyBand, using rng: inout some RandomNumberGenerator
    ) throws -> FrequencyAllocation.Allocation {
        var ledger = SQLiteFrequencyLedger(db: db)
        do {
            return try FrequencyAllocation.allocate(in: &ledger, now: now, band: band, using: &rng)
        } catch is FrequencyAllocation.BandFull {
            throw StorageError.noFrequency
        }
    }

    func held(among codes: [String], at now: EpochMillis) throws -> Set<String> {
        let marks = Array(repeating: "?", count: codes.count).joined(separator: ",")
        var arguments = StatementArguments(codes)
        arguments += [now]
        return Set(
            try String.fetchAll(
                db,
                sql: """
                    SELECT frequency FROM station WHERE frequency IN (\(marks))
                        AND (codeExpiresAt IS NULL OR codeExpiresAt > ?)
                    """, arguments: arguments))
    }

    func holder(of code: String) throws -> StationID? {
        try String.fetchOne(db, sql: "SELECT id FROM station WHERE frequency = ?", arguments: [code])
    }

    func quietestHolder(quietBefore: EpochMillis, codeProtectedQuietBefore: EpochMillis) throws -> (StationID, String)? {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT id, frequency FROM station
                WHERE frequency IS NOT NULL AND quietSince IS NOT NULL AND quietSince <= ?
                    AND (visibility != 'code' OR quietSince <= ?)
                ORDER BY quietSince LIMIT 1
                """, arguments: [quietBefore, codeProtectedQuietBefore])
        guard let row, let id: String = row["id"], let code: String = row["frequency"] else { return nil }
        return (id, code)
    }

    mutating func release(stationID: StationID) throws {
        try db.execute(sql: "UPDATE station SET frequency = NULL WHERE id = ?", arguments: [stationID])
    }
}
