import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: StorageHealth {
    public func probeWrite(at now: EpochMillis) async throws {
        try await writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO healthProbe (id, checkedAt) VALUES (1, ?)", arguments: [now])
        }
    }
}
