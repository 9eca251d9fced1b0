import Testing
@testable import WavelengthCore

/// The station's rules, driven event by event with a hand-moved clock and a
/// seeded random source: no sockets, no storage, no sleeps.
@Suite("Station machine")
struct StationMachineTests {
    let t0: EpochMillis = 50_000_000
    let robot = RobotInputs(
        pool: Fixtures.tracks, fallback: Fixtures.tracks,
        artists: Dictionary(uniqueKeysWithValues: Fixtures.tracks.map { ($0.id, $0.artist) }))
    let owner = Seat(personID: "p-owner", name: "Owner", role: .owner)
    let codj = Seat(personID: "p-codj", name: "Co", role: .codj)
    let listener = Seat(personID: "p-listener", name: "Lis", role: .listener)

    func quietMachine(maxListeners: Int? = nil) -> StationMachine {
        StationMachine(
            station: StationState(id: "s1", quietSince: t0 - 1000), maxListeners: maxListeners,
            settings: .init(djGraceMillis: 20_000, commitLead: 300))
    }

    func connect(
        _ machine: inout StationMachine, _ id: UInt64, _ seat: Seat, since: Int64? = nil, at now: EpochMillis? = nil
    ) throws -> [HubAction] {
        var rng = SeededRandom(seed: id)
        return try machine.connect(ConnectionID(id), seat: seat, since: since, at: now ?? t0, robot: robot, using: &rng)
    }

    func command(
        _ machine: inout StationMachine, _ command: StationCommand, id: String, from origin: StationMachine.Origin,
        epoch: Int64? = nil, at now: EpochMillis? = nil
    ) throws(HubError) -> StationMachine.CommandResult {
        var rng = SeededRandom(seed: 9)
        return try machine.command(
            command, id: id, epoch: epoch, from: origin, at: now ?? t0, track: Fixtures.track("t4"), robot: robot,
            using: &rng)
    }

    func fire(_ machine: inout StationMachine, _ timer: HubTimer, at now: EpochMillis) -> [HubAction] {
        var rng = SeededRandom(seed: 3)
        return machine.timerFired(timer, due: machine.timers[timer] ?? -1, at: now, robot: robot, using: &rng)
    }

    static func saves(_ actions: [HubAction]) -> [StationSave] {
        actions.compactMap { if case .save(let save) = $0 { save } else { nil } }
    }

    // MARK: Listeners

    /// Every join and leave broadcast the count to every listener, so 2,000
    /// joins cost 2,000² messages. Now a crowd arriving together gets one
    /// count at once and one at the end of the second, with the final number.
    @Test func aCrowdJoiningGetsTheListenerCountAtMostOnceASecond() throws {
        var machine = quietMachine()
        var counts: [Int] = []
        func note(_ actions: [HubAction]) {
            for case .broadcast(.listeners(let count), _) in actions { counts.append(count) }
        }
        for id in 1...500 {
            note(try connect(&machine, UInt64(id), Seat(personID: "p\(id)", name: "L", role: .listener), at: t0 + Int64(id)))
        }
        note(machine.disconnect(ConnectionID(7), at: t0 + 600))
        #expect(counts == [1])
        #expect(machine.timers[.listenerCount] == t0 + 1 + StationMachine.listenerCountInterval)
        note(fire(&machine, .listenerCount, at: t0 + 1001))
        #expect(counts == [1, 499])
        // A quiet second later, a change goes out at once again.
        note(machine.disconnect(ConnectionID(8), at: t0 + 2500))
        #expect(counts == [1, 499, 498])
        #expect(machine.timers[.listenerCount] == nil)
    }

    /// The hub runs joins and leaves that the machine says save nothing in
    /// place (no copy of a roster of thousands per event): that promise
    /// must hold whoever comes and goes, the owner and co-DJs included.
    @Test func onlyTheFirstArrivalAndTheLastDepartureSave() throws {
        var machine = quietMachine()
        #expect(machine.arrivalMaySave)
        #expect(!Self.saves(try connect(&machine, 1, listener)).isEmpty)
        for (id, seat) in [(2, owner), (3, codj), (4, listener)] {
            #expect(!machine.arrivalMaySave)
            #expect(Self.saves(try connect(&machine, UInt64(id), seat, at: t0 + Int64(id) * 1000)).isEmpty)
        }
        for id in [2, 1, 3] {
            #expect(!machine.departureMaySave)
            #expect(Self.saves(machine.disconnect(ConnectionID(UInt64(id)), at: t0 + 9000)).isEmpty)
        }
        #expect(machine.departureMaySave)
        #expect(!Self.saves(machine.disconnect(ConnectionID(4), at: t0 + 9000)).isEmpty)
    }

