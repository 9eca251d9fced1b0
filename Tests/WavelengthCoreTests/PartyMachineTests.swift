import Testing
@testable import WavelengthCore

/// The party as events of the station machine: requests reach the timeline
/// one at a time ahead of the robot, votes are commands with ids, the host
/// overrides and the room is told, and enough listeners skip a song. A
/// hand-moved clock and a seeded random source; no I/O.
@Suite("Party machine")
struct PartyMachineTests {
    let t0: EpochMillis = 50_000_000
    /// Ten tracks: the five fixtures and five more, so that a song neither
    /// played nor lined up is always there to ask for.
    static let library = Fixtures.tracks + (6...10).map { PoolTrack(id: "t\($0)", artist: "Ex\($0)", duration: 110_000) }
    let robot = RobotInputs(
        pool: Self.library, fallback: Self.library,
        artists: Dictionary(uniqueKeysWithValues: Self.library.map { ($0.id, $0.artist) }))
    let host = Seat(personID: "host", name: "Host", role: .owner)
    let ann = Seat(personID: "ann", name: "Ann", role: .listener)
    let bo = Seat(personID: "bo", name: "Bo", role: .listener)
    let cy = Seat(personID: "cy", name: "Cy", role: .listener)

    /// A party on the air: the host (connection 1), Ann (2), Bo (3), Cy (4).
    func party(mode: ProgrammingMode = .requests, settings: RequestSettings = RequestSettings()) throws -> StationMachine {
        var machine = StationMachine(
            station: StationState(id: "s1", quietSince: t0 - 1000), settings: .init(commitLead: 300),
            party: PartyState(mode: mode, settings: settings))
        for (id, seat) in [host, ann, bo, cy].enumerated() {
            var rng = SeededRandom(seed: UInt64(id))
            _ = try machine.connect(ConnectionID(UInt64(id + 1)), seat: seat, since: nil, at: t0, robot: robot, using: &rng)
        }
        return machine
    }

    func send(
        _ machine: inout StationMachine, _ command: StationCommand, id: String, from connection: UInt64,
        at now: EpochMillis? = nil
    ) throws(HubError) -> StationMachine.CommandResult {
        // Seeded by the command's id: each command makes ids of its own.
        var rng = SeededRandom(seed: id.utf8.reduce(11) { $0 &* 31 &+ UInt64($1) })
        let track = command.trackID.flatMap { id in Self.library.first { $0.id == id } }
        return try machine.command(
            command, id: id, epoch: nil, from: .connection(ConnectionID(connection)), at: now ?? t0, track: track,
            robot: robot, using: &rng)
    }

    /// The requests waiting, less the one lined up on the timeline.
    func waitingRequests(_ machine: StationMachine) -> [SongRequest] {
        machine.party.queue.pending.filter { !$0.isLinedUp }
    }

    func upcoming(_ machine: StationMachine, at now: EpochMillis? = nil) -> [TimelineEntry] {
        machine.station.timeline.upcoming(at: now ?? t0)
    }

    func trackNotPlaying(_ machine: StationMachine) -> TrackID {
        let current = machine.station.timeline.current(at: t0)!.trackID
        return Self.library.map(\.id).first { $0 != current && !machine.station.latestPlays(at: t0).contains($0) }!
    }

    /// A track neither played nor on the timeline: asked for after the first
    /// request, it waits in the queue.
    func waitingTrack(_ machine: StationMachine) -> TrackID {
        Self.library.map(\.id).first {
            !machine.station.latestPlays(at: t0).contains($0) && !upcoming(machine).map(\.trackID).contains($0)
                && !machine.party.queue.pending.map(\.trackID).contains($0)
        }!
    }

    @Test func theFirstRequestIsScheduledAheadOfTheRobotAndSavedWithItsCommand() throws {
        var machine = try party()
        let track = trackNotPlaying(machine)
        let result = try send(&machine, .request(trackID: track), id: "r1", from: 2)
        #expect(upcoming(machine).first?.trackID == track)
        #expect(upcoming(machine).first?.source == .request)
        // On the timeline, and still Ann's in the queue until it starts.
        #expect(machine.party.queue.linedUp.map(\.trackID) == [track])
        #expect(machine.party.queue.ordered().first?.requester == "ann")
        let save = try #require(result.actions.compactMap { if case .save(let save) = $0 { save } else { nil } }.first)
        #expect(save.command?.id == "r1")
        #expect(save.party != nil)
        #expect(result.actions.contains(.broadcastUpdate))
        #expect(result.actions.contains(.broadcastRequests))
    }

