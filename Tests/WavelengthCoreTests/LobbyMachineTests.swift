import Testing
@testable import WavelengthCore

/// The lobby as events of the station machine: a ballot opens for the song
/// after the one playing, votes are weighted by credibility, the ballot
/// closes early enough for devices to prepare, and the winner starts
/// exactly when the song ends. A hand-moved clock and seeded randomness.
@Suite("Lobby machine")
struct LobbyMachineTests {
    let t0: EpochMillis = 50_000_000
    let robot = RobotInputs(
        pool: Fixtures.tracks, fallback: Fixtures.tracks,
        artists: Dictionary(uniqueKeysWithValues: Fixtures.tracks.map { ($0.id, $0.artist) }))
    let host = Seat(personID: "host", name: "Host", role: .owner)
    let ann = Seat(personID: "ann", name: "Ann", role: .listener)
    let bo = Seat(personID: "bo", name: "Bo", role: .listener)
    let cy = Seat(personID: "cy", name: "Cy", role: .listener)

    /// A lobby on the air: the host (connection 1), Ann (2), Bo (3), Cy (4).
    func lobby(credibility: [String: Credibility] = [:]) throws -> StationMachine {
        var machine = StationMachine(
            station: StationState(id: "s1", quietSince: t0 - 1000), settings: .init(commitLead: 300),
            party: PartyState(mode: .lobby, lobby: LobbyState(credibility: credibility)))
        for (index, seat) in [host, ann, bo, cy].enumerated() {
            var rng = SeededRandom(seed: UInt64(index))
            _ = try machine.connect(
                ConnectionID(UInt64(index + 1)), seat: seat, since: nil, at: t0, robot: robot, using: &rng)
        }
        return machine
    }

    func send(
        _ machine: inout StationMachine, _ command: StationCommand, id: String, from connection: UInt64,
        at now: EpochMillis? = nil
    ) throws(HubError) -> StationMachine.CommandResult {
        var rng = SeededRandom(seed: 11)
        return try machine.command(
            command, id: id, epoch: nil, from: .connection(ConnectionID(connection)), at: now ?? t0,
            track: command.trackID.flatMap(Fixtures.track), robot: robot, using: &rng)
    }

    func close(_ machine: inout StationMachine) -> [HubAction] {
        var rng = SeededRandom(seed: 12)
        let due = machine.timers[.ballot]!
        return machine.timerFired(.ballot, due: due, at: due, robot: robot, using: &rng)
    }

    @Test func aBallotOpensForTheSongAfterTheOneThatPlaysAndClosesInTimeToPrepare() throws {
        let machine = try lobby()
        let current = try #require(machine.station.timeline.current(at: t0))
        let ballot = try #require(machine.party.lobby.ballot)
        #expect(ballot.follows == current.id)
        #expect(!ballot.candidates.isEmpty && ballot.candidates.count <= Ballot.maxCandidates)
        #expect(!ballot.candidates.contains { $0.trackID == current.trackID })
        #expect(ballot.closesAt == current.expiration - 300 - LobbyState.prepareMillis)
        #expect(machine.timers[.ballot] == ballot.closesAt)
    }

