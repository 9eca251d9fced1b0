/// The party's queue of requests (seed 001): who asked for what, the votes,
/// and the host's overrides. A value type with no clock and no I/O: every
/// instant comes in as a parameter.
///
/// The order (`ordered()`):
/// 1. The host's arrangement first: requests the host pinned or moved, in
///    the order the host left them.
/// 2. Then everyone else's requests, taking turns between requesters. A
///    request's *round* is its requester's turn count plus its place among
///    that requester's own waiting requests (best score first). Lower rounds
///    play first, so one guest's five requests interleave with everyone
///    else's one.
/// 3. Within a round: the higher score (ups minus downs) first.
/// 4. Ties: the earliest request first.
///
/// Turns: a requester's turn count goes up by one each time one of their
/// requests is played. Someone who starts requesting (no request waiting)
/// joins at the lowest turn count among those waiting, so arriving late
/// earns a fair place in the rotation, not a run of catch-up turns.
public struct RequestQueue: Sendable, Equatable, Codable {
    /// Waiting requests, in the order they were made.
    public private(set) var pending: [SongRequest] = []
    /// The host's arrangement: these play first, in this order.
    public private(set) var arranged: [RequestID] = []
    /// Tracks the host vetoed; they can't be requested again.
    public private(set) var vetoed: Set<TrackID> = []
    /// Each requester's turn count (see the type's comment).
    public private(set) var turns: [String: Int] = [:]

    /// The most requests that may wait at once, whatever the per-person cap.
    public static let maxPending = 500

    public init() {}

    /// What asking for a track did.
    public enum Requested: Sendable, Equatable {
        /// A new request, with the requester's own upvote.
        case added(SongRequest)
        /// The track was already requested: the ask counts as an upvote.
        case upvoted(SongRequest)
    }

    /// A track as the queue needs to judge a request for it.
    public struct Candidate: Sendable, Equatable {
        public var trackID: TrackID
        public var durationMs: Int64

        public init(trackID: TrackID, durationMs: Int64) {
            self.trackID = trackID
            self.durationMs = durationMs
        }
    }

    /// `person` asks for `track`. Asking for a track that is already waiting
    /// is an upvote (seed 001), which no limit stops. A new request must pass
    /// the host's settings: requests open, the person's cap, the longest
    /// track, no repeat of a track among the last `recentPlays`, no veto.
    public mutating func request(
        _ track: Candidate, id: RequestID, by person: String, named name: String = "", at now: EpochMillis,
        settings: RequestSettings, recentPlays: [TrackID]
    ) throws(RequestError) -> Requested {
        guard settings.open else { throw .closed }
        if let index = pending.firstIndex(where: { $0.trackID == track.trackID }) {
            pending[index].votes[person] = .up
            return .upvoted(pending[index])
        }
        guard !vetoed.contains(track.trackID) else { throw .vetoed }
        if let maxMillis = settings.maxTrackMillis, track.durationMs > maxMillis { throw .tooLong(maxMillis: maxMillis) }
        if recentPlays.prefix(settings.noRepeatWithin).contains(track.trackID) {
            throw .playedRecently(within: settings.noRepeatWithin)
        }
        let mine = pending.count { $0.requester == person }
        guard mine < settings.maxPendingPerPerson else { throw .tooManyPending(limit: settings.maxPendingPerPerson) }
        guard pending.count < Self.maxPending else { throw .queueFull }
        if mine == 0 {
            let lowest = pending.map { turns[$0.requester] ?? 0 }.min() ?? turns[person] ?? 0
            turns[person] = max(turns[person] ?? 0, lowest)
        }
        let request = SongRequest(
            id: id, trackID: track.trackID, requester: person, requesterName: name, requestedAt: now,
            durationMs: track.durationMs)
        pending.append(request)
        return .added(request)
    }

    /// `person` votes on a waiting request; a second vote replaces the
    /// first, and nil takes it back.
    public mutating func vote(_ vote: Vote?, on id: RequestID, by person: String) throws(RequestError) -> SongRequest {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { throw .unknownRequest }
        pending[index].votes[person] = vote
        return pending[index]
    }

