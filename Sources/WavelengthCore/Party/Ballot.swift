/// A lobby's election of the next song (seed 004): a few candidates from
/// the base playlist, one vote per person, weighted by each voter's
/// `Credibility`, closed early enough for every device to prepare the winner.
public struct Ballot: Sendable, Equatable, Codable {
    public struct Candidate: Sendable, Equatable, Codable {
        public var trackID: TrackID
        /// Who put it up: listeners' suggestions, or the recommender.
        public var suggestedBy: [String]

        public init(trackID: TrackID, suggestedBy: [String] = []) {
            self.trackID = trackID
            self.suggestedBy = suggestedBy
        }
    }

    public let id: String
    /// The entry whose end the winner follows.
    public let follows: EntryID
    public let candidates: [Candidate]
    /// Votes are taken until this instant (exclusive).
    public let closesAt: EpochMillis
    /// Each person's one vote: person id → candidate track.
    public private(set) var votes: [String: TrackID] = [:]

    /// The most candidates on one ballot.
    public static let maxCandidates = 6

    public init(id: String, follows: EntryID, candidates: [Candidate], closesAt: EpochMillis) {
        self.id = id
        self.follows = follows
        self.candidates = Array(candidates.prefix(Self.maxCandidates))
        self.closesAt = closesAt
    }

    /// When a ballot for the song after an entry ending at `end` must close:
    /// every device needs `prepare` to fetch and decode the winner, and the
    /// station's commit lead on top, so the winner starts exactly at `end`.
    public static func closingTime(songEndsAt end: EpochMillis, commitLead: Int64, prepare: Int64) -> EpochMillis {
        end - commitLead - prepare
    }

    /// Puts a ballot together: listeners' suggestions first (the most
    /// suggested first, at most half the seats), the recommender's picks
    /// after, with no track twice and none of `recent`.
    public static func candidates(
        suggestions: [(trackID: TrackID, by: String)], recommended: [TrackID], recent: Set<TrackID>,
        size: Int = maxCandidates
    ) -> [Candidate] {
        let seats = min(max(1, size), maxCandidates)
        var bySuggestion: [TrackID: [String]] = [:]
        var firstSeen: [TrackID] = []
        for (trackID, person) in suggestions where !recent.contains(trackID) {
            if bySuggestion[trackID] == nil { firstSeen.append(trackID) }
            if bySuggestion[trackID]?.contains(person) != true { bySuggestion[trackID, default: []].append(person) }
        }
        let suggested = firstSeen.enumerated().sorted { a, b in
            let (ca, cb) = (bySuggestion[a.element]!.count, bySuggestion[b.element]!.count)
            return ca != cb ? ca > cb : a.offset < b.offset
        }.map(\.element)
        var chosen = suggested.prefix(seats / 2).map { Candidate(trackID: $0, suggestedBy: bySuggestion[$0]!) }
        for trackID in recommended where chosen.count < seats {
            guard !recent.contains(trackID), !chosen.contains(where: { $0.trackID == trackID }) else { continue }
            chosen.append(Candidate(trackID: trackID))
        }
        // Seats the recommender could not fill go back to suggestions.
        for trackID in suggested.dropFirst(seats / 2) where chosen.count < seats {
            guard !chosen.contains(where: { $0.trackID == trackID }) else { continue }
            chosen.append(Candidate(trackID: trackID, suggestedBy: bySuggestion[trackID]!))
        }
        return chosen
    }

    public var isEmpty: Bool { candidates.isEmpty }

    public func isOpen(at now: EpochMillis) -> Bool { now < closesAt }

    /// `person` votes for a candidate; a later vote replaces theirs.
    public mutating func vote(for trackID: TrackID, by person: String, at now: EpochMillis) throws(BallotError) {
        guard isOpen(at: now) else { throw .closed }
        guard candidates.contains(where: { $0.trackID == trackID }) else { throw .notACandidate }
        votes[person] = trackID
    }

    /// The people who voted for `trackID`.
    public func voters(for trackID: TrackID) -> Set<String> {
        Set(votes.filter { $0.value == trackID }.keys)
    }

    /// Each candidate's weighted votes, in ballot order.
    public func tally(weight: (String) -> Double) -> [(trackID: TrackID, votes: Double)] {
        var totals: [TrackID: Double] = [:]
        for (person, trackID) in votes { totals[trackID, default: 0] += weight(person) }
        return candidates.map { ($0.trackID, totals[$0.trackID] ?? 0) }
    }

    /// The winner: the most weighted votes; a tie goes to the candidate the
    /// recommender rates higher (seed 004), then to the earlier candidate.
    /// Only candidates still `eligible` can win: the rules may have moved
    /// since the ballot opened (a lifted veto widens the repeat window).
    public func winner(
        weight: (String) -> Double, recommender: (TrackID) -> Double, eligible: (TrackID) -> Bool = { _ in true }
    ) -> TrackID? {
        let tally = tally(weight: weight)
        return tally.enumerated().filter { eligible($0.element.trackID) }.max { a, b in
            if a.element.votes != b.element.votes { return a.element.votes < b.element.votes }
            let (ra, rb) = (recommender(a.element.trackID), recommender(b.element.trackID))
            if ra != rb { return ra < rb }
            return a.offset > b.offset
        }?.element.trackID
    }
}

/// Why a ballot vote was refused; it changes nothing.
public enum BallotError: Error, Equatable, Sendable {
    /// The ballot closed: the winner is being prepared.
    case closed
    /// The track is not on this ballot.
    case notACandidate
}
