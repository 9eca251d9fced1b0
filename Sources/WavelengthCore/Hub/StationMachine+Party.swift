/// The party (requests mode): requests, votes, the host's overrides and
/// votes to skip, as events of the station machine.
///
/// How a request reaches the air: the queue (`RequestQueue`) holds what was
/// asked for, in its fair order. One request at a time is *lined up*: put
/// on the timeline after the clips and the DJ's own picks waiting there and
/// ahead of the robot's, so every device can prepare it. It stays in the
/// queue, the requester's, until it starts playing; then the next one in
/// the queue's order is lined up. Votes move requests until they are lined
/// up; after that only the host moves them.
extension StationMachine {
    /// Who is asking, and under which role.
    struct Asker {
        var personID: String?
        var name: String
        var role: StationRole
    }

    func asker(_ origin: Origin) -> Asker {
        switch origin {
        case .connection(let id):
            guard let connection = connections.first(where: { $0.id == id }), !connection.closing else {
                return Asker(personID: nil, name: "", role: .none)
            }
            return Asker(personID: connection.seat.personID, name: connection.seat.name, role: connection.seat.role)
        case .request(let role, let personID, let name):
            return Asker(personID: personID, name: name, role: role)
        }
    }

    /// The people listening now (each person once, however many devices).
    public var peopleListening: Set<String> {
        Set(connections.lazy.filter { !$0.closing }.compactMap(\.seat.personID))
    }

    /// A save of the station as it is, carrying the queue when the station
    /// takes requests (requests and votes are saved with what they caused).
    /// What the robot's taste learned in the event goes with it.
    mutating func save(_ outcome: StationState.Outcome, command: AppliedCommand?, thumb: Thumb? = nil) -> StationSave {
        var save = StationSave(
            state: station, played: outcome.played, command: command,
            party: (party.mode != .dj || !party.queue.vetoed.isEmpty) && thumb == nil ? party.queue : nil, thumb: thumb,
            taste: takeTasteChange())
        if !outcome.played.isEmpty {
            save.listeners = max(playPeak, audience.counts.listeners)
            playPeak = audience.counts.listeners
        }
        if lobbyChanged {
            save.lobby = party.lobby.saved
            lobbyChanged = false
        }
        save.credibility = credibilityChange
        credibilityChange = [:]
        return save
    }

