import Testing
@testable import WavelengthCore

@Suite("Timeline edits")
struct TimelineTests {
    let t0: EpochMillis = 1_000_000

    @Test func appendPlacesEntriesBackToBack() throws {
        let timeline = try Fixtures.threeEntries(start: t0)
        #expect(timeline.entries.map(\.start) == [t0, t0 + 100_000, t0 + 300_000])
        #expect(timeline.entries[0].expiration == t0 + 100_000)
        #expect(timeline.isConsistent)
    }

    @Test func currentIsDerivedFromTheClock() throws {
        let timeline = try Fixtures.threeEntries(start: t0)
        #expect(timeline.current(at: t0)?.id == "e1")
        #expect(timeline.current(at: t0 + 99_999)?.id == "e1")
        #expect(timeline.current(at: t0 + 100_000)?.id == "e2")
        #expect(timeline.current(at: t0 + 450_000) == nil)
        #expect(timeline.current(at: t0 - 1) == nil)
        #expect(timeline.upcoming(at: t0 + 50_000).map(\.id) == ["e2", "e3"])
    }

    @Test func appendToAnEmptyTimelineStartsNow() throws {
        var timeline = Timeline()
        try timeline.append(Fixtures.entry("e1", "t4"), at: 42)
        #expect(timeline.entries.first?.start == 42)
    }

    @Test func insertNextGoesAfterCurrentAndEarlierDJPicks() throws {
        var timeline = try Fixtures.threeEntries(start: t0)
        let now = t0 + 10_000
        try timeline.insertNext(Fixtures.entry("a", "t4"), at: now)
        try timeline.insertNext(Fixtures.entry("b", "t5"), at: now)
        #expect(timeline.entries.map(\.id) == ["e1", "a", "b", "e2", "e3"])
        #expect(timeline.entries[1].start == t0 + 100_000)
        #expect(timeline.entries[2].start == t0 + 220_000)
        #expect(timeline.entries[3].start == t0 + 310_000)
        #expect(timeline.isConsistent)
    }

    @Test func insertNextOnAnEmptyTimelineStartsNow() throws {
        var timeline = Timeline()
        try timeline.insertNext(Fixtures.entry("a", "t4"), at: 7)
        #expect(timeline.entries.map(\.start) == [7])
    }

    @Test func removeMovesLaterEntriesEarlier() throws {
        var timeline = try Fixtures.threeEntries(start: t0)
        let removed = try timeline.remove("e2", at: t0 + 1)
        #expect(removed.id == "e2")
        #expect(timeline.entries.map(\.id) == ["e1", "e3"])
        #expect(timeline.entries[1].start == t0 + 100_000)
        #expect(timeline.isConsistent)
    }

    @Test func removeRefusesThePlayingEntryAndUnknownIds() throws {
        var timeline = try Fixtures.threeEntries(start: t0)
        #expect(throws: TimelineError.entryIsPlaying("e1")) { try timeline.remove("e1", at: t0 + 5) }
        #expect(throws: TimelineError.unknownEntry("nope")) { try timeline.remove("nope", at: t0 + 5) }
        #expect(throws: TimelineError.alreadyPlayed("e1")) { try timeline.remove("e1", at: t0 + 100_000) }
        #expect(timeline == (try Fixtures.threeEntries(start: t0)))
    }

    @Test func skipCutsCurrentAtNowAndPullsTheRestForward() throws {
        var timeline = try Fixtures.threeEntries(start: t0)
        let now = t0 + 30_000
        let cut = try timeline.skip(at: now)
        #expect(cut.id == "e1")
        #expect(cut.duration == 30_000)
        #expect(cut.expiration == now)
        #expect(timeline.entries.map(\.id) == ["e2", "e3"])
        #expect(timeline.entries.map(\.start) == [now, now + 200_000])
        #expect(timeline.current(at: now)?.id == "e2")
    }

