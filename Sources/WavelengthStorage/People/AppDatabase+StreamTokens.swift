import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: StreamTokenRepository {
    public func issueStreamToken(hash: String, stationID: StationID, personID: String, at: EpochMillis) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE streamToken SET revokedAt = ? WHERE stationID = ? AND personID = ? AND revokedAt IS NULL",
                arguments: [at, stationID, personID])
            try db.execute(
                sql: "INSERT INTO streamToken (hash, stationID, personID, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [hash, stationID, personID, at])
        }
    }

    public func streamTokenHolder(hash: String) async throws -> (stationID: StationID, personID: String)? {
        try await writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT stationID, personID FROM streamToken WHERE hash = ? AND revokedAt IS NULL", arguments: [hash]
            ).map { ($0["stationID"], $0["personID"]) }
        }
    }

    public func revokeStreamToken(stationID: StationID, personID: String, at: EpochMillis) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE streamToken SET revokedAt = ? WHERE stationID = ? AND personID = ? AND revokedAt IS NULL",
                arguments: [at, stationID, personID])
            return db.changesCount > 0
        }
    }
}
