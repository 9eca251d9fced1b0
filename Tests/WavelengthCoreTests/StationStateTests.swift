import Foundation
import Testing
@testable import WavelengthCore

@Suite("Station state")
struct StationStateTests {
    let robot = RobotDJ()
    let t0: EpochMillis = 10_000_000

    func fill(_ state: inout StationState, at now: EpochMillis, seed: UInt64 = 1) -> StationState.Outcome {
        var rng = SeededRandom(seed: seed)
        return state.fill(
            at: now, robot: robot, pool: Fixtures.tracks, fallback: [], artistOf: Fixtures.artist, using: &rng)
    }

    func apply(_ state: inout StationState, _ command: StationCommand, at now: EpochMillis) throws -> StationState.Outcome {
        var rng = SeededRandom(seed: 2)
        return try state.apply(command, at: now, track: Fixtures.track, using: &rng)
    }

    @Test func fillReachesTheHorizonAndRaisesTheRevision() {
        var state = StationState(id: "s", quietSince: nil)
        let outcome = fill(&state, at: t0)
        #expect(outcome.changed)
        #expect(state.revision == 1)
        #expect(state.timeline.upcoming(at: t0).count == 3)
        #expect(state.timeline.entries.allSatisfy { $0.source == .robot })
        #expect(state.timeline.isConsistent)
        // Nothing to do a second time.
        #expect(!fill(&state, at: t0).changed)
        #expect(state.revision == 1)
    }

    @Test func fillAvoidsRepeatsAndSameArtistInARow() {
        var state = StationState(id: "s", quietSince: nil)
        var now = t0
        for step in 0..<50 {
            _ = fill(&state, at: now, seed: UInt64(step))
            now = state.timeline.entries.first!.expiration
        }
        let plays = state.recentHistory + state.timeline.entries
        for (a, b) in zip(plays, plays.dropFirst()) {
            #expect(Fixtures.artist(a.trackID) != Fixtures.artist(b.trackID))
            #expect(a.trackID != b.trackID)
        }
    }

    @Test func fillFallsBackWhenThePoolIsEmpty() {
        var state = StationState(id: "s", quietSince: nil)
        var rng = SeededRandom(seed: 4)
        _ = state.fill(
            at: t0, robot: robot, pool: [], fallback: [Fixtures.tracks[4]], artistOf: Fixtures.artist, using: &rng)
        #expect(state.timeline.entries.map(\.trackID).allSatisfy { $0 == "t5" })
        #expect(!state.timeline.entries.isEmpty)
    }

    @Test func commandsRaiseTheRevisionAndRefusalsChangeNothing() throws {
        var state = StationState(id: "s", quietSince: nil)
        _ = fill(&state, at: t0)
        let before = state
        #expect(throws: TimelineError.unknownTrack("nope")) { try apply(&state, .append(trackID: "nope"), at: t0) }
        #expect(throws: TimelineError.unknownEntry("nope")) { try apply(&state, .remove(entryID: "nope"), at: t0) }
        #expect(state == before)
        _ = try apply(&state, .queueNext(trackID: "t5"), at: t0 + 1)
        #expect(state.revision == before.revision + 1)
        #expect(state.timeline.entries[1].trackID == "t5")
        #expect(state.timeline.entries[1].source == .dj)
    }

