/// The lobby (seed 004) as events of the station machine: a ballot for the
/// song after the one playing opens when that song starts, each person has
/// one vote weighted by their credibility, and the ballot closes early
/// enough for every device to prepare the winner (`LobbyState`). The winner
/// starts exactly when the song ends; a tie goes to the robot's taste.
extension StationMachine {
    /// Opens the ballot for the song after the one playing, when the station
    /// is a lobby on the air with people listening and none is open for it.
    /// A ballot that survived a restart gets its timer back.
    public mutating func openBallot(at now: EpochMillis, robot: RobotInputs, using rng: inout some RandomNumberGenerator)
        -> [HubAction]
    {
        guard party.isLobby, station.isOnAir, station.pausedAt == nil, !connections.isEmpty,
            let current = station.timeline.current(at: now)
        else { return [] }
        if let ballot = party.lobby.ballot, ballot.follows == current.id {
            // Its timer stops when everyone leaves (the station goes quiet).
            // Back before its song ends, the ballot closes on time, or at
            // once if its time passed meanwhile: the votes already cast
            // still choose the next song.
            guard party.lobby.elected == nil, timers[.ballot] == nil else { return [] }
            return startTimer(.ballot, at: max(ballot.closesAt, now))
        }
        let closesAt = Ballot.closingTime(
            songEndsAt: current.expiration, commitLead: settings.commitLead, prepare: LobbyState.prepareMillis)
        // Too short to vote on: no candidates are worked out (a crowd
        // joining would work them out once per arrival).
        let candidates =
            closesAt - now >= LobbyState.minimumVotingMillis
            ? ballotCandidates(current, at: now, robot: robot, using: &rng) : []
        guard !candidates.isEmpty else {
            // No vote for this song: a ballot left from an earlier song must
            // not go on showing ("the winner plays next") over old candidates.
            guard party.lobby.ballot != nil else { return [] }
            party.lobby.ballot = nil
            party.lobby.elected = nil
            lobbyChanged = true
            return cancelTimer(.ballot) + [.broadcastRequests]
        }
        party.lobby.serial += 1
        party.lobby.ballot = Ballot(
            id: "b\(party.lobby.serial)", follows: current.id, candidates: candidates, closesAt: closesAt)
        party.lobby.elected = nil
        party.lobby.consumeSuggestions(for: Set(candidates.map(\.trackID)))
        lobbyChanged = true
        var actions = startTimer(.ballot, at: closesAt)
        actions.append(.broadcastRequests)
        // Everyone's vote starts afresh.
        actions += standings(of: peopleListening)
        return actions
    }

    /// What a ballot for the song after `current` may offer: the room's
    /// suggestions and the robot's recommendations that the rules allow,
    /// none of them already lined up.
    private func ballotCandidates(
        _ current: TimelineEntry, at now: EpochMillis, robot: RobotInputs, using rng: inout some RandomNumberGenerator
    ) -> [Ballot.Candidate] {
        let played = station.latestPlays(at: now)
        let rules = rules
        let repeats = rules.repeats(robot)
        // A song someone already lined up (an earlier ballot's winner, the
        // host's pick, a request) is not offered: it would play twice in a
        // row. The robot's picks are fair game (a winner takes their place).
        let linedUp = Set(station.timeline.upcoming(at: now).filter { $0.source != .robot }.map(\.trackID))
        let allowedInputs = rules.robotInputs(robot)
        let pool = settings.robot.effectivePool(allowedInputs.pool, fallback: allowedInputs.fallback)
        let allowed = rules.robotDJ(robot).candidates(
            from: pool, recent: played.reversed(), lastArtist: robot.artists[current.trackID]
        ).filter { !linedUp.contains($0.id) && rules.mayOffer($0.id, repeats: repeats, inputs: robot, latestPlays: played) }
        let refused = Set(
            party.lobby.suggestions.map(\.trackID).filter { !rules.mayOffer($0, repeats: repeats, inputs: robot, latestPlays: played) })
        return Ballot.candidates(
            suggestions: party.lobby.suggestions.map { ($0.trackID, $0.personID) },
            recommended: recommend(from: allowed, count: Ballot.maxCandidates, using: &rng),
            recent: refused.union(linedUp))
    }

