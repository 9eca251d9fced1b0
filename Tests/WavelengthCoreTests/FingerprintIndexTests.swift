import Testing

@testable import WavelengthCore

/// Matching a clip's fingerprint against the library's, with no audio:
/// fingerprints are random items, clips are slices with bits flipped.
@Suite("Fingerprint index")
struct FingerprintIndexTests {
    static func randomPrint(_ count: Int, using rng: inout SeededRandom) -> AudioFingerprint {
        AudioFingerprint(items: (0..<count).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) })
    }

    /// A slice of `print` with `flips` random bits changed in each item.
    static func clip(of print: AudioFingerprint, from start: Int, count: Int, flips: Int, using rng: inout SeededRandom)
        -> AudioFingerprint
    {
        AudioFingerprint(
            items: print.items[start..<(start + count)].map { item in
                var item = item
                for _ in 0..<flips { item ^= 1 << UInt32.random(in: 0..<32, using: &rng) }
                return item
            })
    }

    @Test func aCleanSliceIsFoundWithItsOffset() {
        var rng = SeededRandom(seed: 1)
        let prints = (0..<200).map { ("t\($0)", Self.randomPrint(1_500, using: &rng)) }
        let index = FingerprintIndex(prints)
        let clip = Self.clip(of: prints[42].1, from: 500, count: 97, flips: 0, using: &rng)
        let match = index.match(clip)
        #expect(match?.trackID == "t42")
        #expect(match?.similarity == 1)
        #expect(match?.offsetMillis.map { abs(Double($0) - 500 * AudioFingerprint.itemMillis) < 1 } == true)
    }

    /// A track that loops (a chorus, the demo's melodies) fits a clip at
    /// each repeat as well: the song is named, its place is not guessed.
    /// Before, the answer was whichever repeat had most votes, and clips
    /// 5 s apart came back 26, 17, 10, 3 s in.
    @Test func aClipOfALoopNamesTheSongButNotAPlace() {
        var rng = SeededRandom(seed: 4)
        let loop = Self.randomPrint(100, using: &rng).items
        var prints = (0..<50).map { ("t\($0)", Self.randomPrint(1_500, using: &rng)) }
        prints.append(("looping", AudioFingerprint(items: Array((0..<12).map { _ in loop }.joined()))))
        let index = FingerprintIndex(prints)
        let clip = Self.clip(of: prints[50].1, from: 430, count: 80, flips: 0, using: &rng)
        let match = index.match(clip)
        #expect(match?.trackID == "looping")
        #expect(match != nil && match?.offsetMillis == nil)
        // The same index places a clip of a track that doesn't repeat.
        let once = Self.clip(of: prints[9].1, from: 300, count: 80, flips: 0, using: &rng)
        #expect(index.match(once)?.offsetMillis.map { abs(Double($0) - 300 * AudioFingerprint.itemMillis) < 1 } == true)
    }

    /// Noise changes bits; some items survive whole and find the track,
    /// and the whole overlap still agrees far more than chance.
    @Test func aNoisySliceIsFound() {
        var rng = SeededRandom(seed: 2)
        let prints = (0..<200).map { ("t\($0)", Self.randomPrint(1_500, using: &rng)) }
        let index = FingerprintIndex(prints)
        var clip = Self.clip(of: prints[7].1, from: 1_000, count: 97, flips: 2, using: &rng)
        // Half the items come through untouched, as under real noise (at
        // every residue of the index's stride, as random survivors would be).
        for position in Swift.stride(from: 0, to: 97, by: 2) { clip.items[position] = prints[7].1.items[1_000 + position] }
        let match = index.match(clip)
        #expect(match?.trackID == "t7")
        #expect((match?.similarity ?? 0) > 0.9)
    }

    @Test func musicNotInTheLibraryIsNotFound() {
        var rng = SeededRandom(seed: 3)
        let index = FingerprintIndex((0..<200).map { ("t\($0)", Self.randomPrint(1_500, using: &rng)) })
        #expect(index.match(Self.randomPrint(97, using: &rng)) == nil)
        // Too short to say.
        #expect(index.match(AudioFingerprint(items: [1, 2, 3])) == nil)
        #expect(FingerprintIndex().match(Self.randomPrint(97, using: &rng)) == nil)
    }

    @Test func fingerprintsRoundTripThroughBytes() {
        let print = AudioFingerprint(items: [0, 1, 0xDEAD_BEEF, UInt32.max])
        #expect(AudioFingerprint(bytes: print.bytes) == print)
        #expect(AudioFingerprint(bytes: [1, 2, 3]) == nil)
    }
}
