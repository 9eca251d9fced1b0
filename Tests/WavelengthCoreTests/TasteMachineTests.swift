import Testing
@testable import WavelengthCore

/// The station machine teaches its taste from the room's reactions, and
/// every lesson is saved with the event that taught it.
@Suite("The station learns its room")
struct TasteMachineTests {
    let t0: EpochMillis = 50_000_000
    let robot = RobotInputs(
        pool: Fixtures.tracks, fallback: Fixtures.tracks,
        artists: Dictionary(uniqueKeysWithValues: Fixtures.tracks.map { ($0.id, $0.artist) }))

    /// On the air with the owner (connection 1) and a listener (2).
    func station() throws -> StationMachine {
        var machine = StationMachine(station: StationState(id: "s1", quietSince: t0 - 1000), settings: .init(commitLead: 300))
        for (index, seat) in [
            Seat(personID: "host", name: "Host", role: .owner), Seat(personID: "ann", name: "Ann", role: .listener),
        ].enumerated() {
            var rng = SeededRandom(seed: UInt64(index))
            _ = try machine.connect(ConnectionID(UInt64(index + 1)), seat: seat, since: nil, at: t0, robot: robot, using: &rng)
        }
        return machine
    }

    func send(
        _ machine: inout StationMachine, _ command: StationCommand, id: String, from connection: UInt64,
        at now: EpochMillis? = nil
    ) throws -> StationMachine.CommandResult {
        var rng = SeededRandom(seed: 11)
        return try machine.command(
            command, id: id, epoch: nil, from: .connection(ConnectionID(connection)), at: now ?? t0, track: nil,
            robot: robot, using: &rng)
    }

    func saves(_ actions: [HubAction]) -> [StationSave] {
        actions.compactMap { if case .save(let save) = $0 { save } else { nil } }
    }

    @Test func aThumbTeachesTheTasteOnceAndTheLessonIsSavedWithIt() throws {
        var machine = try station()
        let playing = try #require(machine.station.timeline.current(at: t0))
        let artist = "artist:\(Fixtures.artist(playing.trackID)!.lowercased())"
        let up = try send(&machine, .thumb(entryID: playing.id, up: true), id: "th1", from: 2)
        #expect(machine.taste.belief(artist).mean > 0)
        let change = try #require(saves(up.actions).first?.taste)
        #expect(change.updated[artist] == machine.taste.belief(artist))
        // Changing the thumb to down doesn't count twice.
        let learned = machine.taste
        let down = try send(&machine, .thumb(entryID: playing.id, up: false), id: "th2", from: 2)
        #expect(machine.taste == learned)
        #expect(saves(down.actions).first?.taste == nil)
    }

    @Test func skippingTheSongPlayingTeachesAStrongNo() throws {
        var machine = try station()
        let playing = try #require(machine.station.timeline.current(at: t0))
        let result = try send(&machine, .skip(entryID: nil), id: "sk1", from: 1)
        #expect(machine.taste.appeal(Fixtures.track(playing.trackID)!.tasteFeatures) < 0)
        #expect(saves(result.actions).first?.taste?.updated["track:\(playing.trackID)"] != nil)
    }

    @Test func aSongHeardToTheEndIsAFaintYes() throws {
        var machine = try station()
        var rng = SeededRandom(seed: 4)
        // The song after the one the station woke with plays from its start.
        let due = try #require(machine.timers[.tick])
        _ = machine.timerFired(.tick, due: due, at: due, robot: robot, using: &rng)
        let next = try #require(machine.station.timeline.current(at: due))
        #expect(next.offset == 0)
        let nextDue = try #require(machine.timers[.tick])
        let later = machine.timerFired(.tick, due: nextDue, at: nextDue, robot: robot, using: &rng)
        #expect(machine.taste.appeal(Fixtures.track(next.trackID)!.tasteFeatures) > 0)
        #expect(saves(later).contains { $0.taste?.updated["track:\(next.trackID)"] != nil })
    }

    @Test func nobodyListeningTeachesNothing() throws {
        var machine = try station()
        _ = machine.disconnect(ConnectionID(1), at: t0)
        _ = machine.disconnect(ConnectionID(2), at: t0)
        #expect(machine.taste.isEmpty)
    }

    @Test func whatItLearnedShapesTheNextPicksAndTheirReasons() throws {
        var taste = TasteModel()
        for _ in 0..<10 { taste.learn(.thumbUp, features: Fixtures.track("t3")!.tasteFeatures) }
        for id in ["t1", "t2", "t4", "t5"] {
            for _ in 0..<5 { taste.learn(.thumbDown, features: Fixtures.track(id)!.tasteFeatures) }
        }
        var machine = StationMachine(
            station: StationState(id: "s1", quietSince: t0 - 1000), settings: .init(robot: RobotDJ(explorationRate: 0)),
            taste: taste)
        var rng = SeededRandom(seed: 2)
        _ = try machine.connect(
            ConnectionID(1), seat: Seat(personID: "host", name: "Host", role: .owner), since: nil, at: t0, robot: robot,
            using: &rng)
        let picks = machine.station.timeline.entries.filter { $0.source == .robot && $0.trackID == "t3" }
        #expect(!picks.isEmpty)
        #expect(picks.allSatisfy { $0.why == "Because the room liked Bo" || $0.why == "Because the room liked this song" })
    }
}
