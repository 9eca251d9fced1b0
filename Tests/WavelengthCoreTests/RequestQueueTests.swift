import Testing
@testable import WavelengthCore

/// The party's queue: fairness, votes, the host's settings and overrides.
/// Pure: instants are numbers, nothing sleeps.
struct RequestQueueTests {
    var queue = RequestQueue()
    let settings = RequestSettings()
    var clock: EpochMillis = 1_000

    func track(_ id: String, minutes: Int64 = 3) -> RequestQueue.Candidate {
        .init(trackID: id, durationMs: minutes * 60_000)
    }

    @discardableResult
    mutating func ask(
        _ trackID: String, by person: String, settings: RequestSettings? = nil, recent: [TrackID] = [], minutes: Int64 = 3
    ) throws(RequestError) -> RequestQueue.Requested {
        clock += 1_000
        return try queue.request(
            track(trackID, minutes: minutes), id: "r-\(trackID)", by: person, at: clock,
            settings: settings ?? self.settings, recentPlays: recent)
    }

    var order: [TrackID] { queue.ordered().map(\.trackID) }

    @Test mutating func aRequestLinedUpStaysTheRequestersUntilItStarts() throws {
        try ask("a1", by: "ann")
        let linedUp = queue.lineUp(as: "e1")
        let lined = try #require(linedUp)
        #expect(lined.trackID == "a1")
        // Still Ann's, still counted against her cap of 1, shown first.
        #expect(order == ["a1"])
        #expect(queue.ordered().first?.isLinedUp == true)
        #expect(throws: RequestError.tooManyPending(limit: 1)) {
            try self.ask("a2", by: "ann", settings: RequestSettings(maxPendingPerPerson: 1))
        }
        // Asking again for it, or voting on it, changes nothing.
        #expect(throws: RequestError.alreadyScheduled) { try self.ask("a1", by: "bob") }
        #expect(throws: RequestError.alreadyScheduled) { try self.queue.vote(.down, on: lined.id, by: "bob") }
        queue.started("e1")
        #expect(queue.pending.isEmpty)
        #expect(queue.turns["ann"] == 1)
        try ask("a2", by: "ann", settings: RequestSettings(maxPendingPerPerson: 1))
    }

    @Test mutating func aRequestLinedUpCountsAsATurnForFairness() throws {
        for n in 1...6 { try ask("a\(n)", by: "ann", settings: RequestSettings(maxPendingPerPerson: 10)) }
        _ = queue.lineUp(as: "e1")
        try ask("b1", by: "bob")
        // Bob's first comes right after Ann's lined-up one, before her second.
        #expect(order.prefix(3) == ["a1", "b1", "a2"])
    }

    @Test mutating func aRequestThatLeftTheTimelineUnplayedWaitsAgainInItsPlace() throws {
        try ask("a1", by: "ann")
        try ask("b1", by: "bob")
        _ = queue.lineUp(as: "e1")
        queue.unschedule("e1")
        #expect(order == ["a1", "b1"])
        #expect(queue.linedUp.isEmpty)
        #expect(queue.turns["ann"] ?? 0 == 0)
    }

    @Test mutating func aVetoCanBeLifted() throws {
        try ask("a1", by: "ann")
        _ = try queue.veto("r-a1")
        #expect(throws: RequestError.vetoed) { try self.ask("a1", by: "bob") }
        try queue.liftVeto("a1")
        #expect(throws: RequestError.notVetoed) { try self.queue.liftVeto("a1") }
        try ask("a1", by: "bob")
    }

    @Test mutating func oneGuestsFloodTakesTurnsWithEveryoneElse() throws {
        try ask("a1", by: "ann")
        try ask("a2", by: "ann")
        try ask("a3", by: "ann")
        try ask("b1", by: "bob")
        try ask("c1", by: "cat")
        #expect(order == ["a1", "b1", "c1", "a2", "a3"])
    }

    @Test mutating func afterARequestPlaysItsRequesterWaitsTheirTurn() throws {
        try ask("a1", by: "ann")
        try ask("a2", by: "ann")
        try ask("b1", by: "bob")
        #expect(queue.playNext()?.trackID == "a1")
        // Ann's a2 is older than Bob's b1, but it is Bob's turn.
        #expect(order == ["b1", "a2"])
    }

    @Test mutating func someoneWhoStartsLateGetsAPlaceNotARunOfTurns() throws {
        for n in 1...3 {
            try ask("a\(n)", by: "ann")
            try ask("b\(n)", by: "bob")
            _ = queue.playNext()
            _ = queue.playNext()
        }
        try ask("a4", by: "ann")
        try ask("a5", by: "ann")
        try ask("b4", by: "bob")
        try ask("c1", by: "cat")
        try ask("c2", by: "cat")
        // Cat joins at the turn Ann and Bob are on: one each, then round two.
        #expect(order == ["a4", "b4", "c1", "a5", "c2"])
    }

    @Test mutating func tenLaterVotesBeatOneEarlyOne() throws {
        try ask("early", by: "ann")
        try ask("late", by: "bob")
        for voter in 1...9 { _ = try queue.vote(.up, on: "r-late", by: "v\(voter)") }
        #expect(order == ["late", "early"])
    }

    @Test mutating func tiesGoToTheEarliestRequest() throws {
        try ask("first", by: "ann")
        try ask("second", by: "bob")
        #expect(order == ["first", "second"])
    }

    @Test mutating func downvotesSinkARequestWithinItsRound() throws {
        try ask("x", by: "ann")
        try ask("y", by: "bob")
        _ = try queue.vote(.down, on: "r-x", by: "cat")
        _ = try queue.vote(.down, on: "r-x", by: "dan")
        #expect(order == ["y", "x"])
    }

    @Test mutating func askingForAWaitingTrackIsAnUpvoteAndNotARequest() throws {
        try ask("song", by: "ann")
        let again = try ask("song", by: "bob")
        guard case .upvoted(let request) = again else {
            Issue.record("expected an upvote, got \(again)")
            return
        }
        #expect(request.requester == "ann")
        #expect(request.upvotes == 2)
        #expect(queue.pending.count == 1)
    }

    @Test mutating func aSecondVoteChangesTheFirstAndNeverDoublesIt() throws {
        try ask("song", by: "ann")
        _ = try queue.vote(.up, on: "r-song", by: "bob")
        _ = try queue.vote(.up, on: "r-song", by: "bob")
        #expect(queue.pending[0].score == 2)
        _ = try queue.vote(.down, on: "r-song", by: "bob")
        #expect(queue.pending[0].score == 0)
        _ = try queue.vote(nil, on: "r-song", by: "bob")
        #expect(queue.pending[0].score == 1)
    }

    @Test mutating func theHostsSettingsRefuseRequestsAndChangeNothing() throws {
        var closed = settings
        closed.open = false
        #expect(throws: RequestError.closed) { try ask("x", by: "ann", settings: closed) }
        #expect(throws: RequestError.tooLong(maxMillis: 600_000)) { try ask("long", by: "ann", minutes: 11) }
        #expect(throws: RequestError.playedRecently(within: 10)) { try ask("old", by: "ann", recent: ["new", "old"]) }
        for n in 1...3 { try ask("a\(n)", by: "ann") }
        #expect(throws: RequestError.tooManyPending(limit: 3)) { try ask("a4", by: "ann") }
        // An upvote is never capped.
        try ask("b1", by: "bob")
        try ask("b1", by: "ann")
        #expect(queue.pending.map(\.trackID) == ["a1", "a2", "a3", "b1"])
    }

    @Test mutating func aTrackPlayedLongEnoughAgoMayBeRequestedAgain() throws {
        let recent = (1...10).map { "t\($0)" } + ["old"]
        try ask("old", by: "ann", recent: recent)
        #expect(order == ["old"])
    }

    @Test mutating func votesOnUnknownRequestsAreRefused() {
        #expect(throws: RequestError.unknownRequest) { try queue.vote(.up, on: "nope", by: "ann") }
    }

    @Test mutating func onlyTheRequesterOrTheHostWithdraws() throws {
        try ask("x", by: "ann")
        #expect(throws: RequestError.notYours) { try queue.withdraw("r-x", by: "bob", isHost: false) }
        _ = try queue.withdraw("r-x", by: "ann", isHost: false)
        #expect(queue.pending.isEmpty)
        try ask("y", by: "bob")
        _ = try queue.withdraw("r-y", by: "host", isHost: true)
        #expect(queue.pending.isEmpty)
    }

    @Test mutating func theHostArrangesTheTopOfTheQueue() throws {
        try ask("a1", by: "ann")
        try ask("b1", by: "bob")
        try ask("c1", by: "cat")
        try ask("d1", by: "dan")
        try queue.move("r-d1", toIndex: 1)
        #expect(order == ["a1", "d1", "b1", "c1"])
        // Votes no longer move what the host arranged.
        for voter in 1...5 { _ = try queue.vote(.up, on: "r-c1", by: "v\(voter)") }
        #expect(order == ["a1", "d1", "c1", "b1"])
        try queue.pin("r-b1")
        #expect(order == ["a1", "d1", "b1", "c1"])
    }

    @Test mutating func aVetoRemovesTheRequestAndItsTrackForGood() throws {
        try ask("bad", by: "ann")
        _ = try queue.veto("r-bad")
        #expect(queue.pending.isEmpty)
        #expect(throws: RequestError.vetoed) { try ask("bad", by: "bob") }
    }

    @Test mutating func playNowTakesTheRequestAndCountsTheTurn() throws {
        try ask("a1", by: "ann")
        try ask("a2", by: "ann")
        try ask("b1", by: "bob")
        #expect(try queue.playNow("r-a2").trackID == "a2")
        #expect(order == ["b1", "a1"])
        #expect(throws: RequestError.unknownRequest) { try queue.playNow("r-a2") }
    }

    @Test func settingsOutsideTheirRangesAreRefused() {
        #expect(throws: RequestError.self) { try RequestSettings(maxPendingPerPerson: 0).validated() }
        #expect(throws: RequestError.self) { try RequestSettings(maxTrackMillis: 1_000).validated() }
        #expect(throws: RequestError.self) { try RequestSettings(noRepeatWithin: 201).validated() }
        #expect(throws: RequestError.self) { try RequestSettings(skip: .share(0)).validated() }
        #expect(throws: RequestError.self) { try RequestSettings(skip: .count(0)).validated() }
        #expect((try? RequestSettings().validated()) != nil)
    }
}