    @Test func theFirstListenerWakesTheStationAndTheOwnerTakesTheBooth() throws {
        var machine = quietMachine()
        let actions = try connect(&machine, 1, owner)
        let c1 = ConnectionID(1)
        // Saved first (it went back on the air), then told, then the tick.
        guard case .save(let save) = actions.first else {
            Issue.record("the first action must be the save, got \(actions)")
            return
        }
        #expect(save.state.isOnAir)
        #expect(save.state.timeline.current(at: t0) != nil)
        #expect(actions.contains(.sendSnapshot(c1, reply: false)))
        #expect(actions.contains(.send(c1, .access(.owner))))
        #expect(actions.contains(.send(c1, .role(isDJ: true, epoch: 1))))
        #expect(actions.contains(.broadcast(.dj(epoch: 1, present: true, name: "Owner"), except: nil)))
        let tick = try #require(machine.timers[.tick])
        #expect(actions.last == .startTimer(.tick, at: tick))
        #expect(tick == machine.station.timeline.current(at: t0)?.expiration)
        #expect(machine.dj == c1)
    }

    @Test func aReconnectThatMissedNothingIsResumed() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        let actions = try connect(&machine, 2, listener, since: machine.station.revision)
        #expect(actions.contains(.send(ConnectionID(2), .resumed(revision: machine.station.revision, listeners: 2))))
        #expect(!actions.contains(.sendSnapshot(ConnectionID(2), reply: false)))
        // The others hear the new count within a second (one count a second at most).
        #expect(actions.contains(.startTimer(.listenerCount, at: t0 + StationMachine.listenerCountInterval)))
        #expect(actions.contains(.send(ConnectionID(2), .role(isDJ: false, epoch: 1))))
        #expect(HubAction.saveCount(actions) == 0)
    }

    @Test func aFullStationRefusesListenersButNotItsDJs() throws {
        var machine = quietMachine(maxListeners: 1)
        _ = try connect(&machine, 1, listener)
        #expect(throws: HubError.stationFull(limit: 1)) { try connect(&machine, 2, listener) }
        #expect(machine.listenerCount == 1)
        _ = try connect(&machine, 3, codj)
        #expect(machine.listenerCount == 2)
    }

    @Test func theLastListenerLeavingStopsAllWork() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        let actions = machine.disconnect(ConnectionID(1), at: t0 + 5000)
        #expect(actions.contains(.close(ConnectionID(1))))
        #expect(actions.contains(.cancelTimer(.tick)))
        #expect(actions.contains(.cancelTimer(.promotion)))
        // Only the audience's minute is left to close; then nothing runs.
        var rng = SeededRandom(seed: 1)
        #expect(Array(machine.timers.keys) == [.audienceMinute])
        let minute = machine.timers[.audienceMinute]!
        #expect(machine.timerFired(.audienceMinute, due: minute, at: minute, robot: .none, using: &rng) == [
            .recordAudience([ListenerMinute(minute: minute - 60_000, peak: 1, listenerMillis: 5000, departures: 1, stayMillis: 5000)])
        ])
        #expect(machine.timers.isEmpty)
        let save = try #require(Self.saves(actions).first)
        #expect(!save.state.isOnAir)
        // A second disconnect of the same connection does nothing.
        #expect(machine.disconnect(ConnectionID(1), at: t0 + 6000).isEmpty)
    }

    // MARK: Commands

    @Test func aCommandAndTheFillItCausesAreOneSave() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        let current = try #require(machine.station.timeline.current(at: t0))
        // Skipping leaves the robot short of its horizon; it tops up in the same save.
        let result = try command(&machine, .skip(entryID: current.id), id: "cmd-1", from: .connection(ConnectionID(1)), at: t0 + 10)
        let saves = Self.saves(result.actions)
        #expect(saves.count == 1)
        #expect(saves.first?.command?.id == "cmd-1")
        #expect(saves.first?.command?.revision == result.revision)
        #expect(saves.first?.state == machine.station)
        #expect(result.actions.contains(.broadcastUpdate))
        #expect(!result.duplicate)
    }

    @Test func aResentCommandIsAcknowledgedAndNotAppliedTwice() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        let first = try command(&machine, .append(trackID: "t4"), id: "same", from: .connection(ConnectionID(1)))
        let revision = machine.station.revision
        let again = try command(&machine, .append(trackID: "t4"), id: "same", from: .connection(ConnectionID(1)))
        #expect(again.duplicate)
        #expect(again.revision == first.revision)
        #expect(again.actions.isEmpty)
        #expect(machine.station.revision == revision)
        // An id only storage remembers counts too.
        var rng = SeededRandom(seed: 1)
        let old = try machine.command(
            .append(trackID: "t4"), id: "older", epoch: nil, from: .request(.owner), at: t0, appliedBefore: 7,
            track: Fixtures.track("t4"), robot: robot, using: &rng)
        #expect(old == .init(revision: 7, duplicate: true, actions: []))
    }

    @Test func aCoDJRevokedWhileTheirCommandWaitsIsRefused() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, codj)
        _ = machine.roleChanged(personID: "p-codj", to: .listener, at: t0)
        #expect(throws: HubError.forbidden(.command)) {
            try command(&machine, .append(trackID: "t4"), id: "late", from: .connection(ConnectionID(2)))
        }
        #expect(machine.ledger.revision(for: "late") == nil)
    }

    @Test func aKickedConnectionCanDoNothingWhileItCloses() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, codj)
        let actions = machine.remove(personID: "p-codj", name: "Co", reason: "kicked")
        #expect(actions.first == .broadcast(.removed(personID: "p-codj", name: "Co", reason: "kicked"), except: nil))
        #expect(actions.contains(.close(ConnectionID(2))))
        #expect(throws: HubError.forbidden(.command)) {
            try command(&machine, .append(trackID: "t4"), id: "x", from: .connection(ConnectionID(2)))
        }
    }

    @Test func aCommandFromAFormerDJsEpochIsRefusedOverHTTPToo() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        #expect(machine.djEpoch == 1)
        _ = machine.disconnect(ConnectionID(1), at: t0)
        _ = try connect(&machine, 2, owner)
        #expect(machine.djEpoch == 2)
        #expect(throws: HubError.staleEpoch(current: 2, given: 1)) {
            try command(&machine, .append(trackID: "t4"), id: "http-1", from: .request(.owner), epoch: 1)
        }
        _ = try command(&machine, .append(trackID: "t4"), id: "http-2", from: .request(.owner), epoch: 2)
    }

    @Test func aRefusedTimelineEditChangesNothing() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        let before = machine.station
        #expect(throws: HubError.timeline(.unknownEntry("nope"))) {
            try command(&machine, .remove(entryID: "nope"), id: "r", from: .connection(ConnectionID(1)))
        }
        #expect(machine.station == before)
    }

    // MARK: Timers

    @Test func aTickSettlesTopsUpAndSchedulesTheNext() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, listener)
        let due = try #require(machine.timers[.tick])
        let actions = fire(&machine, .tick, at: due)
        #expect(Self.saves(actions).first?.played.isEmpty == false)
        #expect(actions.contains(.broadcastUpdate))
        let next = try #require(machine.timers[.tick])
        #expect(next > due)
        #expect(actions.last == .startTimer(.tick, at: next))
        // A firing for an instant no longer expected (replaced) does nothing.
        var rng = SeededRandom(seed: 1)
        #expect(machine.timerFired(.tick, due: due, at: next, robot: robot, using: &rng).isEmpty)
    }

    @Test func aDroppedDJsBoothGoesToTheLongestConnectedCoDJAfterTheGrace() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, listener)
        _ = try connect(&machine, 3, codj)
        _ = try connect(&machine, 4, Seat(personID: "p-other", name: "Other", role: .codj))
        let left = machine.disconnect(ConnectionID(1), at: t0 + 1000)
        #expect(left.contains(.broadcast(.dj(epoch: 1, present: false), except: nil)))
        #expect(left.contains(.startTimer(.promotion, at: t0 + 21_000)))
        let promoted = fire(&machine, .promotion, at: t0 + 21_000)
        #expect(promoted.contains(.send(ConnectionID(3), .role(isDJ: true, epoch: 2))))
        #expect(machine.dj == ConnectionID(3))
    }

    @Test func theOwnerBackInTimeKeepsTheBoothAndNoOneIsPromoted() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, codj)
        _ = machine.disconnect(ConnectionID(1), at: t0)
        let back = try connect(&machine, 5, owner, at: t0 + 5000)
        #expect(back.contains(.cancelTimer(.promotion)))
        #expect(machine.dj == ConnectionID(5))
        #expect(machine.timers[.promotion] == nil)
    }

    @Test func aCoDJGrantedWhileTheBoothIsEmptyTakesIt() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, listener)
        _ = machine.disconnect(ConnectionID(1), at: t0)
        // The grace period passes with no co-DJ to promote.
        #expect(fire(&machine, .promotion, at: t0 + 20_000).isEmpty)
        #expect(machine.dj == nil)
        let granted = machine.roleChanged(personID: "p-listener", to: .codj, at: t0 + 30_000)
        #expect(granted.contains(.send(ConnectionID(2), .access(.codj))))
        #expect(granted.contains(.send(ConnectionID(2), .role(isDJ: true, epoch: 2))))
        #expect(machine.dj == ConnectionID(2))
        // And their next command is answered.
        let result = try command(&machine, .append(trackID: "t4"), id: "after-grant", from: .connection(ConnectionID(2)), epoch: 2)
        #expect(!result.duplicate)
    }

    @Test func aCoDJGrantedDuringTheGraceWaitsForIt() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, listener)
        _ = machine.disconnect(ConnectionID(1), at: t0)
        let granted = machine.roleChanged(personID: "p-listener", to: .codj, at: t0 + 1000)
        #expect(!granted.contains(.send(ConnectionID(2), .role(isDJ: true, epoch: 2))))
        let promoted = fire(&machine, .promotion, at: t0 + 20_000)
        #expect(promoted.contains(.send(ConnectionID(2), .role(isDJ: true, epoch: 2))))
    }

    @Test func revokingTheDJsRoleEmptiesTheBooth() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, listener)
        _ = machine.disconnect(ConnectionID(1), at: t0)
        _ = try connect(&machine, 3, codj, at: t0 + 5000)
        #expect(machine.dj == nil)  // the grace period still runs
        _ = fire(&machine, .promotion, at: t0 + 20_000)
        #expect(machine.dj == ConnectionID(3))
        #expect(machine.djEpoch == 2)
        let revoked = machine.roleChanged(personID: "p-codj", to: .listener, at: t0 + 40_000)
        #expect(revoked.contains(.broadcast(.dj(epoch: 2, present: false), except: nil)))
        #expect(machine.dj == nil)
        #expect(machine.timers[.promotion] == t0 + 60_000)
    }

    @Test func endingClosesEveryConnection() throws {
        var machine = quietMachine()
        _ = try connect(&machine, 1, owner)
        _ = try connect(&machine, 2, listener)
        let actions = machine.end()
        #expect(actions == [.broadcast(.ended, except: nil), .close(ConnectionID(1)), .close(ConnectionID(2))])
        #expect(machine.connections.allSatisfy { $0.closing })
    }

    @Test func newSettingsReachEveryoneAsASnapshot() throws {
        var machine = quietMachine()
        #expect(machine.settingsChanged(maxListeners: 5).isEmpty)
        _ = try connect(&machine, 1, owner)
        #expect(machine.settingsChanged(maxListeners: 2) == [.broadcastSnapshot])
        #expect(machine.maxListeners == 2)
        #expect(machine.resync(ConnectionID(1)) == [.sendSnapshot(ConnectionID(1), reply: true)])
        #expect(machine.resync(ConnectionID(9)).isEmpty)
    }
}

extension HubAction {
    static func saveCount(_ actions: [HubAction]) -> Int {
        actions.filter { if case .save = $0 { true } else { false } }.count
    }
}
