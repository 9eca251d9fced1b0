import Testing
@testable import WavelengthCore

/// Item-to-item co-likes: counting them from liked songs, and how a
/// co-liked track borrows the room's liking for its seed. No I/O.
@Suite("Co-likes")
struct CoLikeTests {
    let ada = PoolTrack(id: "a1", artist: "Ada", duration: 1000, genre: "Folk")
    let bo = PoolTrack(id: "b1", artist: "Bo", duration: 1000, genre: "Rock")
    let cy = PoolTrack(id: "c1", artist: "Cy", duration: 1000, genre: "Jazz")

    @Test func eachTrackGetsTheSeedMostOfItsSaversShareAndSeedsAreLeftOut() {
        let fans: [(person: String, seed: TrackID)] = [("p1", "a1"), ("p2", "a1"), ("p3", "a1"), ("p3", "z1")]
        let savedBy: [String: [TrackID]] = [
            "p1": ["a1", "b1", "c1"],
            "p2": ["a1", "b1", "b1"],  // a duplicate row counts once
            "p3": ["a1", "z1", "c1"],
        ]
        let counted = CoLikeTally.count(
            fans: fans, savedBy: savedBy, titles: ["a1": "Ada's Song", "z1": "Zed"], limit: 10)
        #expect(Set(counted.keys) == ["b1", "c1"])  // the seeds a1 and z1 are not co-likes of each other
        #expect(counted["b1"] == CoLike(seed: "a1", seedTitle: "Ada's Song", people: 2))
        // c1: two savers of a1 (p1, p3) and one of z1 (p3).
        #expect(counted["c1"] == CoLike(seed: "a1", seedTitle: "Ada's Song", people: 2))
        // The limit keeps the most shared, the lower id on a tie.
        #expect(Set(CoLikeTally.count(fans: fans, savedBy: savedBy, titles: [:], limit: 1).keys) == ["b1"])
        #expect(CoLikeTally.count(fans: [], savedBy: savedBy, titles: [:], limit: 10).isEmpty)
    }

    @Test func aCoLikedTrackBorrowsTheRoomsLikingForItsSeed() {
        var taste = TasteModel()
        for _ in 0..<5 { taste.learn(.thumbUp, features: ada.tasteFeatures) }
        #expect(taste.favouriteTracks(limit: 5) == ["a1"])
        #expect(taste.appeal(bo.tasteFeatures) == 0)  // nothing in common with Ada
        let marked = [ada, bo, cy].markingCoLikes(["b1": CoLike(seed: "a1", seedTitle: "Ada's Song", people: 3)])
        let coLikedBo = marked[1]
        #expect(coLikedBo.tasteFeatures.contains("track:a1"))
        #expect(taste.appeal(coLikedBo.tasteFeatures) > 0)
        #expect(marked[0] == ada && marked[2] == cy)
        #expect(
            PickReason.explain(taste.strongestLiked(coLikedBo.tasteFeatures), track: coLikedBo)
                == "Because people who like “Ada's Song” like it too")
        // A seed is never its own co-like.
        #expect([ada].markingCoLikes(["a1": CoLike(seed: "a1", seedTitle: "", people: 1)])[0].coLikedWith == nil)
    }

    @Test func theRobotPrefersWhatFansOfTheRoomsFavouriteSaved() {
        var taste = TasteModel()
        for _ in 0..<5 { taste.learn(.thumbUp, features: ada.tasteFeatures) }
        let pool = [bo, cy].markingCoLikes(["c1": CoLike(seed: "a1", seedTitle: "Ada's Song", people: 4)])
        let robot = RobotDJ(explorationRate: 0)
        var rng = SeededRandom(seed: 7)
        var picks: [TrackID: Int] = [:]
        for _ in 0..<200 {
            let pick = robot.choose(from: pool, recent: [], lastArtist: nil, taste: taste, using: &rng)
            picks[pick?.track.id ?? "-", default: 0] += 1
        }
        #expect(picks["c1", default: 0] > picks["b1", default: 0] + 20, "\(picks)")
    }

    @Test func favouritesAreTheSongsTheRoomLikedMostAndOnlyLikedOnes() {
        var taste = TasteModel()
        for _ in 0..<6 { taste.learn(.thumbUp, features: ada.tasteFeatures) }
        taste.learn(.thumbUp, features: bo.tasteFeatures)
        for _ in 0..<3 { taste.learn(.thumbDown, features: cy.tasteFeatures) }
        #expect(taste.favouriteTracks(limit: 10) == ["a1", "b1"])
        #expect(taste.favouriteTracks(limit: 1) == ["a1"])
        #expect(TasteModel().favouriteTracks(limit: 10).isEmpty)
    }
}
