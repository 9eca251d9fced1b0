import Testing
@testable import WavelengthCore

/// Issue 9, item 8: after HOLD then GO, the held track showed under "Just
/// played" while it was still playing, and then twice.
@Suite("Just played")
struct JustPlayedTests {
    let robot = RobotDJ()
    let t0: EpochMillis = 10_000_000

    func playing() -> StationState {
        var state = StationState(id: "s", quietSince: nil)
        var rng = SeededRandom(seed: 1)
        _ = state.fill(at: t0, robot: robot, pool: Fixtures.tracks, fallback: [], artistOf: Fixtures.artist, using: &rng)
        return state
    }

    func apply(_ state: inout StationState, _ command: StationCommand, at now: EpochMillis) throws {
        var rng = SeededRandom(seed: 9)
        _ = try state.apply(command, at: now, track: Fixtures.track, using: &rng)
    }

    func rows(_ state: StationState, at clockNow: EpochMillis) -> [TimelineEntry] {
        let now = state.timelineTime(at: clockNow)
        return JustPlayed.rows(
            history: state.recentHistory.filter { $0.expiration <= now }, current: state.timeline.current(at: now),
            limit: 10)
    }

    @Test func aHeldTrackIsNotJustPlayedUntilItEndsAndThenOnce() throws {
        var state = playing()
        let first = state.timeline.entries[0]
        try apply(&state, .pause, at: t0 + 4_000)
        #expect(rows(state, at: t0 + 5_000).isEmpty, "held, still on")
        try apply(&state, .resume, at: t0 + 10_000)
        #expect(rows(state, at: t0 + 11_000).isEmpty, "playing again after GO")
        // Its rest ends: now it was just played, as one row.
        let end = try #require(state.timeline.current(at: t0 + 11_000)).expiration
        _ = state.settle(at: end + 1)
        let shown = rows(state, at: end + 1)
        #expect(shown.map(\.trackID) == [first.trackID])
        #expect(shown.first?.id == first.id)
        #expect(shown.first?.duration == first.duration)
        #expect(state.recentHistory.count == 2, "storage still has both pieces")
    }

    @Test func twoHoldsAndASeekStillMakeOneRow() throws {
        var state = playing()
        let first = state.timeline.entries[0]
        try apply(&state, .pause, at: t0 + 1_000)
        try apply(&state, .resume, at: t0 + 2_000)
        try apply(&state, .seek(positionMs: 30_000), at: t0 + 3_000)
        try apply(&state, .pause, at: t0 + 4_000)
        try apply(&state, .resume, at: t0 + 5_000)
        #expect(rows(state, at: t0 + 6_000).isEmpty)
        let end = try #require(state.timeline.current(at: t0 + 6_000)).expiration
        _ = state.settle(at: end + 1)
        #expect(rows(state, at: end + 1).map(\.trackID) == [first.trackID])
    }

    @Test func differentPlaysStaySeparateNewestFirst() {
        let a = TimelineEntry(id: "a", trackID: "t1", start: 0, duration: 10, source: .robot)
        let b = TimelineEntry(id: "b", trackID: "t2", start: 10, duration: 10, source: .robot)
        // The same track again from the top is a new play.
        let c = TimelineEntry(id: "c", trackID: "t2", start: 20, duration: 10, source: .dj)
        #expect(JustPlayed.rows(history: [a, b, c], current: nil, limit: 10).map(\.id) == ["c", "b", "a"])
        #expect(JustPlayed.rows(history: [a, b, c], current: nil, limit: 2).map(\.id) == ["c", "b"])
    }
}
