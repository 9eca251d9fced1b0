import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: LinkTokenRepository {
    public func issueLinkToken(
        hash: String, purpose: LinkPurpose, stationID: StationID, personID: String, keep: Int, at: EpochMillis
    ) async throws {
        try await writer.write { db in
            // The newest `keep - 1` stay live beside the new one. Revoked
            // tokens are deleted, not kept, so asking again and again can't
            // grow the database.
            try db.execute(
                sql: """
                    DELETE FROM streamToken
                    WHERE stationID = ? AND personID = ? AND purpose = ? AND revokedAt IS NULL
                      AND hash NOT IN (
                        SELECT hash FROM streamToken
                        WHERE stationID = ? AND personID = ? AND purpose = ? AND revokedAt IS NULL
                        ORDER BY createdAt DESC, rowid DESC LIMIT ?)
                    """,
                arguments: [stationID, personID, purpose.rawValue, stationID, personID, purpose.rawValue, max(0, keep - 1)])
            try db.execute(
                sql: "INSERT INTO streamToken (hash, stationID, personID, purpose, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [hash, stationID, personID, purpose.rawValue, at])
        }
    }

    public func linkTokenHolder(hash: String, purpose: LinkPurpose) async throws -> (stationID: StationID, personID: String)? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT stationID, personID FROM streamToken WHERE hash = ? AND purpose = ? AND revokedAt IS NULL",
                arguments: [hash, purpose.rawValue]
            ).map { ($0["stationID"], $0["personID"]) }
        }
    }

    public func revokeLinkTokens(purpose: LinkPurpose, stationID: StationID, personID: String) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM streamToken
                    WHERE stationID = ? AND personID = ? AND purpose = ? AND revokedAt IS NULL
                    """,
                arguments: [stationID, personID, purpose.rawValue])
            return db.changesCount
        }
    }
}