    /// The ballot closes: its winner is lined up after the song playing.
    mutating func closeBallot(at now: EpochMillis, robot: RobotInputs, using rng: inout some RandomNumberGenerator)
        -> [HubAction]
    {
        guard party.isLobby, let ballot = party.lobby.ballot, party.lobby.elected == nil,
            let current = station.timeline.current(at: station.timelineTime(at: now)), current.id == ballot.follows
        else { return [] }
        let lobby = party.lobby
        let (rules, played) = (rules, station.latestPlays(at: now))
        let repeats = rules.repeats(robot)
        // A candidate the rules no longer allow (a veto lifted mid-ballot
        // widened the window) can't win; if none is left, the robot's pick stands.
        let winner = ballot.winner(
            weight: { lobby.weight(of: $0) },
            recommender: { trackID in robot.track(trackID).map { self.taste.appeal($0.tasteFeatures) } ?? 0 },
            eligible: { rules.mayOffer($0, repeats: repeats, inputs: robot, latestPlays: played) })
        guard let winner, let track = robot.track(winner) else { return [] }
        var outcome: StationState.Outcome
        do {
            outcome = try elect(track, from: ballot, why: electedReason(ballot, winner), at: now, using: &rng)
        } catch {
            return []  // a full timeline: the robot's pick stands
        }
        outcome.merge(robotFill(at: now, robot: robot, using: &rng))
        return [.save(save(outcome, command: nil)), .broadcastUpdate, .broadcastRequests] + reschedule(at: now)
    }

    /// The open ballot chooses the song after the one playing. When the host
    /// (a DJ command) puts a song of their own in that place, they have
    /// chosen it, as `elect` does: the ballot ends with the host's song, and
    /// the room is told. Else the ballot's winner would go in front of the
    /// host's song, and the next ballot's in front again: a host's "play
    /// next" never played while the lobby voted.
    /// `nextBefore`: the entry that was next before the command.
    mutating func ballotTakenByTheHost(at now: EpochMillis, nextBefore: EntryID?, name: String) -> [HubAction] {
        let time = station.timelineTime(at: now)
        guard party.isLobby, let ballot = party.lobby.ballot, party.lobby.elected == nil,
            let current = station.timeline.current(at: time), current.id == ballot.follows,
            let next = station.timeline.upcoming(at: time).first(where: { $0.source != .voice }), next.source == .dj,
            next.id != nextBefore
        else { return [] }
        party.lobby.elected = next.trackID
        lobbyChanged = true
        let notice = HostOverride(kind: .elected, trackID: next.trackID, requesterName: name)
        return cancelTimer(.ballot) + [.broadcast(.hostOverride(notice), except: nil), .broadcastRequests]
    }

    /// Puts `track` on the timeline as the ballot's winner and remembers who
    /// backed it.
    mutating func elect(
        _ track: PoolTrack, from ballot: Ballot, why: String?, at now: EpochMillis,
        using rng: inout some RandomNumberGenerator
    ) throws(TimelineError) -> StationState.Outcome {
        let entryID = EntryIDs.make(using: &rng)
        let outcome = try station.elect(track, entryID: entryID, why: why, at: now)
        let suggesters = ballot.candidates.first { $0.trackID == track.id }?.suggestedBy ?? []
        party.lobby.elected = track.id
        party.lobby.backed(entryID, by: ballot.voters(for: track.id).union(suggesters))
        lobbyChanged = true
        return outcome
    }

    /// The lobby's commands, on a copy of the machine (see `partyCommand`).
    mutating func lobbyCommand(
        _ command: StationCommand, by asker: Asker, person: String, at now: EpochMillis, track: PoolTrack?,
        robot: RobotInputs, using rng: inout some RandomNumberGenerator
    ) throws -> (StationState.Outcome, [HubAction]) {
        switch command {
        case .request(let trackID):
            guard let track, track.id == trackID, track.duration > 0 else { throw TimelineError.unknownTrack(trackID) }
            try rules.mayAsk(for: track, inputs: robot, latestPlays: station.latestPlays(at: now))
            try party.lobby.suggest(trackID, by: person)
            learn(.requested, trackID: trackID, robot: robot)
            lobbyChanged = true
            return (.init(), [])
        case .ballotVote(let ballotID, let trackID):
            guard var ballot = party.lobby.ballot else { throw RequestError.noBallot }
            guard ballot.id == ballotID, party.lobby.elected == nil else { throw RequestError.ballotClosed }
            do {
                try ballot.vote(for: trackID, by: person, at: now)
            } catch {
                throw error == .closed ? RequestError.ballotClosed : RequestError.notACandidate
            }
            party.lobby.ballot = ballot
            lobbyChanged = true
            return (.init(), standings(of: [person]))
        case .elect(let ballotID, let trackID):
            guard let ballot = party.lobby.ballot else { throw RequestError.noBallot }
            guard ballot.id == ballotID, party.lobby.elected == nil, ballot.isOpen(at: now) else {
                throw RequestError.ballotClosed
            }
            // The host may pick any song, on the ballot or not.
            guard let chosen = robot.track(trackID) ?? track.flatMap({ $0.id == trackID ? $0 : nil }), chosen.duration > 0
            else { throw TimelineError.unknownTrack(trackID) }
            // A veto holds until the host lifts it, against the host's own ballot too.
            guard !party.queue.vetoed.contains(trackID) else { throw RequestError.vetoed }
            let outcome = try elect(chosen, from: ballot, why: "The host's choice", at: now, using: &rng)
            let notice = HostOverride(kind: .elected, trackID: trackID, requesterName: asker.name)
            return (outcome, cancelTimer(.ballot) + [.broadcast(.hostOverride(notice), except: nil)])
        default:
            throw RequestError.notRequestsMode
        }
    }

