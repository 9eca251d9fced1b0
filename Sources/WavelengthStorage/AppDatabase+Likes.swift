import GRDB
import WavelengthCore
import WavelengthStore

extension AppDatabase: LikesRepository {
    public func like(personID: String, trackID: TrackID, at: EpochMillis, limit: Int) async throws -> Bool {
        try await writer.write { db in
            let exists = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM likedTrack WHERE personID = ? AND trackID = ?", arguments: [personID, trackID]) ?? false
            if exists { return true }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM likedTrack WHERE personID = ?", arguments: [personID]) ?? 0
            guard count < limit else { return false }
            try db.execute(
                sql: "INSERT INTO likedTrack (personID, trackID, likedAt) VALUES (?, ?, ?)", arguments: [personID, trackID, at])
            return true
        }
    }

    public func unlike(personID: String, trackID: TrackID) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM likedTrack WHERE personID = ? AND trackID = ?", arguments: [personID, trackID])
        }
    }

    public func likedTracks(personID: String, limit: Int) async throws -> [TrackID] {
        try await writer.read { db in
            try TrackID.fetchAll(
                db, sql: "SELECT trackID FROM likedTrack WHERE personID = ? ORDER BY likedAt DESC, rowid DESC LIMIT ?",
                arguments: [personID, limit])
        }
    }
}