    @Test func skipRecordsTheCutEntryInHistory() throws {
        var state = StationState(id: "s", quietSince: nil)
        _ = fill(&state, at: t0)
        let current = state.timeline.current(at: t0 + 5)!
        let outcome = try apply(&state, .skip(entryID: current.id), at: t0 + 5)
        #expect(outcome.played.map(\.id) == [current.id])
        #expect(outcome.played[0].duration == 5)
        #expect(state.recentHistory.last?.id == current.id)
        // Resending the same skip is refused rather than skipping another track.
        #expect(throws: TimelineError.alreadyPlayed(current.id)) {
            try apply(&state, .skip(entryID: current.id), at: t0 + 6)
        }
        #expect(throws: TimelineError.alreadyPlayed(current.id)) {
            try apply(&state, .remove(entryID: current.id), at: t0 + 6)
        }
    }

    @Test func settleMovesExpiredEntriesToHistoryWithoutANewRevision() {
        var state = StationState(id: "s", quietSince: nil)
        _ = fill(&state, at: t0)
        let first = state.timeline.entries[0]
        let outcome = state.settle(at: first.expiration)
        #expect(outcome.played == [first])
        #expect(!outcome.changed)
        #expect(state.revision == 1)
    }

    @Test func aQuietStationWakesMidSongLikeARadioAlreadyOn() {
        var state = StationState(id: "s", quietSince: t0)
        var rng = SeededRandom(seed: 11)
        let later = t0 + 86_400_000
        let outcome = state.wake(
            at: later, robot: robot, pool: Fixtures.tracks, fallback: [], artistOf: Fixtures.artist, using: &rng)
        #expect(outcome.changed)
        #expect(state.isOnAir)
        let current = state.timeline.current(at: later)
        #expect(current != nil)
        #expect(current!.start < later)  // started before we arrived
        #expect(current!.expiration > later)
    }

    @Test func wakeStartsAtDifferentPointsForDifferentSeeds() {
        var starts = Set<EpochMillis>()
        for seed in 0..<10 {
            var state = StationState(id: "s", quietSince: t0)
            var rng = SeededRandom(seed: UInt64(seed))
            _ = state.wake(
                at: t0 + 1000, robot: robot, pool: Fixtures.tracks, fallback: [], artistOf: Fixtures.artist,
                using: &rng)
            starts.insert(state.timeline.entries[0].start)
        }
        #expect(starts.count > 5)
    }

    @Test func djPicksSurviveAQuietSpellAndRobotPicksDoNot() throws {
        var state = StationState(id: "s", quietSince: nil)
        _ = fill(&state, at: t0)
        _ = try apply(&state, .append(trackID: "t5"), at: t0 + 1)
        let djEntry = state.timeline.entries.last!
        let firstEntry = state.timeline.entries[0]
        _ = state.goQuiet(at: t0 + 2)
        #expect(!state.isOnAir)
        // A day later, a listener arrives.
        let later = t0 + 86_400_000
        var rng = SeededRandom(seed: 3)
        let outcome = state.wake(
            at: later, robot: robot, pool: Fixtures.tracks, fallback: [], artistOf: Fixtures.artist, using: &rng)
        // Only the entry that was on the air when the station went quiet counts as played.
        #expect(outcome.played.map(\.id) == [firstEntry.id])
        let ids = state.timeline.entries.map(\.id)
        try #require(ids.count == 2)
        #expect(ids[1] == djEntry.id)
        #expect(state.timeline.entries[0].source == .robot)
        #expect(state.timeline.current(at: later)?.id == ids[0])
        #expect(state.timeline.isConsistent)
    }

    @Test func wakeWhileStillPlayingChangesNothing() {
        var state = StationState(id: "s", quietSince: nil)
        _ = fill(&state, at: t0)
        let timeline = state.timeline
        _ = state.goQuiet(at: t0 + 1)
        var rng = SeededRandom(seed: 3)
        let outcome = state.wake(
            at: t0 + 2, robot: robot, pool: Fixtures.tracks, fallback: [], artistOf: Fixtures.artist, using: &rng)
        #expect(!outcome.changed)
        #expect(state.timeline == timeline)
        #expect(state.isOnAir)
    }

    @Test func wakeWithAnEmptyLibraryStaysSilent() {
        var state = StationState(id: "s", quietSince: t0)
        var rng = SeededRandom(seed: 3)
        let outcome = state.wake(at: t0 + 5, robot: robot, pool: [], fallback: [], artistOf: { _ in nil }, using: &rng)
        #expect(!outcome.changed)
        #expect(state.timeline.entries.isEmpty)
        #expect(state.isOnAir)
    }

    @Test func recentHistoryIsBounded() {
        var state = StationState(id: "s", quietSince: nil)
        var now = t0
        for step in 0..<40 {
            _ = fill(&state, at: now, seed: UInt64(step))
            now = state.timeline.entries.last!.expiration
        }
        _ = state.settle(at: now)
        #expect(state.recentHistory.count == StationState.recentHistoryLimit)
    }
}

@Suite("Command ledger and wire form")
struct CommandTests {
    @Test func ledgerRemembersAndForgetsOldestFirst() {
        var ledger = CommandLedger(capacity: 2)
        ledger.record("a", revision: 1)
        ledger.record("b", revision: 2)
        ledger.record("a", revision: 9)  // a duplicate keeps its first revision
        #expect(ledger.revision(for: "a") == 1)
        ledger.record("c", revision: 3)
        #expect(ledger.revision(for: "a") == nil)
        #expect(ledger.revision(for: "c") == 3)
    }