    @Test func laterRequestsWaitInTheQueueAndTheNextIsScheduledWhenTheFirstPlays() throws {
        var machine = try party()
        let first = trackNotPlaying(machine)
        _ = try send(&machine, .request(trackID: first), id: "r1", from: 2)
        let others = Self.library.map(\.id).filter { $0 != first && !machine.station.latestPlays(at: t0).contains($0) }
        _ = try send(&machine, .request(trackID: others[0]), id: "r2", from: 3)
        #expect(machine.party.queue.pending.map(\.trackID) == [first, others[0]])
        #expect(machine.party.queue.linedUp.map(\.trackID) == [first])
        #expect(upcoming(machine).filter { $0.source == .request }.count == 1)

        // The song playing ends; the request starts; the next one is lined up.
        let scheduled = upcoming(machine).first!
        var rng = SeededRandom(seed: 5)
        _ = machine.timerFired(.tick, due: machine.timers[.tick]!, at: scheduled.start, robot: robot, using: &rng)
        #expect(machine.station.timeline.current(at: scheduled.start)?.id == scheduled.id)
        #expect(upcoming(machine, at: scheduled.start).first?.trackID == others[0])
        #expect(machine.party.queue.pending.map(\.trackID) == [others[0]])
        #expect(machine.party.queue.linedUp.map(\.trackID) == [others[0]])
        #expect(machine.party.queue.turns["ann"] == 1)
    }

    @Test func askingForAWaitingSongIsAnUpvoteAndASecondVoteReplacesTheFirst() throws {
        var machine = try party()
        _ = try send(&machine, .request(trackID: trackNotPlaying(machine)), id: "r1", from: 2)  // scheduled
        let waiting = waitingTrack(machine)
        _ = try send(&machine, .request(trackID: waiting), id: "r2", from: 2)
        let again = try send(&machine, .request(trackID: waiting), id: "r3", from: 3)
        let request = try #require(waitingRequests(machine).first)
        #expect(waitingRequests(machine).count == 1)
        #expect(request.upvotes == 2)
        // Bo is told his own votes.
        #expect(again.actions.contains(.send(ConnectionID(3), .votes([request.id: .up]))))
        _ = try send(&machine, .vote(requestID: request.id, vote: .down), id: "v1", from: 3)
        _ = try send(&machine, .vote(requestID: request.id, vote: .down), id: "v2", from: 3)
        #expect(waitingRequests(machine).first?.score == 0)  // Ann up, Bo down once
    }

    @Test func aResentVoteAppliesOnce() throws {
        var machine = try party()
        _ = try send(&machine, .request(trackID: trackNotPlaying(machine)), id: "r1", from: 2)
        let waiting = waitingTrack(machine)
        _ = try send(&machine, .request(trackID: waiting), id: "r2", from: 2)
        let id = waitingRequests(machine)[0].id
        let first = try send(&machine, .vote(requestID: id, vote: .down), id: "v1", from: 4)
        let again = try send(&machine, .vote(requestID: id, vote: .down), id: "v1", from: 4)
        #expect(!first.duplicate)
        #expect(again.duplicate)
        #expect(again.actions.isEmpty)
    }