    /// Applies one of the party's commands once (see `StationCommand.operation`).
    mutating func partyCommand(
        _ command: StationCommand, id commandID: String, by asker: Asker, at now: EpochMillis,
        appliedBefore: Int64?, track: PoolTrack?, robot: RobotInputs, using rng: inout some RandomNumberGenerator
    ) throws(HubError) -> CommandResult {
        let operation = command.operation
        guard StationPermissions.allows(asker.role, operation) else { throw .forbidden(operation) }
        if let revision = ledger.revision(for: commandID) ?? appliedBefore {
            return CommandResult(revision: revision, duplicate: true, actions: [])
        }
        let lobbyOnly: Bool =
            switch command {
            case .ballotVote, .elect: true
            default: false
            }
        // A veto outlives the party's mode, so it can be lifted in any.
        let anyMode = if case .liftVeto = command { true } else { false }
        switch party.mode {
        case .dj where !anyMode: throw .request(lobbyOnly ? .notLobbyMode : .notRequestsMode)
        case .requests where lobbyOnly: throw .request(.notLobbyMode)
        default: break
        }
        guard let person = asker.personID else { throw .request(.needsName) }
        // Work on copies: a refusal leaves no trace.
        var next = self
        var outcome = StationState.Outcome()
        var actions: [HubAction] = []
        do {
            try next.party.pace.admit(person, at: now)
            let everyMode: Bool =
                switch command {
                case .voteSkip, .volumeVote, .setVolume, .liftVeto: true
                default: false
                }
            if party.isLobby, !everyMode {
                let (changed, lobbyActions) = try next.lobbyCommand(
                    command, by: asker, person: person, at: now, track: track, robot: robot, using: &rng)
                outcome.merge(changed)
                actions += lobbyActions
            } else {
            switch command {
            case .request(let trackID):
                guard let track, track.id == trackID, track.duration > 0 else {
                    throw HubError.timeline(.unknownTrack(trackID))
                }
                let at = station.timelineTime(at: now)
                if station.timeline.upcoming(at: at).contains(where: { $0.source == .request && $0.trackID == trackID }) {
                    throw HubError.request(.alreadyScheduled)
                }
                let latest = station.latestPlays(at: now)
                // Asking for a song that waits is an upvote, which no rule stops.
                if !party.queue.pending.contains(where: { $0.trackID == trackID }) {
                    try rules.mayAsk(for: track, inputs: robot, latestPlays: latest)
                }
                _ = try next.party.queue.request(
                    .init(trackID: trackID, durationMs: track.duration), id: EntryIDs.make(using: &rng), by: person,
                    named: asker.name, at: now, settings: party.settings, recentPlays: latest,
                    repeats: rules.repeats(robot))
                // The robot leaves the song to the request rather than play it first.
                outcome.merge(next.station.dropRobotPicks(of: [trackID], at: now))
                next.learn(.requested, trackID: trackID, robot: robot)
                actions += next.sendVotes(of: person)
            case .vote(let requestID, let vote):
                let before = party.queue.votes(of: person)[requestID]
                let voted = try next.party.queue.vote(vote, on: requestID, by: person)
                if let vote, vote != before {
                    next.learn(vote == .up ? .votedUp : .votedDown, trackID: voted.trackID, robot: robot)
                }
                actions += next.sendVotes(of: person)
            case .withdraw(let requestID):
                let withdrawn = try next.party.queue.withdraw(requestID, by: person, isHost: asker.role >= .codj)
                outcome.merge(try next.station.takeOff(withdrawn.entryID, at: now))
            case .moveRequest(let requestID, let toIndex):
                let moved = try request(requestID)
                try next.party.queue.move(requestID, toIndex: toIndex)
                actions.append(.broadcast(.hostOverride(.init(moved, .moved)), except: nil))
            case .vetoRequest(let requestID):
                // The veto holds against every path: the request goes, and
                // so do the robot's picks of the song.
                let vetoed = try next.party.queue.veto(requestID)
                outcome.merge(try next.station.takeOff(vetoed.entryID, at: now))
                outcome.merge(next.station.dropRobotPicks(of: [vetoed.trackID], at: now))
                actions.append(.broadcast(.hostOverride(.init(vetoed, .vetoed)), except: nil))
            case .liftVeto(let trackID):
                try next.party.queue.liftVeto(trackID)
            case .playRequestNow(let requestID):
                let chosen = try next.party.queue.playNow(requestID)
                outcome.merge(try next.station.takeOff(chosen.entryID, at: now))
                outcome.merge(try next.station.schedule(chosen, entryID: EntryIDs.make(using: &rng), first: true, at: now))
                outcome.merge(try next.station.apply(.skip(entryID: nil), at: now, lead: settings.commitLead, track: { _ in nil }, using: &rng))
                actions.append(.broadcast(.hostOverride(.init(chosen, .playedNow)), except: nil))
            case .voteSkip(let entryID):
                let at = station.timelineTime(at: now)
                guard let current = station.timeline.current(at: at), current.id == entryID else {
                    throw HubError.timeline(.notCurrent(expected: entryID))
                }
                next.party.skips.vote(by: person, on: entryID)
                if next.party.skips.reached(on: entryID, listening: peopleListening, threshold: party.settings.skip) {
                    next.learn(.skipped, trackID: current.trackID, robot: robot)
                    actions += next.backersReact(.skipped, to: current.id, by: nil)
                    outcome.merge(
                        try next.station.apply(
                            .skip(entryID: entryID), at: now, lead: settings.commitLead, track: { _ in nil }, using: &rng))
                }
            case .volumeVote(let up):
                guard party.settings.volumeVoting else { throw HubError.request(.volumeVotingOff) }
                let moved = next.party.lobby.volume.vote(
                    up.map { $0 ? .up : .down }, by: person, listening: peopleListening, at: now)
                next.lobbyChanged = true
                if moved { actions.append(.broadcast(.sound(next.party.sound), except: nil)) }
                // Their own vote, which the party sent to everyone leaves out.
                actions += next.connections.filter { $0.seat.personID == person && !$0.closing }.map { .sendRequests($0.id) }
            case .setVolume(let levelDb):
                if next.party.lobby.volume.set(levelDb, at: now, reason: "\(asker.name) set the level") {
                    actions.append(.broadcast(.sound(next.party.sound), except: nil))
                }
                next.lobbyChanged = true
            default:
                throw HubError.timeline(.notAnEdit(command.op))
            }
            }
        } catch let error as RequestError {
            throw .request(error)
        } catch let error as TimelineError {
            throw .timeline(error)
        } catch let error as HubError {
            throw error
        } catch {
            throw .timeline(.notAnEdit(command.op))
        }
        if outcome.changed, !next.connections.isEmpty {
            outcome.merge(next.robotFill(at: now, robot: robot, using: &rng))
        }
        if !next.connections.isEmpty { outcome.merge(next.promoteRequest(at: now, robot: robot, using: &rng).outcome) }
        // A skip voted through starts another song, with its own ballot.
        if outcome.changed { actions += next.openBallot(at: now, robot: robot, using: &rng) }
        self = next
        let applied = AppliedCommand(id: commandID, revision: station.revision, appliedAt: now)
        ledger.record(commandID, revision: applied.revision)
        var result: [HubAction] = [.save(save(outcome, command: applied))]
        if outcome.changed { result.append(.broadcastUpdate) }
        // What the host did goes out before the queue it changed, so a
        // client can still name the song.
        result += actions
        result.append(.broadcastRequests)
        return CommandResult(revision: applied.revision, duplicate: false, actions: result + reschedule(at: now))
    }