    @Test func theWinnerStartsExactlyWhenTheSongEndsInThePlaceOfTheRobotsPick() throws {
        var machine = try lobby()
        let current = try #require(machine.station.timeline.current(at: t0))
        let ballot = try #require(machine.party.lobby.ballot)
        let (a, b) = (ballot.candidates[0].trackID, ballot.candidates[1].trackID)
        let upcomingBefore = machine.station.timeline.upcoming(at: t0).count
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: a), id: "v1", from: 2)
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: b), id: "v2", from: 3)
        let last = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: b), id: "v3", from: 4)
        // A vote is saved with the ballot it changed: it survives a crash.
        let voteSave = try #require(last.actions.compactMap { if case .save(let s) = $0 { s } else { nil } }.first)
        #expect(voteSave.lobby?.ballot?.votes["cy"] == b)
        #expect(last.actions.contains(.send(ConnectionID(4), .standing(ballotID: ballot.id, vote: b, weight: 1, explanation: Credibility().explanation))))

        let actions = close(&machine)
        let next = try #require(machine.station.timeline.upcoming(at: t0).first)
        #expect(next.trackID == b)
        #expect(next.source == .elected)
        #expect(next.start == current.expiration)
        #expect(next.why == "Voted in by 2 listeners")
        #expect(machine.station.timeline.upcoming(at: t0).count >= upcomingBefore)
        #expect(machine.party.lobby.elected == b)
        #expect(actions.contains(.broadcastUpdate))
        #expect(actions.contains { if case .save(let s) = $0 { s.lobby?.elected == b } else { false } })
        // Late votes are refused and change nothing.
        #expect(throws: HubError.request(.ballotClosed)) {
            try send(&machine, .ballotVote(ballotID: ballot.id, trackID: a), id: "v4", from: 2)
        }
    }

    @Test func aBallotWhoseTimePassedWhileEveryoneWasGoneClosesWhenTheyComeBack() throws {
        var machine = try lobby()
        let current = try #require(machine.station.timeline.current(at: t0))
        let ballot = try #require(machine.party.lobby.ballot)
        let choice = ballot.candidates[1].trackID
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: choice), id: "v1", from: 2)
        // Everyone drops at once (a stalled server closes every idle
        // connection together): the station goes quiet and its timers stop.
        for connection in 1...4 { _ = machine.disconnect(ConnectionID(UInt64(connection)), at: t0 + 1000) }
        #expect(machine.timers[.ballot] == nil)
        // They are back after the ballot's closing time, while its song plays.
        let back = ballot.closesAt + 500
        #expect(back < current.expiration)
        var rng = SeededRandom(seed: 5)
        _ = try machine.connect(ConnectionID(5), seat: ann, since: nil, at: back, robot: robot, using: &rng)
        #expect(machine.timers[.ballot] == back)
        let actions = close(&machine)
        #expect(machine.party.lobby.elected == choice)
        let next = try #require(machine.station.timeline.upcoming(at: back).first)
        #expect(next.trackID == choice && next.start == current.expiration && next.source == .elected)
        #expect(actions.contains(.broadcastUpdate))
    }

    @Test func credibilityWeighsVotesAndIsNeverZero() throws {
        // Ann's picks went down well; Bo's and Cy's did not.
        var machine = try lobby(credibility: [
            "ann": Credibility(thumbsUp: 10), "bo": Credibility(thumbsDown: 10), "cy": Credibility(skips: 10),
        ])
        let ballot = try #require(machine.party.lobby.ballot)
        let (a, b) = (ballot.candidates[0].trackID, ballot.candidates[1].trackID)
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: a), id: "v1", from: 2)
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: b), id: "v2", from: 3)
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: b), id: "v3", from: 4)
        #expect(machine.party.lobby.weight(of: "cy") > 0)
        _ = close(&machine)
        #expect(machine.station.timeline.upcoming(at: t0).first?.trackID == a)
    }

    @Test func theRoomsReactionToAWinnerMovesItsBackersStandingButNotTheReactors() throws {
        var machine = try lobby()
        let ballot = try #require(machine.party.lobby.ballot)
        let winner = ballot.candidates[0].trackID
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: winner), id: "v1", from: 2)
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: winner), id: "v2", from: 3)
        _ = close(&machine)
        let elected = try #require(machine.station.timeline.upcoming(at: t0).first)
        // The winner starts; Ann likes it, Cy skips... thumbs it down.
        let at = elected.start + 1000
        var rng = SeededRandom(seed: 3)
        _ = machine.timerFired(.tick, due: machine.timers[.tick]!, at: elected.start, robot: robot, using: &rng)
        let up = try send(&machine, .thumb(entryID: elected.id, up: true), id: "t1", from: 2, at: at)
        #expect(machine.party.lobby.credibility["bo"]?.thumbsUp == 1)
        #expect(machine.party.lobby.credibility["ann"] == nil)  // no vouching for yourself
        let save = try #require(up.actions.compactMap { if case .save(let s) = $0 { s } else { nil } }.first)
        #expect(save.credibility["bo"]?.thumbsUp == 1)
        #expect(up.actions.contains { if case .send(ConnectionID(3), .standing) = $0 { true } else { false } })
        _ = try send(&machine, .thumb(entryID: elected.id, up: false), id: "t2", from: 4, at: at)
        #expect(machine.party.lobby.credibility["ann"]?.thumbsDown == 1)
        #expect(machine.party.lobby.credibility["bo"]?.thumbsDown == 1)
    }

    @Test func aSuggestionGoesOnTheNextBallot() throws {
        var machine = try lobby()
        let current = try #require(machine.station.timeline.current(at: t0))
        let first = try #require(machine.party.lobby.ballot)
        let suggested = try #require(
            Fixtures.tracks.map(\.id).first { id in
                id != current.trackID && !first.candidates.contains { $0.trackID == id }
            } ?? first.candidates.first?.trackID)
        _ = try send(&machine, .request(trackID: suggested), id: "s1", from: 2)
        #expect(machine.party.lobby.suggestions == [.init(trackID: suggested, personID: "ann")])
        _ = close(&machine)
        var rng = SeededRandom(seed: 3)
        let tick = machine.timers[.tick]!
        _ = machine.timerFired(.tick, due: tick, at: tick, robot: robot, using: &rng)
        let second = try #require(machine.party.lobby.ballot)
        #expect(second.id != first.id)
        if !machine.station.latestPlays(at: tick).prefix(RequestSettings().noRepeatWithin).contains(suggested) {
            #expect(second.candidates.contains { $0.trackID == suggested && $0.suggestedBy == ["ann"] })
        }
    }

    @Test func theHostCanDecideTheBallotAndEveryoneIsTold() throws {
        var machine = try lobby()
        let ballot = try #require(machine.party.lobby.ballot)
        let current = try #require(machine.station.timeline.current(at: t0))
        let chosen = Fixtures.tracks.first { $0.id != current.trackID }!.id
        #expect(throws: HubError.forbidden(.arrangeRequests)) {
            try send(&machine, .elect(ballotID: ballot.id, trackID: chosen), id: "e0", from: 2)
        }
        let result = try send(&machine, .elect(ballotID: ballot.id, trackID: chosen), id: "e1", from: 1)
        #expect(machine.station.timeline.upcoming(at: t0).first?.trackID == chosen)
        #expect(machine.timers[.ballot] == nil)
        #expect(
            result.actions.contains(
                .broadcast(.hostOverride(.init(kind: .elected, trackID: chosen, requesterName: "Host")), except: nil)))
    }

    @Test func badBallotVotesAreRefusedAndChangeNothing() throws {
        var machine = try lobby()
        let ballot = try #require(machine.party.lobby.ballot)
        let current = try #require(machine.station.timeline.current(at: t0))
        #expect(throws: HubError.request(.notACandidate)) {
            try send(&machine, .ballotVote(ballotID: ballot.id, trackID: current.trackID), id: "x1", from: 2)
        }
        #expect(throws: HubError.request(.ballotClosed)) {
            try send(&machine, .ballotVote(ballotID: "b999", trackID: ballot.candidates[0].trackID), id: "x2", from: 2)
        }
        #expect(throws: HubError.request(.ballotClosed)) {
            try send(
                &machine, .ballotVote(ballotID: ballot.id, trackID: ballot.candidates[0].trackID), id: "x3", from: 2,
                at: ballot.closesAt)
        }
        #expect(machine.party.lobby.ballot?.votes.isEmpty == true)
        // Outside a lobby there are no ballots.
        var party = StationMachine(
            station: StationState(id: "s2", quietSince: t0 - 1000), party: PartyState(mode: .requests))
        var rng = SeededRandom(seed: 1)
        _ = try party.connect(ConnectionID(1), seat: ann, since: nil, at: t0, robot: robot, using: &rng)
        #expect(throws: HubError.request(.notLobbyMode)) {
            try send(&party, .ballotVote(ballotID: "b1", trackID: "t1"), id: "x4", from: 1)
        }
    }

    /// Two songs with one vote each: the robot's taste breaks the tie, and
    /// the winner's line says so.
    @Test func aTieIsSaidAndHowItWasBroken() throws {
        var machine = try lobby()
        let ballot = try #require(machine.party.lobby.ballot)
        let (a, b) = (ballot.candidates[0].trackID, ballot.candidates[1].trackID)
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: a), id: "v1", from: 2)
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: b), id: "v2", from: 3)
        _ = close(&machine)
        let next = try #require(machine.station.timeline.upcoming(at: t0).first)
        #expect([a, b].contains(next.trackID))
        #expect(next.why == "A tie between 2 songs: the robot's taste broke it")
    }

    /// A ballot left from a song that ended, with no new one for the song
    /// playing (it is too short to vote on), is not shown any more.
    @Test func aStaleBallotIsClearedWhenNoNewOneOpens() throws {
        var machine = try lobby()
        let ballot = try #require(machine.party.lobby.ballot)
        _ = close(&machine)
        #expect(machine.party.lobby.elected != nil)
        // The winner is a clip-length song: nothing to vote on after it.
        let current = try #require(machine.station.timeline.current(at: t0))
        var rng = SeededRandom(seed: 3)
        let clip = VoiceClip(
            id: "c1", stationID: "s1", personID: "host", name: "Host", note: "", durationMs: 3000, bytes: 10,
            status: .approved, createdAt: t0)
        _ = try machine.clipApproved(clip, at: t0, using: &rng)
        let clipStart = current.expiration
        _ = machine.timerFired(.tick, due: machine.timers[.tick]!, at: clipStart, robot: robot, using: &rng)
        #expect(machine.station.timeline.current(at: clipStart)?.source == .voice)
        #expect(machine.party.lobby.ballot == nil, "ballot \(ballot.id) still shown over a clip")
    }

    @Test func aSongTooShortToVoteOnGetsNoBallot() throws {
        let short = [PoolTrack(id: "s1", artist: "A", duration: 6000), PoolTrack(id: "s2", artist: "B", duration: 6000)]
        let inputs = RobotInputs(pool: short, fallback: short, artists: ["s1": "A", "s2": "B"])
        var machine = StationMachine(
            station: StationState(id: "s1", quietSince: t0 - 1000), party: PartyState(mode: .lobby))
        var rng = SeededRandom(seed: 1)
        _ = try machine.connect(ConnectionID(1), seat: host, since: nil, at: t0, robot: inputs, using: &rng)
        #expect(machine.party.lobby.ballot == nil)
        #expect(machine.timers[.ballot] == nil)
    }
}

