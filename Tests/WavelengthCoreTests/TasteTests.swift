import Testing
@testable import WavelengthCore

/// The robot DJ's taste model and the picks it makes, with seeded
/// randomness and no I/O.
@Suite("Taste and the learning robot DJ")
struct TasteTests {
    let ada1 = PoolTrack(id: "a1", artist: "Ada", duration: 1000, album: "First", genre: "Folk", year: 1994)
    let ada2 = PoolTrack(id: "a2", artist: "Ada", duration: 1000, album: "Second", genre: "Folk", year: 1997)
    let bo1 = PoolTrack(id: "b1", artist: "Bo", duration: 1000, album: "Loud", genre: "Rock", year: 2011)

    @Test func featuresNameTheTrackItsArtistAlbumGenreAndDecade() {
        #expect(ada1.tasteFeatures == ["track:a1", "artist:ada", "album:ada/first", "genre:folk", "decade:1990s"])
        // Untagged tracks still have their own id.
        #expect(PoolTrack(id: "x", artist: " ", duration: 1).tasteFeatures == ["track:x"])
    }

    @Test func measuredRhythmAddsATempoBandAndAPace() {
        var track = PoolTrack(id: "r", artist: "", duration: 1, tempo: 126, onsetRate: 5.2)
        #expect(track.tasteFeatures == ["track:r", "tempo:upbeat", "pace:busy"])
        track.tempo = 72
        track.onsetRate = 0.8
        #expect(track.tasteFeatures == ["track:r", "tempo:slow", "pace:calm"])
        // No steady beat, or nonsense, is no feature.
        track.tempo = nil
        track.onsetRate = .nan
        #expect(track.tasteFeatures == ["track:r"])
        #expect(TempoBand(bpm: 89.9) == .slow)
        #expect(TempoBand(bpm: 90) == .relaxed)
        #expect(TempoBand(bpm: 135) == .fast)
        #expect(TempoBand(bpm: 0) == nil)
        #expect(Pace(onsetsPerSecond: 1.5) == .steady)
        #expect(Pace(onsetsPerSecond: -1) == nil)
    }

    @Test func measuredLoudnessAddsAnEnergyAndDynamics() {
        var track = PoolTrack(id: "l", artist: "", duration: 1, loudness: -8.5, loudnessRange: 4)
        #expect(track.tasteFeatures == ["track:l", "energy:loud", "dynamics:even"])
        track.loudness = -23
        track.loudnessRange = 18
        #expect(track.tasteFeatures == ["track:l", "energy:gentle", "dynamics:dramatic"])
        #expect(Energy(integratedLufs: -14) == .moderate)
        #expect(Energy(integratedLufs: .infinity) == nil)
        #expect(Dynamics(rangeLu: 6) == .varied)
        #expect(PickReason.explain("energy:gentle", track: track) == "Because the room liked gentle songs")
    }

    @Test func aRoomThatLikesSlowSongsHearsWhyASlowSongWasPicked() {
        let slow = PoolTrack(id: "s", artist: "", duration: 1, tempo: 70)
        #expect(PickReason.explain("tempo:slow", track: slow) == "Because the room liked slow songs")
        #expect(PickReason.explain("pace:busy", track: slow) == "Because the room liked busy songs")
    }

    @Test func aThumbUpRaisesTheArtistsOtherSongsAndADownLowersThem() {
        var taste = TasteModel()
        #expect(taste.appeal(ada2.tasteFeatures) == 0)
        taste.learn(.thumbUp, features: ada1.tasteFeatures)
        #expect(taste.appeal(ada2.tasteFeatures) > 0)  // same artist, genre and decade
        #expect(taste.appeal(bo1.tasteFeatures) == 0)  // nothing in common
        taste.learn(.thumbDown, features: bo1.tasteFeatures)
        #expect(taste.appeal(bo1.tasteFeatures) < 0)
    }

    @Test func aSkipSaysMoreThanAThumbDownAndACompletionLessThanAThumbUp() {
        var skipped = TasteModel(), disliked = TasteModel(), liked = TasteModel(), heard = TasteModel()
        skipped.learn(.skipped, features: bo1.tasteFeatures)
        disliked.learn(.thumbDown, features: bo1.tasteFeatures)
        liked.learn(.thumbUp, features: bo1.tasteFeatures)
        heard.learn(.completed, features: bo1.tasteFeatures)
        #expect(skipped.appeal(bo1.tasteFeatures) < disliked.appeal(bo1.tasteFeatures))
        #expect(heard.appeal(bo1.tasteFeatures) > 0)
        #expect(heard.appeal(bo1.tasteFeatures) < liked.appeal(bo1.tasteFeatures))
    }