    @Test func commandsRoundTripThroughJSON() throws {
        let commands: [StationCommand] = [
            .append(trackID: "t"), .queueNext(trackID: "t"), .remove(entryID: "e"), .skip(entryID: nil),
            .skip(entryID: "e"), .move(entryID: "e", toIndex: 2), .pause, .resume, .seek(positionMs: 1234),
        ]
        for command in commands {
            let data = try JSONEncoder().encode(command)
            #expect(try JSONDecoder().decode(StationCommand.self, from: data) == command)
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StationCommand.self, from: Data(#"{"op":"explode"}"#.utf8))
        }
    }
}

@Suite("Pause, resume and seek")
struct SessionControlTests {
    let robot = RobotDJ()
    let t0: EpochMillis = 10_000_000

    func playing() -> StationState {
        var state = StationState(id: "s", quietSince: nil)
        var rng = SeededRandom(seed: 1)
        _ = state.fill(at: t0, robot: robot, pool: Fixtures.tracks, fallback: [], artistOf: Fixtures.artist, using: &rng)
        return state
    }

    func apply(_ state: inout StationState, _ command: StationCommand, at now: EpochMillis) throws -> StationState.Outcome {
        var rng = SeededRandom(seed: 9)
        return try state.apply(command, at: now, track: Fixtures.track, using: &rng)
    }

    @Test func pauseFreezesTheTimelineAndResumeShiftsIt() throws {
        var state = playing()
        let first = state.timeline.entries[0]
        let outcome = try apply(&state, .pause, at: t0 + 4_000)
        #expect(state.pausedAt == t0 + 4_000)
        #expect(outcome.played.map(\.duration) == [4_000])
        let frozen = state.timeline.entries[0]
        #expect(frozen.trackID == first.trackID)
        #expect(frozen.offset == 4_000)
        #expect(frozen.duration == first.duration - 4_000)
        // Time passes; nothing moves while paused.
        #expect(state.settle(at: t0 + 3_600_000).played.isEmpty)
        #expect(state.timeline.entries[0] == frozen)
        var rng = SeededRandom(seed: 3)
        let fill = state.fill(
            at: t0 + 3_600_000, robot: robot, pool: Fixtures.tracks, fallback: [], artistOf: Fixtures.artist, using: &rng)
        #expect(!fill.changed)
        #expect(throws: TimelineError.paused) { try apply(&state, .pause, at: t0 + 5_000) }
        #expect(throws: TimelineError.paused) { try apply(&state, .seek(positionMs: 0), at: t0 + 5_000) }

        _ = try apply(&state, .resume, at: t0 + 10_000)
        #expect(state.pausedAt == nil)
        #expect(state.timeline.entries[0].start == t0 + 10_000)
        #expect(state.timeline.current(at: t0 + 10_000)?.offset == 4_000)
        #expect(state.timeline.isConsistent)
        #expect(throws: TimelineError.notPaused) { try apply(&state, .resume, at: t0 + 11_000) }
    }

    @Test func editsWhilePausedHappenAtThePause() throws {
        var state = playing()
        _ = try apply(&state, .pause, at: t0 + 1_000)
        _ = try apply(&state, .queueNext(trackID: "t5"), at: t0 + 50_000)
        #expect(state.timeline.entries[1].trackID == "t5")
        #expect(state.timeline.entries[1].start == state.timeline.entries[0].expiration)
        #expect(state.timeline.isConsistent)
    }

    @Test func seekJumpsWithinTheTrack() throws {
        var state = playing()
        let first = state.timeline.entries[0]
        let outcome = try apply(&state, .seek(positionMs: 60_000), at: t0 + 2_000)
        #expect(outcome.played.map(\.duration) == [2_000])
        let current = try #require(state.timeline.current(at: t0 + 2_000))
        #expect(current.trackID == first.trackID)
        #expect(current.offset == 60_000)
        #expect(current.start == t0 + 2_000)
        #expect(current.expiration == t0 + 2_000 + first.duration - 60_000)
        #expect(state.timeline.isConsistent)
        #expect(throws: TimelineError.positionOutOfRange(first.duration, length: first.duration)) {
            try apply(&state, .seek(positionMs: first.duration), at: t0 + 3_000)
        }
        #expect(throws: TimelineError.positionOutOfRange(-1, length: first.duration)) {
            try apply(&state, .seek(positionMs: -1), at: t0 + 3_000)
        }
    }

    @Test func pauseNeedsSomethingPlaying() {
        var state = StationState(id: "s", quietSince: nil)
        #expect(throws: TimelineError.nothingPlaying) { try apply(&state, .pause, at: t0) }
    }
}
