import GRDB
import WavelengthCore
import WavelengthStore

/// Hands out frequency codes inside a write transaction, so two stations
/// never get the same one.
///
/// A code is taken while its station holds it and it has not expired. When
/// the band is full, the station that has been quiet longest gives its code
/// back; it gets a fresh one when it next goes on the air. A code-protected
/// station is passed over until it has been quiet for
/// `FrequencyDial.codeProtectedHold`, since its guests were told that code.
///
/// Each step is an indexed lookup (the unique index on `frequency`, and
/// `station_reclaim` on `quietSince`), so a pick costs the same with 100
/// stations or 100,000.
enum FrequencyAllocation {
    struct Allocation {
        var frequency: String
        var reclaimedFrom: StationID?
    }

    static func allocate(
        _ db: Database, now: EpochMillis, band: FrequencyBand, using rng: inout some RandomNumberGenerator
    ) throws -> Allocation {
        // Which of these codes are held and not expired (an expired code
        // is free again): one query along the unique index on `frequency`.
        let takenAmong = { (codes: [String]) throws -> Set<String> in
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
        if let code = try band.pick(using: &rng, takenAmong: takenAmong) {
            return try take(db, code: code)
        }
        if let reclaimed = try reclaimQuietest(db, now: now) { return reclaimed }
        // Probing missed, and no quiet station can give one back: look at
        // every code before saying the band is full.
        guard let code = try band.firstFree(takenAmong: takenAmong) else { throw StorageError.noFrequency }
        return try take(db, code: code)
    }

    /// A free code; a station whose code expired lets go of it now.
    private static func take(_ db: Database, code: String) throws -> Allocation {
        let holder = try String.fetchOne(db, sql: "SELECT id FROM station WHERE frequency = ?", arguments: [code])
        if let holder {
            try db.execute(sql: "UPDATE station SET frequency = NULL WHERE id = ?", arguments: [holder])
        }
        return Allocation(frequency: code, reclaimedFrom: holder)
    }

    private static func reclaimQuietest(_ db: Database, now: EpochMillis) throws -> Allocation? {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT id, frequency FROM station
                WHERE frequency IS NOT NULL AND quietSince IS NOT NULL
                    AND (visibility != 'code' OR quietSince <= ?)
                ORDER BY quietSince LIMIT 1
                """, arguments: [now - FrequencyDial.codeProtectedHold])
        guard let row, let id: String = row["id"], let code: String = row["frequency"] else { return nil }
        try db.execute(sql: "UPDATE station SET frequency = NULL WHERE id = ?", arguments: [id])
        return Allocation(frequency: code, reclaimedFrom: id)
    }
}

/// The randomness a frequency is drawn with: the system's, or a seed (each
/// draw then starts from the seed, so a test sees the same codes again).
public enum FrequencyDraw: Sendable, Equatable {
    case system
    case seeded(UInt64)

    /// Draws with a fresh generator of this kind.
    func draw<T>(_ body: (inout any RandomNumberGenerator) throws -> T) rethrows -> T {
        var rng: any RandomNumberGenerator
        switch self {
        case .system: rng = SystemRandomNumberGenerator()
        case .seeded(let seed): rng = SeededRandom(seed: seed)
        }
        return try body(&rng)
    }
}