    @Test func evidenceMakesBeliefsSurerButNeverCertain() {
        var taste = TasteModel()
        for _ in 0..<500 { taste.learn(.thumbUp, features: ada1.tasteFeatures) }
        let belief = taste.belief("artist:ada")
        #expect(belief.variance < TasteModel.prior.variance)
        #expect(belief.variance >= TasteModel.minimumVariance)
        #expect(belief.mean.isFinite)
        // And the room can still change its mind.
        let before = belief.mean
        for _ in 0..<50 { taste.learn(.thumbDown, features: ada1.tasteFeatures) }
        #expect(taste.belief("artist:ada").mean < before)
    }

    @Test func theModelStaysWithinItsCapacityAndReportsWhatItDropped() {
        var taste = TasteModel()
        var dropped: Set<String> = []
        for index in 0..<(TasteModel.capacity / 3) {  // four new features each
            let track = PoolTrack(
                id: "t\(index)", artist: "Artist \(index)", duration: 1, album: "Album \(index)", genre: "G\(index)",
                year: 2000)
            let change = taste.learn(.thumbUp, features: track.tasteFeatures)
            dropped.formUnion(change.removed)
            #expect(change.removed.isDisjoint(with: change.updated.keys))
        }
        #expect(taste.beliefs.count <= TasteModel.capacity)
        #expect(!dropped.isEmpty)
        #expect(dropped.isDisjoint(with: taste.beliefs.keys))
        // The shared decade, the most certain belief, is kept.
        #expect(taste.beliefs["decade:2000s"] != nil)
    }

    @Test func replayingChangesRebuildsTheModel() {
        var taste = TasteModel(), copy = TasteModel()
        copy.apply(taste.learn(.thumbUp, features: ada1.tasteFeatures))
        copy.apply(taste.learn(.skipped, features: bo1.tasteFeatures))
        #expect(copy == taste)
    }

    @Test func withNothingLearnedTheRobotPicksExactlyAsTheRandomOne() {
        let robot = RobotDJ()
        var a = SeededRandom(seed: 3), b = SeededRandom(seed: 3)
        for _ in 0..<20 {
            let chosen = robot.choose(from: Fixtures.tracks, recent: [], lastArtist: nil, taste: TasteModel(), using: &a)
            let picked = robot.pick(from: Fixtures.tracks, recent: [], lastArtist: nil, using: &b)
            #expect(chosen?.track == picked)
            #expect(chosen?.why == nil)
        }
    }

    @Test func theRobotPlaysWhatTheRoomLikedSaysWhyAndStillExplores() {
        let others = (0..<20).map { PoolTrack(id: "o\($0)", artist: "Other \($0)", duration: 1000, genre: "Noise") }
        let pool = [ada1, ada2] + others
        var taste = TasteModel()
        for _ in 0..<5 { taste.learn(.thumbUp, features: ada1.tasteFeatures) }
        for track in others.prefix(5) { taste.learn(.thumbDown, features: track.tasteFeatures) }
        var rng = SeededRandom(seed: 9)
        var adaPicks = 0, reasons: Set<String> = []
        var picked: Set<TrackID> = []
        for _ in 0..<200 {
            let chosen = RobotDJ().choose(from: pool, recent: [], lastArtist: nil, taste: taste, using: &rng)!
            picked.insert(chosen.track.id)
            if chosen.track.artist == "Ada" {
                adaPicks += 1
                if let why = chosen.why { reasons.insert(why) }
            }
        }
        // Ada is 2 of 22 tracks; liked, she gets most picks...
        #expect(adaPicks > 100)
        #expect(reasons.contains { $0.hasPrefix("Because the room liked") })
        // ...but the others still get tried.
        #expect(picked.count > 5)
    }

    @Test func theLearningDJBeatsRandomInASimulatedRoom() {
        var rng = SeededRandom(seed: 5)
        let room = RoomSimulation(shape: .init(tracks: 400, artists: 40, genres: 8, listeners: 6), using: &rng)
        var a = SeededRandom(seed: 6), b = SeededRandom(seed: 6)
        let learning = DJTrial.run(.learning, room: room, songs: 150, window: 50, using: &a)
        let random = DJTrial.run(.random, room: room, songs: 150, window: 50, using: &b)
        // After 100 songs: the target of issue 11 (`wavelength-bench dj`
        // measures it over many rooms; this is one seeded room).
        #expect(learning.upRates[2] >= 1.5 * random.upRates[2])
        // It does not collapse to a handful of songs.
        #expect(learning.distinctTracks > 50)
    }
}