/// One lobby at a time (seed 004).
extension LobbyMachineTests {
    @Test func joiningAnotherLobbyClosesAListenersConnectionsHereButNeverTheHosts() throws {
        var machine = try lobby()
        let actions = machine.leftForAnotherLobby(personID: "ann", name: "Ann")
        #expect(actions.contains(.broadcast(.removed(personID: "ann", name: "Ann", reason: "another-lobby"), except: nil)))
        #expect(actions.contains(.close(ConnectionID(2))))
        // Said once: her connection is already closing.
        #expect(machine.leftForAnotherLobby(personID: "ann", name: "Ann").isEmpty)
        // Someone not here, and the host who runs it, are left alone.
        #expect(machine.leftForAnotherLobby(personID: "zed", name: "Zed").isEmpty)
        #expect(machine.leftForAnotherLobby(personID: "host", name: "Host").isEmpty)
    }

    @Test func theMembershipNamesTheLobbyToLeaveAndStaysBounded() {
        var lobbies = LobbyMembership(capacity: 10)
        #expect(lobbies.entered("ann", station: "a") == nil)
        #expect(lobbies.entered("ann", station: "a") == nil)
        #expect(lobbies.entered("ann", station: "b") == "a")
        #expect(lobbies.lobby(of: "ann") == "b")
        for i in 0..<30 { _ = lobbies.entered("p\(i)", station: "c") }
        #expect(lobbies.count <= 10)
        #expect(lobbies.lobby(of: "p29") == "c")
    }