    /// A thumb on the song playing, in every mode: saved with its command id
    /// (the robot DJ will learn from it), and the new counts go to the owner
    /// and co-DJs as feedback. Listeners know their own thumb from the ack.
    mutating func thumb(
        _ up: Bool?, on entryID: EntryID, id commandID: String, by asker: Asker, at now: EpochMillis, appliedBefore: Int64?,
        robot: RobotInputs
    ) throws(HubError) -> CommandResult {
        guard StationPermissions.allows(asker.role, .vote) else { throw .forbidden(.vote) }
        if let revision = ledger.revision(for: commandID) ?? appliedBefore {
            return CommandResult(revision: revision, duplicate: true, actions: [])
        }
        guard let person = asker.personID else { throw .request(.needsName) }
        guard let current = station.timeline.current(at: station.timelineTime(at: now)), current.id == entryID else {
            throw .timeline(.notCurrent(expected: entryID))
        }
        do {
            try party.pace.admit(person, at: now)
        } catch {
            throw .request(error)
        }
        // A person's first thumb on a play teaches the robot; changing it
        // later doesn't count twice.
        let before = party.thumbs.entryID == entryID ? party.thumbs.thumbs[person] : nil
        var reactions: [HubAction] = []
        if let up, before == nil {
            learn(up ? .thumbUp : .thumbDown, trackID: current.trackID, robot: robot)
            reactions = backersReact(up ? .thumbUp : .thumbDown, to: entryID, by: person)
        }
        party.thumbs.set(up, by: person, on: entryID)
        let applied = AppliedCommand(id: commandID, revision: station.revision, appliedAt: now)
        ledger.record(commandID, revision: applied.revision)
        let given = Thumb(entryID: entryID, trackID: current.trackID, personID: person, up: up, at: now)
        let counts = party.thumbs.counts(on: entryID)
        var actions: [HubAction] = [.save(save(.init(), command: applied, thumb: given))]
        for connection in connections where !connection.closing && connection.seat.role >= .codj {
            actions.append(.send(connection.id, .thumbs(entryID: entryID, up: counts.up, down: counts.down)))
        }
        actions += reactions
        return CommandResult(revision: applied.revision, duplicate: false, actions: actions)
    }

    /// What lining up requests did: to the timeline, and to the queue.
    struct Promotion {
        var outcome = StationState.Outcome()
        /// Whether the queue changed (a request started, or was lined up).
        var requestsChanged = false
    }

    /// Keeps the queue in step with the timeline, then lines up the next
    /// request when none is (see the type's comment). A request lined up
    /// that started playing leaves the queue as its requester's turn; one
    /// whose entry went without playing (the station went quiet first)
    /// waits again. New requests are lined up only in requests mode and on
    /// the air; while the DJ holds the station, the request waits up next
    /// like any other pick.
    mutating func promoteRequest(
        at now: EpochMillis, robot: RobotInputs, using rng: inout some RandomNumberGenerator
    ) -> Promotion {
        guard station.isOnAir else { return Promotion() }
        var promotion = Promotion()
        let at = station.timelineTime(at: now)
        for request in party.queue.linedUp {
            guard let entryID = request.entryID else { continue }
            if let entry = station.timeline.entries.first(where: { $0.id == entryID }) {
                guard entry.start <= at else { continue }
                party.queue.started(entryID)
            } else if station.recentHistory.contains(where: { $0.id == entryID }) {
                party.queue.started(entryID)
            } else {
                party.queue.unschedule(entryID)
            }
            promotion.requestsChanged = true
        }
        guard party.takesRequests, party.queue.linedUp.isEmpty,
            !station.timeline.upcoming(at: at).contains(where: { $0.source == .request })
        else { return promotion }
        // Not within the repeat window of what will have played when it
        // starts: the songs played, and every song ahead of it on Up Next. A
        // robot pick inside the commit lead stays when the same song is
        // asked for (it can't be dropped), and played, the request must wait
        // its window out behind it; the room's order holds meanwhile.
        guard let nextUp = party.queue.ordered().first(where: { !$0.isLinedUp }) else { return promotion }
        let ahead = station.timeline.upcoming(at: at).filter(\.isSong).map(\.trackID)
        guard rules.repeats(robot).allows(nextUp.trackID, latestPlays: ahead.reversed() + station.latestPlays(at: now)) else {
            return promotion
        }
        var queue = party.queue
        let entryID = EntryIDs.make(using: &rng)
        guard let request = queue.lineUp(as: entryID) else { return promotion }
        do {
            promotion.outcome = try station.schedule(request, entryID: entryID, first: false, at: now)
            party.queue = queue
            promotion.requestsChanged = true
        } catch {
            // A full timeline: the request waits its turn.
        }
        return promotion
    }

    /// The votes `person` has cast, to each of their connections.
    private func sendVotes(of person: String) -> [HubAction] {
        let votes = party.queue.votes(of: person)
        return connections.filter { $0.seat.personID == person }.map { .send($0.id, .votes(votes)) }
    }

    private func request(_ id: RequestID) throws(RequestError) -> SongRequest {
        guard let request = party.queue.pending.first(where: { $0.id == id }) else { throw .unknownRequest }
        return request
    }
}

extension HostOverride {
    init(_ request: SongRequest, _ kind: Kind) {
        self.init(kind: kind, trackID: request.trackID, requesterName: request.requesterName)
    }
}