    @Test func badPartyCommandsAreRefusedAndChangeNothing() throws {
        var machine = try party(settings: RequestSettings(maxPendingPerPerson: 1, maxTrackMillis: 100_000))
        let before = machine.party
        #expect(throws: HubError.request(.unknownRequest)) {
            try send(&machine, .vote(requestID: "nope", vote: .up), id: "x1", from: 2)
        }
        // t2 is 200 s long; the host allows 100 s.
        if !machine.station.latestPlays(at: t0).contains("t2") {
            #expect(throws: HubError.request(.tooLong(maxMillis: 100_000))) {
                try send(&machine, .request(trackID: "t2"), id: "x2", from: 2)
            }
        }
        #expect(throws: HubError.forbidden(.arrangeRequests)) {
            try send(&machine, .vetoRequest(requestID: "nope"), id: "x3", from: 2)
        }
        #expect(throws: HubError.timeline(.notCurrent(expected: "nope"))) {
            try send(&machine, .voteSkip(entryID: "nope"), id: "x4", from: 2)
        }
        #expect(machine.party == before)
        #expect(machine.ledger.revision(for: "x1") == nil)
    }

    @Test func anAnonymousListenerMayNotVote() throws {
        var machine = try party()
        var rng = SeededRandom(seed: 1)
        _ = try machine.connect(ConnectionID(9), seat: .anonymous, since: nil, at: t0, robot: robot, using: &rng)
        #expect(throws: HubError.request(.needsName)) {
            try send(&machine, .request(trackID: trackNotPlaying(machine)), id: "a1", from: 9)
        }
    }

    @Test func inDJModeRequestsAreRefused() throws {
        var machine = try party(mode: .dj)
        #expect(throws: HubError.request(.notRequestsMode)) {
            try send(&machine, .request(trackID: "t1"), id: "d1", from: 2)
        }
        // The owner turns requests on: everyone gets the new state at once.
        let actions = machine.settingsChanged(maxListeners: nil, mode: .requests)
        #expect(actions == [.broadcastSnapshot, .broadcastRequests])
        _ = try send(&machine, .request(trackID: trackNotPlaying(machine)), id: "d2", from: 2)
    }

    @Test func theHostVetoesAndEveryoneIsTold() throws {
        var machine = try party()
        _ = try send(&machine, .request(trackID: trackNotPlaying(machine)), id: "r1", from: 2)
        let waiting = waitingTrack(machine)
        _ = try send(&machine, .request(trackID: waiting), id: "r2", from: 3)
        let id = waitingRequests(machine)[0].id
        let result = try send(&machine, .vetoRequest(requestID: id), id: "h1", from: 1)
        #expect(result.actions.contains(.broadcast(.hostOverride(.init(kind: .vetoed, trackID: waiting, requesterName: "Bo")), except: nil)))
        #expect(waitingRequests(machine).isEmpty)
        #expect(throws: HubError.request(.vetoed)) {
            try send(&machine, .request(trackID: waiting), id: "r3", from: 4)
        }
    }

    /// Requests limited to the host's playlist: none chosen is said
    /// plainly, a song outside it is refused, a song in it is taken.
    @Test func poolOnlyRequestsComeFromTheHostsPlaylist() throws {
        var machine = try party(settings: RequestSettings(poolOnly: true))
        let inside = trackNotPlaying(machine)
        let outside = Self.library.map(\.id).last { $0 != inside && !machine.station.latestPlays(at: t0).contains($0) }!
        #expect(throws: HubError.request(.noPlaylist)) { try send(&machine, .request(trackID: inside), id: "p1", from: 2) }
        var rng = SeededRandom(seed: 4)
        var withPlaylist = robot
        withPlaylist.playlist = [inside]
        #expect(throws: HubError.request(.notAvailable)) {
            try machine.command(
                .request(trackID: outside), id: "p2", epoch: nil, from: .connection(ConnectionID(2)), at: t0,
                track: Self.library.first { $0.id == outside }, robot: withPlaylist, using: &rng)
        }
        _ = try machine.command(
            .request(trackID: inside), id: "p3", epoch: nil, from: .connection(ConnectionID(2)), at: t0,
            track: Self.library.first { $0.id == inside }, robot: withPlaylist, using: &rng)
        #expect(machine.party.queue.pending.map(\.trackID) == [inside])
    }

    @Test func playNowCutsTheSongAfterTheLeadAndPlaysTheRequest() throws {
        var machine = try party()
        _ = try send(&machine, .request(trackID: trackNotPlaying(machine)), id: "r1", from: 2)
        let waiting = waitingTrack(machine)
        _ = try send(&machine, .request(trackID: waiting), id: "r2", from: 3)
        let id = waitingRequests(machine)[0].id
        _ = try send(&machine, .playRequestNow(requestID: id), id: "h1", from: 1)
        // The song playing is cut one commit lead from now, and the request follows.
        let afterLead = t0 + 300
        #expect(machine.station.timeline.current(at: afterLead)?.trackID == waiting)
    }

    @Test func enoughListenersSkipTheSong() throws {
        var machine = try party()  // 4 people: the automatic threshold is 3
        let playing = try #require(machine.station.timeline.current(at: t0))
        _ = try send(&machine, .voteSkip(entryID: playing.id), id: "s1", from: 2)
        _ = try send(&machine, .voteSkip(entryID: playing.id), id: "s2", from: 3)
        #expect(machine.station.timeline.current(at: t0 + 300)?.id == playing.id)
        // Bo votes again from the same person: still two.
        _ = try send(&machine, .voteSkip(entryID: playing.id), id: "s3", from: 3)
        #expect(machine.station.timeline.current(at: t0 + 300)?.id == playing.id)
        let third = try send(&machine, .voteSkip(entryID: playing.id), id: "s4", from: 4)
        #expect(third.actions.contains(.broadcastUpdate))
        #expect(machine.station.timeline.current(at: t0 + 300)?.id != playing.id)
    }

    @Test func thumbsWorkInEveryModeAndTheDJHearsTheCounts() throws {
        var machine = try party(mode: .dj)
        let playing = try #require(machine.station.timeline.current(at: t0))
        let up = try send(&machine, .thumb(entryID: playing.id, up: true), id: "th1", from: 2)
        let save = try #require(up.actions.compactMap { if case .save(let save) = $0 { save } else { nil } }.first)
        #expect(save.thumb == Thumb(entryID: playing.id, trackID: playing.trackID, personID: "ann", up: true, at: t0))
        #expect(save.command?.id == "th1")
        // Only the host (connection 1) is told the counts.
        #expect(up.actions.contains(.send(ConnectionID(1), .thumbs(entryID: playing.id, up: 1, down: 0))))
        #expect(!up.actions.contains { if case .send(ConnectionID(2), _) = $0 { true } else { false } })
        let down = try send(&machine, .thumb(entryID: playing.id, up: false), id: "th2", from: 3)
        #expect(down.actions.contains(.send(ConnectionID(1), .thumbs(entryID: playing.id, up: 1, down: 1))))
        // Ann changes her mind: still one thumb each.
        let again = try send(&machine, .thumb(entryID: playing.id, up: false), id: "th3", from: 2)
        #expect(again.actions.contains(.send(ConnectionID(1), .thumbs(entryID: playing.id, up: 0, down: 2))))
        #expect(throws: HubError.timeline(.notCurrent(expected: "gone"))) {
            try send(&machine, .thumb(entryID: "gone", up: true), id: "th4", from: 2)
        }
        #expect(try send(&machine, .thumb(entryID: playing.id, up: false), id: "th3", from: 2).duplicate)
    }

    @Test func aFloodOfVotesFromOnePersonIsRefusedAndChangesNothing() throws {
        var machine = try party()
        let playing = try #require(machine.station.timeline.current(at: t0))
        for index in 0..<PartyPace.limit {
            _ = try send(&machine, .thumb(entryID: playing.id, up: index % 2 == 0), id: "f\(index)", from: 2, at: t0 + Int64(index))
        }
        let before = machine.party.thumbs
        #expect(throws: HubError.request(.tooFast)) {
            try send(&machine, .thumb(entryID: playing.id, up: true), id: "f-over", from: 2, at: t0 + 100)
        }
        #expect(machine.party.thumbs == before)
        #expect(machine.ledger.revision(for: "f-over") == nil)
        // Someone else in the room is not held back, and the flooder may go
        // again once the window has passed.
        _ = try send(&machine, .thumb(entryID: playing.id, up: true), id: "b1", from: 3, at: t0 + 100)
        _ = try send(&machine, .thumb(entryID: playing.id, up: true), id: "f-later", from: 2, at: t0 + PartyPace.window + 50)
    }

    @Test func aRequestForASongTheRobotLinedUpTakesItsPlace() throws {
        var machine = try party()
        let robotPick = try #require(upcoming(machine).first { $0.source == .robot })
        _ = try send(&machine, .request(trackID: robotPick.trackID), id: "r1", from: 2)
        let lined = upcoming(machine).filter { $0.trackID == robotPick.trackID }
        #expect(lined.map(\.source) == [.request])
        #expect(machine.station.timeline.isConsistent)
    }
}
