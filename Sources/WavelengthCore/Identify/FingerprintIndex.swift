/// Finds which library track a clip comes from, and where in it.
///
/// Candidates come from an inverted index of the tracks' fingerprint items:
/// each clip item that appears exactly in a track votes for the offset
/// between the two (track position minus clip position). A few offsets get
/// most votes; each is then checked by its bit error rate over the whole
/// overlap, which tolerates noise that changes many items by a bit or two.
/// (AcoustID's server matches the same way, at a larger scale.)
public struct FingerprintIndex: Sendable {
    public struct Match: Sendable, Equatable {
        public var trackID: TrackID
        /// Where in the track the clip starts; nil when it fits another
        /// place in the track as well (a chorus that comes back, a loop):
        /// the song is known, the place is not, and a guess would mislead.
        public var offsetMillis: Int64?
        /// The share of bits that agree over the overlap (1 is identical).
        public var similarity: Double
    }

    /// Index entries sorted by item: item << 32 | track << 12 | position.
    private var entries: [UInt64] = []
    private var tracks: [TrackID] = []
    private var prints: [[UInt32]] = []
    /// Only this many items of a track are indexed (and so matched): 4,096
    /// items, 8.5 minutes, fit the position's 12 bits.
    static let indexedItems = 4_096
    /// Every `stride`-th item of a track is indexed; the clip's every item is
    /// looked up, so each true alignment still gets a vote every `stride`
    /// items, at a third of the memory.
    static let stride = 3
    /// How many of the offsets with the most votes are checked bit by bit.
    static let candidates = 8
    /// An alignment whose bits agree at least this much is the song; random
    /// audio agrees about half the time.
    public static let threshold = 0.65
    /// Alignments this many items apart (about 1 s) are the same place.
    static let samePlace = 8
    /// Another place in the track that agrees within this much of the best
    /// makes the place unknown: a true alignment beats a chance one by far
    /// more (0.8–0.95 against about 0.5), a repeat by far less.
    static let placeMargin = 0.05
    /// The fewest items of overlap a match needs (about 4 s).
    static let leastOverlap = 32

    public init() {}

    public var count: Int { tracks.count }

    /// Builds the index over every track at once.
    public init(_ fingerprints: [(TrackID, AudioFingerprint)]) {
        precondition(fingerprints.count < 1 << 20, "the index holds at most 1,048,575 tracks")
        var entries: [UInt64] = []
        entries.reserveCapacity(fingerprints.reduce(0) { $0 + min($1.1.items.count, Self.indexedItems) / Self.stride + 1 })
        for (index, (id, print)) in fingerprints.enumerated() {
            tracks.append(id)
            let items = Array(print.items.prefix(Self.indexedItems))
            prints.append(items)
            for position in Swift.stride(from: 0, to: items.count, by: Self.stride) {
                entries.append(UInt64(items[position]) << 32 | UInt64(index) << 12 | UInt64(position))
            }
        }
        entries.sort()
        self.entries = entries
    }

    /// The track the clip comes from, or nil when none agrees enough.
    public func match(_ clip: AudioFingerprint) -> Match? {
        guard !entries.isEmpty, clip.items.count >= Self.leastOverlap else { return nil }
        var votes: [Int64: Int] = [:]
        for (clipPosition, item) in clip.items.enumerated() {
            var low = lowerBound(UInt64(item) << 32)
            while low < entries.count, entries[low] >> 32 == UInt64(item) {
                let entry = entries[low]
                let track = Int64(entry >> 12 & 0xFFFFF)
                let offset = Int64(entry & 0xFFF) - Int64(clipPosition)
                votes[track << 16 | (offset + 0x8000), default: 0] += 1
                low += 1
            }
        }
        let checked = votes.sorted { $0.value > $1.value }.prefix(Self.candidates).map { key, _ in
            let track = Int(key >> 16), offset = Int(key & 0xFFFF) - 0x8000
            return (track: track, offset: offset, similarity: Self.similarity(clip.items, prints[track], offset: offset))
        }
        guard let best = checked.max(by: { $0.similarity < $1.similarity }), best.similarity >= Self.threshold else { return nil }
        let elsewhere = checked.contains { other in
            other.track == best.track && abs(other.offset - best.offset) > Self.samePlace
                && other.similarity >= best.similarity - Self.placeMargin
        }
        return Match(
            trackID: tracks[best.track],
            offsetMillis: elsewhere ? nil : Int64((Double(max(0, best.offset)) * AudioFingerprint.itemMillis).rounded()),
            similarity: best.similarity)
    }

    /// The share of agreeing bits between the clip and the track placed
    /// `offset` items in; 0 when they overlap too little.
    static func similarity(_ clip: [UInt32], _ track: [UInt32], offset: Int) -> Double {
        let start = max(0, -offset)
        let end = min(clip.count, track.count - offset)
        guard end - start >= leastOverlap else { return 0 }
        var differing = 0
        for position in start..<end {
            differing += (clip[position] ^ track[position + offset]).nonzeroBitCount
        }
        return 1 - Double(differing) / Double((end - start) * 32)
    }

    private func lowerBound(_ key: UInt64) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
