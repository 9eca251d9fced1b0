/// A request's identity, chosen by the server when it is first made.
public typealias RequestID = String

/// One person's opinion of a request.
public enum Vote: String, Sendable, Codable, Equatable {
    case up, down
}

/// A song someone asked for at a party, with everyone's votes on it.
public struct SongRequest: Sendable, Equatable, Codable {
    public let id: RequestID
    public let trackID: TrackID
    /// The person who asked first; fairness takes turns between requesters.
    public let requester: String
    /// The requester's display name when they asked ("requested by …").
    public let requesterName: String
    public let requestedAt: EpochMillis
    /// How long the track plays, so the request can be scheduled without
    /// looking the track up again.
    public let durationMs: Int64
    /// One vote per person (person id → vote): a second vote replaces the
    /// first. The requester's own request counts as their upvote.
    public internal(set) var votes: [String: Vote]
    /// The timeline entry it is lined up as, once scheduled to play next.
    /// It stays the requester's (counted against their cap, shown as theirs)
    /// until that entry starts playing. Nil while it waits.
    public internal(set) var entryID: EntryID?

    public init(
        id: RequestID, trackID: TrackID, requester: String, requesterName: String = "", requestedAt: EpochMillis,
        durationMs: Int64 = 0
    ) {
        self.id = id
        self.trackID = trackID
        self.requester = requester
        self.requesterName = requesterName
        self.requestedAt = requestedAt
        self.durationMs = durationMs
        self.votes = [requester: .up]
    }

    /// Whether it is on the timeline, lined up to play.
    public var isLinedUp: Bool { entryID != nil }

    public var upvotes: Int { votes.values.count { $0 == .up } }
    public var downvotes: Int { votes.values.count { $0 == .down } }

    /// Ups minus downs: ten votes cast late outweigh one cast early, since
    /// time never enters the score (it only breaks ties).
    public var score: Int { upvotes - downvotes }
}
