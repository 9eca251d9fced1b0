/// Item-to-item co-likes: people who saved a song the room likes also saved
/// this one (in their liked songs, whichever station they heard it on).
///
/// A co-liked track borrows the room's belief about its seed: its taste
/// features include the seed's `track:` feature, so the moment a room
/// likes a song, the songs its fans also like rise with it, before the
/// room has heard any of them. What the room then says about the borrowed
/// song teaches the seed's feature too, as an artist feature is shared
/// between an artist's songs.
public struct CoLike: Sendable, Hashable {
    /// The song the room liked.
    public var seed: TrackID
    /// Its title, for the one-line reason a listener reads.
    public var seedTitle: String
    /// How many people saved both.
    public var people: Int

    public init(seed: TrackID, seedTitle: String, people: Int) {
        self.seed = seed
        self.seedTitle = seedTitle
        self.people = people
    }
}

extension TasteModel {
    /// The songs this room likes most, most liked first: the seeds its
    /// co-likes are looked up from.
    public func favouriteTracks(limit: Int) -> [TrackID] {
        beliefs
            .compactMap { feature, belief -> (TrackID, Double)? in
                guard feature.hasPrefix("track:"), belief.mean > Self.likedThreshold else { return nil }
                return (String(feature.dropFirst("track:".count)), belief.mean)
            }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
            .prefix(limit)
            .map(\.0)
    }
}

extension Array where Element == PoolTrack {
    /// The same tracks, each co-liked one marked with its seed. A seed is
    /// never marked as co-liked with itself or another seed (it is liked
    /// for itself).
    public func markingCoLikes(_ coLikes: [TrackID: CoLike]) -> [PoolTrack] {
        guard !coLikes.isEmpty else { return self }
        return map { track in
            guard let coLike = coLikes[track.id], coLike.seed != track.id else { return track }
            var marked = track
            marked.coLikedWith = coLike
            return marked
        }
    }
}

/// Counts co-likes from what storage read: who saved each seed, and what
/// else each of them saved. Pure, so SQLite, PostgreSQL and the in-memory
/// store agree.
public enum CoLikeTally {
    /// For each track saved alongside a seed, the seed most of its savers
    /// share (the lower id on a tie) and how many they are; seeds
    /// themselves are left out. Keeps the `limit` tracks most people share,
    /// the lower id first on a tie.
    public static func count(
        fans: [(person: String, seed: TrackID)], savedBy: [String: [TrackID]], titles: [TrackID: String], limit: Int
    ) -> [TrackID: CoLike] {
        let seeds = Set(fans.map(\.seed))
        var pairs: [TrackID: [TrackID: Int]] = [:]
        for (person, seed) in fans {
            for track in Set(savedBy[person] ?? []) where !seeds.contains(track) {
                pairs[track, default: [:]][seed, default: 0] += 1
            }
        }
        let best = pairs.compactMap { track, bySeed -> (track: TrackID, coLike: CoLike)? in
            guard let top = bySeed.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) else {
                return nil
            }
            return (track, CoLike(seed: top.key, seedTitle: titles[top.key] ?? "", people: top.value))
        }
        .sorted { $0.coLike.people != $1.coLike.people ? $0.coLike.people > $1.coLike.people : $0.track < $1.track }
        .prefix(max(0, limit))
        return Dictionary(best.map { ($0.track, $0.coLike) }, uniquingKeysWith: { first, _ in first })
    }
}