    @Test func aSongAlreadyLinedUpIsNotOnTheNextBallot() throws {
        // The first ballot elects t4 (Cy) after the song playing.
        var machine = try lobby()
        let first = try #require(machine.party.lobby.ballot)
        #expect(first.candidates.contains { $0.trackID == "t4" })
        _ = try send(&machine, .ballotVote(ballotID: first.id, trackID: "t4"), id: "v1", from: 2)
        _ = close(&machine)
        let lined = try #require(machine.station.timeline.upcoming(at: t0).first)
        #expect(lined.trackID == "t4" && lined.source == .elected)
        // The host puts t3 (Bo) before it and skips to it: its ballot opens
        // when it starts, with t4 still lined up after it. (A CI run's
        // ballot offered that song again, the room elected it, and it was
        // to play twice in a row.)
        let now = t0 + 2000
        _ = try send(&machine, .queueNext(trackID: "t3"), id: "next", from: 1, at: now)
        _ = try send(&machine, .skip(entryID: nil), id: "cut", from: 1, at: now)
        var rng = SeededRandom(seed: 9)
        while let due = machine.timers[.tick], due <= now + 1000 {
            _ = machine.timerFired(.tick, due: due, at: due, robot: robot, using: &rng)
        }
        let playing = try #require(machine.station.timeline.current(at: now + 1000))
        #expect(playing.trackID == "t3")
        let second = try #require(machine.party.lobby.ballot)
        #expect(second.follows == playing.id)
        #expect(machine.station.timeline.upcoming(at: now + 1000).contains { $0.id == lined.id })
        #expect(!second.candidates.isEmpty)
        #expect(!second.candidates.contains { $0.trackID == "t4" })
    }

