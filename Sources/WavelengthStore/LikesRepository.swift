import WavelengthCore

/// A person's liked songs (seed 004's "save to library").
public protocol LikesRepository: Sendable {
    /// Saves a track for a person; false when they already hold `limit`
    /// liked tracks (checked in the same transaction, so racing saves
    /// can't pass it). Saving one already liked keeps it and answers true.
    func like(personID: String, trackID: TrackID, at: EpochMillis, limit: Int) async throws -> Bool
    func unlike(personID: String, trackID: TrackID) async throws
    /// The person's liked tracks, newest first.
    func likedTracks(personID: String, limit: Int) async throws -> [TrackID]
    /// Songs saved by people who saved any of `seeds`, with the seed they
    /// share most (`CoLikeTally`). Bounded whatever the data: the `fans`
    /// most recent savers of the seeds, and each one's `recentPerPerson`
    /// newest songs.
    func coLiked(with seeds: [TrackID], fans: Int, recentPerPerson: Int, limit: Int) async throws -> [TrackID: CoLike]
}
