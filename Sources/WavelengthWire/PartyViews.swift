import WavelengthCore

/// One waiting request as a listener sees it.
public struct RequestView: Sendable, Codable, Equatable {
    public var id: RequestID
    public var track: TrackSummary
    /// The requester's person id, so a client can offer to take back its own.
    public var requesterID: String
    public var requesterName: String
    public var requestedAt: EpochMillis
    /// The host placed it (it plays before the rest, in the host's order).
    public var arranged: Bool
    /// Vote counts: always for the host and co-DJs, for listeners only when
    /// the host shows them (seed 001 hides them by default).
    public var upvotes: Int?
    public var downvotes: Int?

    public init(
        id: RequestID, track: TrackSummary, requesterID: String, requesterName: String, requestedAt: EpochMillis,
        arranged: Bool,
        upvotes: Int?, downvotes: Int?
    ) {
        self.id = id
        self.track = track
        self.requesterID = requesterID
        self.requesterName = requesterName
        self.requestedAt = requestedAt
        self.arranged = arranged
        self.upvotes = upvotes
        self.downvotes = downvotes
    }
}

/// How far the room is from skipping the song that plays.
public struct SkipProgress: Sendable, Codable, Equatable {
    public var entryID: EntryID
    public var votes: Int
    public var needed: Int

    public init(entryID: EntryID, votes: Int, needed: Int) {
        self.entryID = entryID
        self.votes = votes
        self.needed = needed
    }
}

/// The party as one connection may see it: the mode, the host's rules, the
/// waiting requests in the order they will play, and the skip vote.
public struct PartyView: Sendable, Codable, Equatable {
    public var mode: ProgrammingMode
    public var settings: RequestSettings
    public var requests: [RequestView]
    public var skip: SkipProgress?
    /// This person's own votes, by request (only in the copy sent to them).
    public var myVotes: [RequestID: Vote]?

    public init(
        mode: ProgrammingMode, settings: RequestSettings, requests: [RequestView], skip: SkipProgress?,
        myVotes: [RequestID: Vote]? = nil
    ) {
        self.mode = mode
        self.settings = settings
        self.requests = requests
        self.skip = skip
        self.myVotes = myVotes
    }
}

/// The owner's change to the party: `PATCH /api/stations/{id}/party`.
/// Absent fields stay as they are.
public struct PartySettingsPatch: Sendable, Codable, Equatable {
    public var mode: ProgrammingMode?
    public var open: Bool?
    public var poolOnly: Bool?
    public var maxPendingPerPerson: Int?
    /// The longest track, in ms; 0 for any length.
    public var maxTrackMillis: Int64?
    public var noRepeatWithin: Int?
    public var showVoteCounts: Bool?
    public var skip: SkipThreshold?

    public init(
        mode: ProgrammingMode? = nil, open: Bool? = nil, poolOnly: Bool? = nil, maxPendingPerPerson: Int? = nil,
        maxTrackMillis: Int64? = nil, noRepeatWithin: Int? = nil, showVoteCounts: Bool? = nil, skip: SkipThreshold? = nil
    ) {
        self.mode = mode
        self.open = open
        self.poolOnly = poolOnly
        self.maxPendingPerPerson = maxPendingPerPerson
        self.maxTrackMillis = maxTrackMillis
        self.noRepeatWithin = noRepeatWithin
        self.showVoteCounts = showVoteCounts
        self.skip = skip
    }

    /// The settings after this change.
    public func applied(to settings: RequestSettings) -> RequestSettings {
        var next = settings
        if let open { next.open = open }
        if let poolOnly { next.poolOnly = poolOnly }
        if let maxPendingPerPerson { next.maxPendingPerPerson = maxPendingPerPerson }
        if let maxTrackMillis { next.maxTrackMillis = maxTrackMillis == 0 ? nil : maxTrackMillis }
        if let noRepeatWithin { next.noRepeatWithin = noRepeatWithin }
        if let showVoteCounts { next.showVoteCounts = showVoteCounts }
        if let skip { next.skip = skip }
        return next
    }
}