    /// The room reacted to an entry: the people who backed it gain or lose
    /// standing, and are told.
    mutating func backersReact(_ reaction: Credibility.Reaction, to entryID: EntryID, by reactor: String?)
        -> [HubAction]
    {
        let changed = party.lobby.roomReacted(reaction, to: entryID, by: reactor)
        guard !changed.isEmpty else { return [] }
        for person in changed { credibilityChange[person] = party.lobby.credibility[person] }
        return standings(of: Set(changed))
    }

    /// Why a person's connections to a lobby closed: they joined another.
    public static let anotherLobby = "another-lobby"

    /// `personID` joined another lobby: a person is in one lobby at a time
    /// (seed 004), so their connections here close, and the room is told.
    /// Nothing happens when they aren't here, when this is no longer a lobby,
    /// or when they run it (the owner and co-DJs host a lobby, they aren't
    /// its members).
    public mutating func leftForAnotherLobby(personID: String, name: String) -> [HubAction] {
        let here = connections.filter { $0.seat.personID == personID && !$0.closing }
        guard party.isLobby, !here.isEmpty, here.allSatisfy({ $0.seat.role < .codj }) else { return [] }
        return remove(personID: personID, name: name, reason: Self.anotherLobby)
    }

    /// Each of these people's standing, to each of their connections.
    func standings(of people: Set<String>) -> [HubAction] {
        guard party.isLobby else { return [] }
        let ballot = party.lobby.ballot
        let open = party.lobby.elected == nil ? ballot : nil
        return connections.compactMap { connection in
            guard !connection.closing, let person = connection.seat.personID, people.contains(person) else { return nil }
            let credibility = party.lobby.credibility[person] ?? Credibility()
            return .send(
                connection.id,
                .standing(
                    ballotID: open?.id, vote: open?.votes[person], weight: credibility.weight,
                    explanation: credibility.explanation))
        }
    }

    /// Candidates for a ballot: the allowed tracks the room's taste rates
    /// highest in one Thompson draw (so the ballot explores too), or a
    /// random few while it knows nothing.
    private func recommend(from allowed: [PoolTrack], count: Int, using rng: inout some RandomNumberGenerator)
        -> [TrackID]
    {
        var drawn: [String: Double] = [:]
        let scored = allowed.map { track in
            (track.id, taste.isEmpty ? Double.random(in: 0..<1, using: &rng) : taste.sample(track.tasteFeatures, drawn: &drawn, using: &rng))
        }
        return scored.sorted { $0.1 > $1.1 }.prefix(count).map(\.0)
    }

    /// Why the winner won, in one line, saying so when it was a tie and
    /// how it was broken.
    func electedReason(_ ballot: Ballot, _ winner: TrackID) -> String {
        let lobby = party.lobby
        let tally = ballot.tally(weight: { lobby.weight(of: $0) })
        let top = tally.map(\.votes).max() ?? 0
        let tied = tally.count { $0.votes == top }
        let voters = ballot.voters(for: winner).count
        if top > 0, tied > 1 {
            return "A tie between \(tied) songs: the robot's taste broke it"
        }
        switch voters {
        case 0: return tally.count > 1 ? "Nobody voted: the robot's favourite" : "Nobody voted: the only song on the ballot"
        case 1: return "Voted in by 1 listener"
        default: return "Voted in by \(voters) listeners"
        }
    }
}
