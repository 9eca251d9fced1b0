/// The party's queue of requests (seed 001): who asked for what, the votes,
/// and the host's overrides. A value type with no clock and no I/O: every
/// instant comes in as a parameter.
///
/// A request stays here from the moment it is made until it starts playing.
/// While it waits it moves with votes; once *lined up* (on the timeline as
/// the song after the one playing) it keeps its place, still counts against
/// its requester's cap and still shows as theirs. Its requester's turn is
/// counted when it starts.
///
/// The order (`ordered()`):
/// 1. The request lined up, if any.
/// 2. The host's arrangement: requests the host pinned or moved, in the
///    order the host left them.
/// 3. Then everyone else's requests, taking turns between requesters. A
///    request's *round* is its requester's turn count plus its place among
///    that requester's own requests (the lined-up one first, then best score
///    first). Lower rounds play first, so one guest's five requests
///    interleave with everyone else's one.
/// 4. Within a round: the higher score (ups minus downs) first.
/// 5. Ties: the earliest request first.
///
/// Turns: a requester's turn count goes up by one each time one of their
/// requests starts playing. Someone who starts requesting (no request of
/// theirs here) joins at the lowest turn count among those waiting: arriving
/// late earns a fair place in the rotation, neither a run of catch-up turns
/// nor a wait behind everyone else's backlog.
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
    /// the host's settings: requests open, the person's cap (their requests
    /// lined up count until they start), the longest track, the repeat rule
    /// over `recentPlays` (newest first), no veto.
    public mutating func request(
        _ track: Candidate, id: RequestID, by person: String, named name: String = "", at now: EpochMillis,
        settings: RequestSettings, recentPlays: [TrackID], repeats: RepeatRule? = nil
    ) throws(RequestError) -> Requested {
        guard settings.open else { throw .closed }
        if let index = pending.firstIndex(where: { $0.trackID == track.trackID }) {
            guard !pending[index].isLinedUp else { throw .alreadyScheduled }
            pending[index].votes[person] = .up
            return .upvoted(pending[index])
        }
        guard !vetoed.contains(track.trackID) else { throw .vetoed }
        if let maxMillis = settings.maxTrackMillis, track.durationMs > maxMillis { throw .tooLong(maxMillis: maxMillis) }
        let rule = repeats ?? RepeatRule(within: settings.noRepeatWithin, choices: .max)
        if !rule.allows(track.trackID, latestPlays: recentPlays) {
            throw .playedRecently(within: rule.window)
        }
        let mine = pending.count { $0.requester == person }
        guard mine < settings.maxPendingPerPerson else { throw .tooManyPending(limit: settings.maxPendingPerPerson) }
        guard pending.count < Self.maxPending else { throw .queueFull }
        if mine == 0, let lowest = pending.map({ turns[$0.requester] ?? 0 }).min() {
            turns[person] = lowest
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
        // Lined up, its place is settled: a vote would change nothing.
        guard !pending[index].isLinedUp else { throw .alreadyScheduled }
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

    /// Puts a waiting request at `index` of the order (0 = next; a request
    /// lined up keeps its place ahead). Everything from the top down to it
    /// becomes the host's arrangement, which plays first and in that order;
    /// what follows stays ordered by turns and votes.
    public mutating func move(_ id: RequestID, toIndex index: Int) throws(RequestError) {
        guard let request = pending.first(where: { $0.id == id }) else { throw .unknownRequest }
        guard !request.isLinedUp else { throw .alreadyScheduled }
        var order = ordered().filter { !$0.isLinedUp }.map(\.id)
        order.removeAll { $0 == id }
        let at = min(max(0, index - linedUp.count), order.count)
        order.insert(id, at: at)
        arranged = Array(order[...at])
    }

    /// Pins a request right after those the host already arranged.
    public mutating func pin(_ id: RequestID) throws(RequestError) {
        try move(id, toIndex: arranged.filter { $0 != id }.count)
    }

    /// Refuses a request, and its track for the rest of the party (the
    /// caller takes a lined-up request's entry off the timeline).
    public mutating func veto(_ id: RequestID) throws(RequestError) -> SongRequest {
        guard let request = pending.first(where: { $0.id == id }) else { throw .unknownRequest }
        vetoed.insert(request.trackID)
        return remove(id)
    }

    /// The host refuses a track for the rest of the party, whether asked
    /// for or not; a request waiting for it goes.
    public mutating func veto(track trackID: TrackID) -> SongRequest? {
        vetoed.insert(trackID)
        return pending.first { $0.trackID == trackID }.map { remove($0.id) }
    }

    /// The host lifts a veto: the track may be asked for and picked again.
    public mutating func liftVeto(_ trackID: TrackID) throws(RequestError) {
        guard vetoed.remove(trackID) != nil else { throw .notVetoed }
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

    /// The requests lined up on the timeline, oldest first.
    public var linedUp: [SongRequest] { pending.filter(\.isLinedUp) }

    /// Lines up the request that plays next, if any, as timeline entry
    /// `entryID`. It stays here (and counts as its requester's) until it starts.
    public mutating func lineUp(as entryID: EntryID) -> SongRequest? {
        guard let first = ordered().first(where: { !$0.isLinedUp }),
            let index = pending.firstIndex(where: { $0.id == first.id })
        else { return nil }
        arranged.removeAll { $0 == first.id }
        pending[index].entryID = entryID
        return pending[index]
    }

    /// The request lined up as `entryID` started playing: it leaves the
    /// queue, and its requester's turn is counted.
    @discardableResult
    public mutating func started(_ entryID: EntryID) -> SongRequest? {
        guard let request = pending.first(where: { $0.entryID == entryID }) else { return nil }
        return played(remove(request.id))
    }

    /// The request lined up as `entryID` left the timeline without playing
    /// (the station went quiet first): it waits again, in its place.
    public mutating func unschedule(_ entryID: EntryID) {
        guard let index = pending.firstIndex(where: { $0.entryID == entryID }) else { return }
        pending[index].entryID = nil
    }

    /// The request lined up as `entryID`, if any.
    public func request(linedUpAs entryID: EntryID) -> SongRequest? {
        pending.first { $0.entryID == entryID }
    }

    /// The requests in the order they will play (see the type's comment).
    public func ordered() -> [SongRequest] {
        let byID = Dictionary(uniqueKeysWithValues: pending.map { ($0.id, $0) })
        let lined = linedUp
        let arrangedRequests = arranged.compactMap { byID[$0] }.filter { !$0.isLinedUp }
        let round = rounds()
        let rotation = pending.filter { round[$0.id] != nil }.sorted { a, b in
            let (ra, rb) = (round[a.id]!, round[b.id]!)
            return ra != rb ? ra < rb : Self.byScoreThenAge(a, b)
        }
        return lined + arrangedRequests + rotation
    }

    /// The round of each waiting request that isn't the host's arrangement
    /// (see the type's comment): what "turns alternate" is checked against.
    public func rounds() -> [RequestID: Int] {
        let arrangedIDs = Set(arranged)
        let linedByRequester = Dictionary(grouping: linedUp, by: \.requester).mapValues(\.count)
        var round: [RequestID: Int] = [:]
        let free = pending.filter { !arrangedIDs.contains($0.id) && !$0.isLinedUp }
        for (requester, theirs) in Dictionary(grouping: free, by: \.requester) {
            let turn = (turns[requester] ?? 0) + (linedByRequester[requester] ?? 0)
            for (place, request) in theirs.sorted(by: Self.byScoreThenAge).enumerated() {
                round[request.id] = turn + place
            }
        }
        return round
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