    @Test func skipChecksTheExpectedEntry() throws {
        var timeline = try Fixtures.threeEntries(start: t0)
        #expect(throws: TimelineError.notCurrent(expected: "e2")) {
            try timeline.skip(expected: "e2", at: t0 + 1)
        }
        _ = try timeline.skip(expected: "e1", at: t0 + 1)
        var empty = Timeline()
        #expect(throws: TimelineError.nothingPlaying) { try empty.skip(at: 0) }
    }

    @Test func moveReordersUpcomingEntries() throws {
        var timeline = try Fixtures.threeEntries(start: t0)
        try timeline.append(Fixtures.entry("e4", "t4"), at: t0)
        try timeline.move("e4", toIndex: 0, at: t0 + 1)
        #expect(timeline.entries.map(\.id) == ["e1", "e4", "e2", "e3"])
        #expect(timeline.entries[1].start == t0 + 100_000)
        #expect(timeline.isConsistent)
        try timeline.move("e4", toIndex: 2, at: t0 + 1)
        #expect(timeline.entries.map(\.id) == ["e1", "e2", "e3", "e4"])
        #expect(timeline.isConsistent)
    }

    @Test func moveRefusesBadTargets() throws {
        var timeline = try Fixtures.threeEntries(start: t0)
        #expect(throws: TimelineError.indexOutOfRange(2, count: 2)) { try timeline.move("e2", toIndex: 2, at: t0) }
        #expect(throws: TimelineError.indexOutOfRange(-1, count: 2)) { try timeline.move("e2", toIndex: -1, at: t0) }
        #expect(throws: TimelineError.entryIsPlaying("e1")) { try timeline.move("e1", toIndex: 0, at: t0) }
        #expect(throws: TimelineError.unknownEntry("x")) { try timeline.move("x", toIndex: 0, at: t0) }
    }

    @Test func pruneHandsOverExpiredEntries() throws {
        var timeline = try Fixtures.threeEntries(start: t0)
        let expired = timeline.prune(at: t0 + 300_000)
        #expect(expired.map(\.id) == ["e1", "e2"])
        #expect(timeline.entries.map(\.id) == ["e3"])
    }

    @Test func upcomingIsBounded() throws {
        var timeline = Timeline()
        for i in 0..<Timeline.maximumUpcoming + 1 {
            try timeline.append(Fixtures.entry("e\(i)", "t5"), at: 0)
        }
        #expect(throws: TimelineError.timelineFull(limit: Timeline.maximumUpcoming)) {
            try timeline.append(Fixtures.entry("x", "t5"), at: 0)
        }
    }

    @Test func everyEditKeepsTheTimelineConsistent() throws {
        var rng = SeededRandom(seed: 7)
        var timeline = Timeline()
        var now: EpochMillis = 0
        for step in 0..<2_000 {
            now += Int64.random(in: 0..<60_000, using: &rng)
            _ = timeline.prune(at: now)
            let track = Fixtures.tracks.randomElement(using: &rng)!
            let upcoming = timeline.upcoming(at: now)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: try? timeline.append(Fixtures.entry("a\(step)", track.id), at: now)
            case 1: try? timeline.insertNext(Fixtures.entry("n\(step)", track.id), at: now)
            case 2: if let e = upcoming.randomElement(using: &rng) { _ = try timeline.remove(e.id, at: now) }
            case 3: if timeline.current(at: now) != nil { _ = try timeline.skip(at: now) }
            default:
                if let e = upcoming.randomElement(using: &rng) {
                    try timeline.move(e.id, toIndex: Int.random(in: 0..<upcoming.count, using: &rng), at: now)
                }
            }
            #expect(timeline.isConsistent, "step \(step)")
            if let first = timeline.entries.first { #expect(first.start <= now || timeline.current(at: now) == nil) }
        }
    }
}

@Suite("Skip with a lead")
struct SkipLeadTests {
    @Test func theCutLandsLeadMillisecondsAheadAndTheRestFollows() throws {
        let t0: EpochMillis = 1_000_000
        var timeline = try Fixtures.threeEntries(start: t0)
        let cut = try timeline.skip(at: t0 + 10_000, lead: 300)
        #expect(cut.id == "e1")
        #expect(cut.expiration == t0 + 10_300)
        // Still playing until the cut, then e2 starts exactly there.
        #expect(timeline.current(at: t0 + 10_299)?.id == "e1")
        #expect(timeline.current(at: t0 + 10_300)?.id == "e2")
        #expect(timeline.isConsistent)
    }

    @Test func aLeadPastTheEndChangesNothingButTheRevision() throws {
        let t0: EpochMillis = 1_000_000
        var timeline = try Fixtures.threeEntries(start: t0)
        let cut = try timeline.skip(at: t0 + 99_900, lead: 300)
        #expect(cut.expiration == t0 + 100_000)
        #expect(timeline.entries[1].start == t0 + 100_000)
    }
}
