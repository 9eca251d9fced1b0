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

    public func coLiked(with seeds: [TrackID], fans: Int, recentPerPerson: Int, limit: Int) async throws
        -> [TrackID: CoLike]
    {
        let seeds = Array(Set(seeds).prefix(100))
        guard !seeds.isEmpty else { return [:] }
        let marks = databaseQuestionMarks(count: seeds.count)
        return try await writer.read { db in
            // Both reads walk an index (v10): savers of a track, newest
            // first; a person's songs, newest first.
            let fanRows = try Row.fetchAll(
                db,
                sql: "SELECT personID, trackID FROM likedTrack WHERE trackID IN (\(marks)) ORDER BY likedAt DESC LIMIT ?",
                arguments: StatementArguments(seeds) + [fans])
            let fanPairs = fanRows.map { (person: $0["personID"] as String, seed: $0["trackID"] as TrackID) }
            var savedBy: [String: [TrackID]] = [:]
            for person in Set(fanPairs.map(\.person)) {
                savedBy[person] = try TrackID.fetchAll(
                    db, sql: "SELECT trackID FROM likedTrack WHERE personID = ? ORDER BY likedAt DESC LIMIT ?",
                    arguments: [person, recentPerPerson])
            }
            let titleRows = try Row.fetchAll(
                db, sql: "SELECT id, title FROM track WHERE id IN (\(marks))", arguments: StatementArguments(seeds))
            let titles = Dictionary(
                titleRows.map { ($0["id"] as TrackID, $0["title"] as String) }, uniquingKeysWith: { first, _ in first })
            return CoLikeTally.count(fans: fanPairs, savedBy: savedBy, titles: titles, limit: limit)
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