    /// A fresh-clone run: the host's "play next" came just before the ballot
    /// closed, the winner went in front of the host's song, and each next
    /// winner in front again, so the host's song never played. The host's
    /// pick now takes the ballot's place, as the host's `elect` does.
    @Test func aHostsPlayNextDuringTheVoteTakesTheBallotsPlace() throws {
        var machine = try lobby()
        let ballot = try #require(machine.party.lobby.ballot)
        let current = try #require(machine.station.timeline.current(at: t0))
        let favourite = ballot.candidates[0].trackID
        _ = try send(&machine, .ballotVote(ballotID: ballot.id, trackID: favourite), id: "v1", from: 2)
        let pick = try #require(Fixtures.tracks.first { $0.id != current.trackID && $0.id != favourite }).id
        // A song added at the end leaves what is next alone, and the vote.
        _ = try send(&machine, .append(trackID: pick), id: "later", from: 1)
        #expect(machine.timers[.ballot] != nil && machine.party.lobby.elected == nil)

        let result = try send(&machine, .queueNext(trackID: pick), id: "next", from: 1)
        #expect(machine.timers[.ballot] == nil)
        #expect(machine.party.lobby.elected == pick)
        #expect(
            result.actions.contains(
                .broadcast(.hostOverride(.init(kind: .elected, trackID: pick, requesterName: "Host")), except: nil)))
        let upNext = machine.station.timeline.upcoming(at: t0)
        #expect(upNext.first?.trackID == pick && upNext.first?.source == .dj)
        #expect(!upNext.contains { $0.source == .elected })

        // When the host's song starts, the vote is on the song after it.
        var rng = SeededRandom(seed: 9)
        let later = try #require(machine.station.timeline.current(at: t0)).expiration + 1000
        while let due = machine.timers[.tick], due <= later {
            _ = machine.timerFired(.tick, due: due, at: due, robot: robot, using: &rng)
        }
        let playing = try #require(machine.station.timeline.current(at: later))
        #expect(playing.trackID == pick)
        #expect(machine.party.lobby.ballot?.follows == playing.id)
    }
}

/// The repeat rule as it stands when the ballot closes.
extension LobbyMachineTests {
    /// Seeds 10, 12, 13 and 14 of the party simulation: the host lifted a
    /// veto while a ballot was open, the repeat window widened by one, and
    /// a candidate that had just become too recent won and played.
    @Test func aCandidateALiftedVetoMadeTooRecentCannotWin() throws {
        let songs = ["a", "b", "c", "d"].map { PoolTrack(id: $0, artist: "Artist \($0)", duration: 180_000) }
        let inputs = RobotInputs(pool: songs, fallback: songs, artists: Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0.artist) }))
        var queue = RequestQueue()
        _ = queue.veto(track: "d")
        // Three songs may play, so the window bends to 1 (the song playing).
        var machine = StationMachine(
            station: StationState(id: "s1", quietSince: t0 - 1000), settings: .init(commitLead: 300),
            party: PartyState(mode: .lobby, settings: RequestSettings(noRepeatWithin: 10), queue: queue))
        var rng = SeededRandom(seed: 4)
        _ = try machine.connect(ConnectionID(1), seat: host, since: nil, at: t0, robot: inputs, using: &rng)
        _ = try machine.connect(ConnectionID(2), seat: ann, since: nil, at: t0, robot: inputs, using: &rng)
        let first = try #require(machine.station.timeline.current(at: t0))
        var due = try #require(machine.timers[.ballot])
        _ = machine.timerFired(.ballot, due: due, at: due, robot: inputs, using: &rng)
        // The second song starts, with a ballot that may offer the first again.
        let secondStart = first.expiration
        while let tick = machine.timers[.tick], tick <= secondStart {
            _ = machine.timerFired(.tick, due: tick, at: tick, robot: inputs, using: &rng)
        }
        let second = try #require(machine.station.timeline.current(at: secondStart))
        #expect(second.id != first.id)
        let ballot = try #require(machine.party.lobby.ballot)
        #expect(ballot.follows == second.id)
        #expect(ballot.candidates.contains { $0.trackID == first.trackID })
        _ = try machine.command(
            .ballotVote(ballotID: ballot.id, trackID: first.trackID), id: "v1", epoch: nil, from: .connection(ConnectionID(2)),
            at: secondStart + 1000, track: nil, robot: inputs, using: &rng)
        // Four songs may play now: the window is 2, and the first song is in it.
        _ = try machine.command(
            .liftVeto(trackID: "d"), id: "lift", epoch: nil, from: .connection(ConnectionID(1)), at: secondStart + 2000,
            track: nil, robot: inputs, using: &rng)
        #expect(machine.rules.repeats(inputs).window == 2)
        due = try #require(machine.timers[.ballot])
        _ = machine.timerFired(.ballot, due: due, at: due, robot: inputs, using: &rng)
        let third = try #require(machine.station.timeline.upcoming(at: due).first { $0.isSong })
        #expect(third.start == second.expiration)
        #expect(third.trackID != first.trackID && third.trackID != second.trackID)
    }
}