extension RequestQueue {
    /// Lines up the next request and starts it at once.
    mutating func playNext() -> SongRequest? {
        let entryID = "e\(turns.values.reduce(0, +))-\(pending.count)"
        guard lineUp(as: entryID) != nil else { return nil }
        return started(entryID)
    }
}

struct SkipThresholdTests {
    @Test(arguments: [(1, 1), (2, 2), (3, 2), (10, 6), (30, 17), (100, 22), (300, 27)])
    func theAutomaticThresholdSuitsThreePeopleAndThreeHundred(listening: Int, needed: Int) {
        #expect(SkipThreshold.automatic.votesNeeded(listening: listening) == needed)
    }

    @Test func fixedThresholdsNeverAskMoreThanAreListening() {
        #expect(SkipThreshold.count(5).votesNeeded(listening: 3) == 3)
        #expect(SkipThreshold.share(0.5).votesNeeded(listening: 7) == 4)
        #expect(SkipThreshold.share(1).votesNeeded(listening: 0) == 1)
    }

    @Test func onlyPeopleListeningNowCountAndEachSongStartsAfresh() {
        var tally = SkipTally()
        tally.vote(by: "ann", on: "e1")
        tally.vote(by: "bob", on: "e1")
        tally.vote(by: "bob", on: "e1")
        #expect(tally.votes(on: "e1", listening: ["ann", "bob", "cat"]) == 2)
        #expect(tally.reached(on: "e1", listening: ["ann", "bob", "cat"], threshold: .automatic))
        // Bob left: his vote no longer counts.
        #expect(!tally.reached(on: "e1", listening: ["ann", "cat", "dan"], threshold: .automatic))
        tally.vote(by: "cat", on: "e2")
        #expect(tally.votes(on: "e1", listening: ["ann", "bob", "cat"]) == 0)
        #expect(tally.votes(on: "e2", listening: ["ann", "bob", "cat"]) == 1)
    }
}
