import WavelengthCore
import WavelengthWire

extension PartyView {
    /// The party as one connection sees it, built from the machine alone
    /// (what it may see is the machine's to say: `showsVoteCounts`,
    /// `isStaff`): vote counts when `showCounts`, the vetoed songs for the
    /// `staff`, and `personID`'s own votes and standing when given.
    /// `tracks` holds the summaries of the queue's, the ballot's and the
    /// vetoed songs.
    public init(
        machine: StationMachine, at now: EpochMillis, tracks: [TrackID: TrackSummary], showCounts: Bool, staff: Bool,
        personID: String?
    ) {
        let party = machine.party
        let ordered = party.queue.ordered()
        let ballot = party.isLobby ? party.lobby.ballot : nil
        let vetoed = party.queue.vetoed.sorted()
        let arranged = Set(party.queue.arranged)
        let requests = ordered.map { request in
            RequestView(
                id: request.id,
                track: tracks[request.trackID] ?? .unavailable(request.trackID, duration: request.durationMs),
                requesterID: request.requester, requesterName: request.requesterName, requestedAt: request.requestedAt,
                arranged: arranged.contains(request.id), upvotes: showCounts ? request.upvotes : nil,
                downvotes: showCounts ? request.downvotes : nil, linedUp: request.isLinedUp)
        }
        let state = machine.station
        var skip: SkipProgress?
        if let current = state.timeline.current(at: state.timelineTime(at: now)) {
            let listening = machine.peopleListening
            skip = SkipProgress(
                entryID: current.id, votes: party.skips.votes(on: current.id, listening: listening),
                needed: party.settings.skip.votesNeeded(listening: listening.count))
        }
        var ballotView: BallotView?
        if let ballot {
            let lobby = party.lobby
            let tally = Dictionary(
                ballot.tally(weight: { lobby.weight(of: $0) }).map { ($0.trackID, $0.votes) },
                uniquingKeysWith: { a, _ in a })
            ballotView = BallotView(
                id: ballot.id, follows: ballot.follows,
                candidates: ballot.candidates.map { candidate in
                    BallotView.Candidate(
                        track: tracks[candidate.trackID] ?? .unavailable(candidate.trackID, duration: 0),
                        suggestions: candidate.suggestedBy.count,
                        votes: showCounts ? (tally[candidate.trackID] ?? 0) : nil)
                },
                closesAt: ballot.closesAt, elected: lobby.elected, waitingSuggestions: lobby.suggestions.count)
        }
        var standing: StandingView?
        if party.isLobby, let personID {
            let credibility = party.lobby.credibility[personID] ?? Credibility()
            let open = party.lobby.elected == nil ? ballot : nil
            standing = StandingView(
                ballotID: open?.id, vote: open?.votes[personID], weight: credibility.weight,
                explanation: credibility.explanation)
        }
        var volume: VolumeView?
        if party.settings.volumeVoting, party.mode != .dj {
            let level = party.lobby.volume
            let listening = machine.peopleListening
            volume = VolumeView(
                levelDb: level.levelDb, up: level.count(.up, listening: listening),
                down: level.count(.down, listening: listening),
                needed: SkipThreshold.automatic.votesNeeded(listening: listening.count),
                mine: personID.flatMap { level.votes[$0] }, canGoUp: level.canMove(.up), canGoDown: level.canMove(.down))
        }
        self.init(
            mode: party.mode, settings: party.settings, requests: requests, skip: skip,
            myVotes: personID.map { party.queue.votes(of: $0) }, ballot: ballotView, standing: standing, volume: volume,
            vetoed: staff ? vetoed.map { tracks[$0] ?? .unavailable($0, duration: 0) } : nil)
    }
}