    /// The requester takes their own request back (the host may take any).
    public mutating func withdraw(_ id: RequestID, by person: String, isHost: Bool) throws(RequestError) -> SongRequest {
        guard let request = pending.first(where: { $0.id == id }) else { throw .unknownRequest }
        guard isHost || request.requester == person else { throw .notYours }
        return remove(id)
    }

    // MARK: The host's overrides

    /// Puts a request at `index` of the order (0 = next). Everything from the
    /// top down to it becomes the host's arrangement, which plays first and
    /// in that order; what follows stays ordered by turns and votes.
    public mutating func move(_ id: RequestID, toIndex index: Int) throws(RequestError) {
        guard pending.contains(where: { $0.id == id }) else { throw .unknownRequest }
        var order = ordered().map(\.id)
        order.removeAll { $0 == id }
        let at = min(max(0, index), order.count)
        order.insert(id, at: at)
        arranged = Array(order[...at])
    }

    /// Pins a request right after those the host already arranged.
    public mutating func pin(_ id: RequestID) throws(RequestError) {
        try move(id, toIndex: arranged.filter { $0 != id }.count)
    }

    /// Refuses a request, and its track for the rest of the party.
    public mutating func veto(_ id: RequestID) throws(RequestError) -> SongRequest {
        guard let request = pending.first(where: { $0.id == id }) else { throw .unknownRequest }
        vetoed.insert(request.trackID)
        return remove(id)
    }

    /// Takes a request out of the queue to play it now; it counts as the
    /// requester's turn.
    public mutating func playNow(_ id: RequestID) throws(RequestError) -> SongRequest {
        guard pending.contains(where: { $0.id == id }) else { throw .unknownRequest }
        return played(remove(id))
    }

    /// The votes `person` has cast, by request.
    public func votes(of person: String) -> [RequestID: Vote] {
        var mine: [RequestID: Vote] = [:]
        for request in pending {
            if let vote = request.votes[person] { mine[request.id] = vote }
        }
        return mine
    }

    /// Takes the request that plays next, if any, counting the requester's turn.
    public mutating func next() -> SongRequest? {
        guard let first = ordered().first else { return nil }
        return played(remove(first.id))
    }

    /// The waiting requests in the order they will play (see the type's comment).
    public func ordered() -> [SongRequest] {
        let byID = Dictionary(uniqueKeysWithValues: pending.map { ($0.id, $0) })
        let arrangedRequests = arranged.compactMap { byID[$0] }
        let arrangedIDs = Set(arranged)
        let free = pending.filter { !arrangedIDs.contains($0.id) }
        var round: [RequestID: Int] = [:]
        for (requester, theirs) in Dictionary(grouping: free, by: \.requester) {
            let turn = turns[requester] ?? 0
            for (place, request) in theirs.sorted(by: Self.byScoreThenAge).enumerated() {
                round[request.id] = turn + place
            }
        }
        let rotation = free.sorted { a, b in
            let (ra, rb) = (round[a.id] ?? 0, round[b.id] ?? 0)
            return ra != rb ? ra < rb : Self.byScoreThenAge(a, b)
        }
        return arrangedRequests + rotation
    }

    private static func byScoreThenAge(_ a: SongRequest, _ b: SongRequest) -> Bool {
        if a.score != b.score { return a.score > b.score }
        if a.requestedAt != b.requestedAt { return a.requestedAt < b.requestedAt }
        return a.id < b.id
    }

    /// Every caller has checked that `id` is waiting.
    private mutating func remove(_ id: RequestID) -> SongRequest {
        let index = pending.firstIndex { $0.id == id }!
        arranged.removeAll { $0 == id }
        return pending.remove(at: index)
    }

    private mutating func played(_ request: SongRequest) -> SongRequest {
        turns[request.requester, default: 0] += 1
        return request
    }
}
