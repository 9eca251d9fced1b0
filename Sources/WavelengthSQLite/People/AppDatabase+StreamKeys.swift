import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: StreamKeyRepository {
    public func setStreamKey(personID: String, hash: String, at: EpochMillis) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO streamKey (personID, hash, createdAt) VALUES (?, ?, ?)
                    ON CONFLICT(personID) DO UPDATE SET hash = excluded.hash, createdAt = excluded.createdAt
                    """,
                arguments: [personID, hash, at])
        }
    }

    public func streamKeyHolder(hash: String) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT personID FROM streamKey WHERE hash = ?", arguments: [hash])
        }
    }

    public func streamKeyCreated(personID: String) async throws -> EpochMillis? {
        try await writer.read { db in
            try EpochMillis.fetchOne(db, sql: "SELECT createdAt FROM streamKey WHERE personID = ?", arguments: [personID])
        }
    }

    public func removeStreamKey(personID: String) async throws -> Bool {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM streamKey WHERE personID = ?", arguments: [personID])
            return db.changesCount > 0
        }
    }
}
