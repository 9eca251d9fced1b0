import Testing
@testable import WavelengthCore

/// A live source taking over the timeline, and giving it back.
@Suite("Station state: live shows")
struct StationStateLiveTests {
    let t0: EpochMillis = 10_000_000
    let host = LiveTrack.id(stationID: "s", personID: "p1")

    func filled() -> StationState {
        var state = StationState(id: "s", quietSince: nil)
        var rng = SeededRandom(seed: 1)
        _ = state.fill(at: t0, robot: RobotDJ(), pool: Fixtures.tracks, fallback: [], artistOf: Fixtures.artist, using: &rng)
        return state
    }

    func live(_ id: EntryID = "live-1", trackID: TrackID? = nil) -> TimelineEntry {
        TimelineEntry(id: id, trackID: trackID ?? host, start: 0, duration: 1, source: .robot, why: "Late Jazz")
    }

    @Test func aSourceCutsInLikeASkipAndTheSongsWaitBehindIt() throws {
        var state = filled()
        let playing = try #require(state.timeline.current(at: t0 + 5_000))
        let waiting = state.timeline.upcoming(at: t0 + 5_000).map(\.id)
        let outcome = state.goLive(live(), at: t0 + 5_000, lead: 300)
        #expect(outcome.changed)
        // The song plays on for the lead, then the show starts.
        #expect(state.timeline.current(at: t0 + 5_000)?.id == playing.id)
        let show = try #require(state.timeline.current(at: t0 + 5_300))
        #expect(show.source == .live && show.why == "Late Jazz" && show.start == t0 + 5_300)
        #expect(show.duration == StationState.liveLength)
        #expect(state.timeline.upcoming(at: t0 + 5_300).map(\.id) == waiting)
        #expect(state.timeline.isConsistent)
        #expect(state.liveEntry(at: t0 + 5_000)?.id == "live-1")
    }

    @Test func aDroppedSourceHasAGraceThenTheRobotsSongsPlay() throws {
        var state = filled()
        _ = state.goLive(live(), at: t0, lead: 0)
        let next = try #require(state.timeline.upcoming(at: t0).first)
        let left = state.liveLeft(trackID: host, at: t0 + 60_000, grace: 20_000)
        #expect(left.changed)
        #expect(state.timeline.current(at: t0 + 79_999)?.source == .live)
        #expect(state.timeline.current(at: t0 + 80_000)?.id == next.id)
        #expect(state.timeline.isConsistent)
        // After the grace the show is history, with its real length.
        let settled = state.settle(at: t0 + 80_000)
        #expect(settled.played.map(\.duration) == [80_000])
        #expect(state.liveEntry(at: t0 + 80_000) == nil)
    }

    @Test func theSameSourceBackWithinTheGraceCarriesOnInItsEntry() throws {
        var state = filled()
        _ = state.goLive(live(), at: t0, lead: 0)
        _ = state.liveLeft(trackID: host, at: t0 + 60_000, grace: 20_000)
        _ = state.goLive(live("live-2"), at: t0 + 70_000, lead: 300)
        let show = try #require(state.timeline.current(at: t0 + 90_000))
        #expect(show.id == "live-1")
        #expect(show.expiration == t0 + 70_000 + StationState.liveLength)
        #expect(state.timeline.isConsistent)
    }

    /// A marathon: the source still on after most of a day is scheduled on
    /// for another day, and the robot's songs wait behind it; a renewal for
    /// a show no longer on the schedule changes nothing.
    @Test func aShowLongerThanADayIsScheduledOnWhileItsSourceStays() throws {
        var state = filled()
        _ = state.goLive(live(), at: t0, lead: 0)
        let next = try #require(state.timeline.upcoming(at: t0).first)
        let halfDay: Int64 = 12 * 3_600_000
        let renewed = state.renewLive(trackID: host, at: t0 + halfDay)
        #expect(renewed.changed)
        let show = try #require(state.liveEntry(at: t0 + halfDay))
        #expect(show.expiration == t0 + halfDay + StationState.liveLength)
        // Past the first day's end, the show is still on the air.
        #expect(state.timeline.current(at: t0 + StationState.liveLength + 1)?.id == show.id)
        #expect(state.timeline.upcoming(at: t0 + halfDay).first?.id == next.id)
        #expect(state.timeline.isConsistent)
        // Renewed again within the same instant: nothing to move.
        #expect(!state.renewLive(trackID: host, at: t0 + halfDay).changed)
        // Another person's renewal, or one after the show left: no change.
        #expect(!state.renewLive(trackID: LiveTrack.id(stationID: "s", personID: "p2"), at: t0 + halfDay + 1).changed)
        _ = state.liveLeft(trackID: host, at: t0 + halfDay + 10, grace: 0)
        _ = state.settle(at: t0 + halfDay + 20)
        #expect(!state.renewLive(trackID: host, at: t0 + halfDay + 30).changed)
        #expect(state.liveEntry(at: t0 + halfDay + 30) == nil)
    }

    @Test func anotherPersonsSourceEndsTheShowAndStartsTheirs() throws {
        var state = filled()
        _ = state.goLive(live(), at: t0, lead: 0)
        _ = state.liveLeft(trackID: host, at: t0 + 60_000, grace: 20_000)
        let other = LiveTrack.id(stationID: "s", personID: "p2")
        let outcome = state.goLive(live("live-2", trackID: other), at: t0 + 70_000, lead: 0)
        #expect(outcome.played.map(\.id) == ["live-1"])
        #expect(state.timeline.current(at: t0 + 70_000)?.id == "live-2")
        // The first person's late "left" changes nothing.
        #expect(!state.liveLeft(trackID: host, at: t0 + 71_000, grace: 20_000).changed)
    }

    @Test func aLiveShowEndsAPauseAndCantBePausedOrSeeked() throws {
        var state = filled()
        var rng = SeededRandom(seed: 3)
        _ = try state.apply(.pause, at: t0 + 1_000, track: Fixtures.track, using: &rng)
        _ = state.goLive(live(), at: t0 + 5_000, lead: 0)
        #expect(state.pausedAt == nil)
        #expect(state.timeline.current(at: t0 + 5_000)?.source == .live)
        #expect(throws: TimelineError.live) { try state.apply(.pause, at: t0 + 6_000, track: Fixtures.track, using: &rng) }
        #expect(throws: TimelineError.live) {
            try state.apply(.seek(positionMs: 0), at: t0 + 6_000, track: Fixtures.track, using: &rng)
        }
        // A DJ may still take it off the air with a skip.
        _ = try state.apply(.skip(entryID: nil), at: t0 + 7_000, track: Fixtures.track, using: &rng)
        #expect(state.liveEntry(at: t0 + 7_000) == nil)
    }

    @Test func liveTrackIDsNameTheStationAndThePerson() {
        #expect(LiveTrack.parse(LiveTrack.id(stationID: "st", personID: "p:1"))! == ("st", "p:1"))
        #expect(LiveTrack.parse("t1") == nil)
        #expect(LiveTrack.parse("live::p") == nil)
    }
}
