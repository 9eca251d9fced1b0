import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: StorageHealth {
    public func probeWrite(at now: EpochMillis) async throws {
        try await transaction { connection in
            try await connection.query(
                """
                INSERT INTO health_probe (id, checked_at) VALUES (1, \(now))
                ON CONFLICT (id) DO UPDATE SET checked_at = EXCLUDED.checked_at
                """, logger: logger)
        }
    }
}
