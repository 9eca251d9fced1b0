import Testing
@testable import WavelengthCore

@Suite("Robot DJ")
struct RobotDJTests {
    let robot = RobotDJ(horizon: 30 * 60 * 1000, minimumUpcoming: 3, repeatWindow: 20)

    @Test func picksAreRepeatableWithTheSameSeed() {
        var a = SeededRandom(seed: 1)
        var b = SeededRandom(seed: 1)
        let first = (0..<10).map { _ in robot.pick(from: Fixtures.tracks, recent: [], lastArtist: nil, using: &a)?.id }
        let second = (0..<10).map { _ in robot.pick(from: Fixtures.tracks, recent: [], lastArtist: nil, using: &b)?.id }
        #expect(first == second)
    }

    @Test func noTrackRepeatsWithinTheWindow() {
        var rng = SeededRandom(seed: 3)
        var recent: [TrackID] = []
        for _ in 0..<200 {
            let pick = robot.pick(from: Fixtures.tracks, recent: recent, lastArtist: nil, using: &rng)!
            // The window is the pool size minus one, so the last 4 plays are never repeated.
            #expect(!recent.suffix(4).contains(pick.id))
            recent.append(pick.id)
        }
    }

    @Test func sameArtistIsNotPlayedBackToBackWhenThePoolAllows() {
        var rng = SeededRandom(seed: 5)
        var last: String? = nil
        for _ in 0..<200 {
            let pick = robot.pick(from: Fixtures.tracks, recent: [], lastArtist: last, using: &rng)!
            #expect(pick.artist != last)
            last = pick.artist
        }
    }

    @Test func aOneArtistPoolStillPlays() {
        var rng = SeededRandom(seed: 5)
        let pool = Array(Fixtures.tracks.prefix(2))  // both by Ada
        let pick = robot.pick(from: pool, recent: ["t1"], lastArtist: "Ada", using: &rng)
        #expect(pick?.id == "t2")
    }

    @Test func emptyPoolPicksNothingAndFallsBack() {
        var rng = SeededRandom(seed: 5)
        #expect(robot.pick(from: [], recent: [], lastArtist: nil, using: &rng) == nil)
        #expect(robot.effectivePool([], fallback: Fixtures.tracks) == Fixtures.tracks)
        let subset = [Fixtures.tracks[0]]
        #expect(robot.effectivePool(subset, fallback: Fixtures.tracks) == subset)
    }

    @Test func tracksWithoutDurationAreNeverPicked() {
        var rng = SeededRandom(seed: 9)
        let pool = [PoolTrack(id: "z", artist: "Z", duration: 0)]
        #expect(robot.pick(from: pool, recent: [], lastArtist: nil, using: &rng) == nil)
    }

    @Test func needsFillUntilTheHorizon() throws {
        var timeline = Timeline()
        #expect(robot.needsFill(timeline, at: 0))
        for (i, id) in ["t1", "t2", "t3"].enumerated() {
            try timeline.append(Fixtures.entry("e\(i)", id), at: 0)
        }
        // One playing and two upcoming: still short of three upcoming.
        #expect(robot.needsFill(timeline, at: 1))
        try timeline.append(Fixtures.entry("e4", "t4"), at: 0)
        #expect(!robot.needsFill(timeline, at: 1))
        // A long track alone reaches the time horizon.
        var long = Timeline()
        try long.append(TimelineEntry(id: "l", trackID: "x", start: 0, duration: 31 * 60 * 1000, source: .dj), at: 0)
        #expect(!robot.needsFill(long, at: 0))
    }
}

@Suite("Frequency dial")
struct FrequencyDialTests {
    @Test func bandLooksLikeFM() {
        #expect(FrequencyDial.band.first == "87.5")
        #expect(FrequencyDial.band.last == "107.9")
        #expect(FrequencyDial.band.count == 103)
        #expect(FrequencyDial.band.allSatisfy(FrequencyDial.isWellFormed))
    }

    @Test func theBandHasTwentyThousandDistinctCodesThatNeverEndInZero() {
        let band = FrequencyBand.fm
        #expect(band.tiers.map(\.count) == [103, 205, 1_640, 18_450])
        let all = band.tiers.flatMap { $0 }
        #expect(Set(all).count == 20_398)
        #expect(all.allSatisfy(FrequencyDial.isWellFormed))
        #expect(all.allSatisfy { !$0.hasSuffix("0") })
        #expect(band.tiers[1].first == "87.55" && band.tiers[2].first == "87.51" && band.tiers[3].last == "107.999")
    }

    @Test func pickPrefersTheClassicChannelsThenFinerSteps() {
        var rng = SeededRandom(seed: 1)
        let band = FrequencyBand.fm
        #expect(band.tiers[0].contains(band.pick(using: &rng, takenAmong: { _ in [] })!))
        // The classic channels and half channels taken: a hundredth.
        let taken = Set(band.tiers[0] + band.tiers[1])
        let code = band.pick(using: &rng, takenAmong: { taken.intersection($0) })!
        #expect(!taken.contains(code))
        #expect(code.split(separator: ".")[1].count == 2)
        // Only the last code free: probing gives up, the full search finds it.
        let last = band.tiers[3].last!
        let full = { (codes: [String]) in Set(codes).subtracting([last]) }
        #expect(band.pick(using: &rng, takenAmong: full) == nil)
        #expect(band.firstFree(takenAmong: full) == last)
        #expect(band.firstFree(takenAmong: { Set($0) }) == nil)
    }

    @Test func pickAsksAboutAFewCodesNotTheWholeBand() {
        var rng = SeededRandom(seed: 2)
        let band = FrequencyBand.fm
        // The first three tiers full and the last half full.
        let busy = Set(band.tiers[0] + band.tiers[1] + band.tiers[2] + band.tiers[3].enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element))
        var queries = 0
        var asked = 0
        let code = band.pick(
            using: &rng,
            takenAmong: {
                queries += 1
                asked += $0.count
                return busy.intersection($0)
            })
        #expect(code != nil && !busy.contains(code!))
        #expect(queries == 4)
        #expect(asked == 103 + 205 + 2 * FrequencyBand.probes)
    }

    @Test func wellFormedRejectsJunk() {
        for junk in ["", "107", "1073.", ".5", "abc.d", "107.3333", "1077.333", "<script>", "10 7.3"] {
            #expect(!FrequencyDial.isWellFormed(junk))
        }
        #expect(FrequencyDial.isWellFormed("107.3"))
        #expect(FrequencyDial.isWellFormed("98.35"))
        #expect(FrequencyDial.isWellFormed("98.357"))
    }
}
