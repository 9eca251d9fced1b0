import PostgresNIO
import WavelengthCore
import WavelengthStore

extension PostgresStore: LikesRepository {
    public func like(personID: String, trackID: TrackID, at: EpochMillis, limit: Int) async throws -> Bool {
        try await transaction { connection in
            // One person's likes are counted and added one request at a time.
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\("likes:" + personID)))", logger: logger)
            let exists = try await connection.query(
                "SELECT 1 AS one FROM liked_track WHERE person_id = \(personID) AND track_id = \(trackID)", logger: logger
            ).first { _ in true } ?? false
            if exists { return true }
            let count = try await connection.query(
                "SELECT count(*) AS n FROM liked_track WHERE person_id = \(personID)", logger: logger
            ).first { try $0.value("n", as: Int64.self) } ?? 0
            guard count < limit else { return false }
            try await connection.query(
                "INSERT INTO liked_track (person_id, track_id, liked_at) VALUES (\(personID), \(trackID), \(at))",
                logger: logger)
            return true
        }
    }

    public func unlike(personID: String, trackID: TrackID) async throws {
        try await query(
            "DELETE FROM liked_track WHERE person_id = \(personID) AND track_id = \(trackID)")
    }

    public func likedTracks(personID: String, limit: Int) async throws -> [TrackID] {
        try await query(
            """
            SELECT track_id FROM liked_track WHERE person_id = \(personID) ORDER BY liked_at DESC, seq DESC LIMIT \(limit)
            """
        ).all { try $0.value("track_id", as: String.self) }
    }

    public func coLiked(with seeds: [TrackID], fans: Int, recentPerPerson: Int, limit: Int) async throws
        -> [TrackID: CoLike]
    {
        let seeds = Array(Set(seeds).prefix(100))
        guard !seeds.isEmpty else { return [:] }
        return try await transaction { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            // Each read walks an index: savers of a track, newest first; a person's songs, newest first.
            let fanPairs = try await connection.query(
                """
                SELECT person_id, track_id FROM liked_track WHERE track_id = ANY(\(seeds))
                ORDER BY liked_at DESC LIMIT \(fans)
                """, logger: logger
            ).all { (person: try $0.value("person_id", as: String.self), seed: try $0.value("track_id", as: TrackID.self)) }
            var savedBy: [String: [TrackID]] = [:]
            for person in Set(fanPairs.map(\.person)) {
                savedBy[person] = try await connection.query(
                    """
                    SELECT track_id FROM liked_track WHERE person_id = \(person)
                    ORDER BY liked_at DESC LIMIT \(recentPerPerson)
                    """, logger: logger
                ).all { try $0.value("track_id", as: TrackID.self) }
            }
            let titles = try await connection.query(
                "SELECT id, title FROM track WHERE id = ANY(\(seeds))", logger: logger
            ).all { (try $0.value("id", as: TrackID.self), try $0.value("title", as: String.self)) }
            return CoLikeTally.count(
                fans: fanPairs, savedBy: savedBy, titles: Dictionary(titles, uniquingKeysWith: { first, _ in first }),
                limit: limit)
        }
    }
}
