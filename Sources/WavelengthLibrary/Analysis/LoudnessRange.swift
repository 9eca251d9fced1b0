import Foundation

/// EBU Tech 3342's loudness range (LRA) from the short-term (3 s)
/// loudness taken every 100 ms, computed as FFmpeg's `ebur128` filter does
/// (the measurement the library used before): gated at -70 LUFS and 20 LU
/// below the mean of what passes, then the spread from the 10th to the 95th
/// percentile. libebur128's own LRA takes a short-term value only every
/// second, which moves a song's range by up to 0.2 LU against FFmpeg's.
enum LoudnessRange {
    /// Short-term values: one a 100 ms block once the first 3 s are in,
    /// each the mean energy of the last 30 blocks.
    struct ShortTerm {
        private var recent = RecentBlocks(count: 30)
        private(set) var energies: [Double] = []

        /// The energy (mean square, K-weighted, channels summed) of the
        /// latest 100 ms block.
        mutating func add(blockEnergy: Double) {
            if let mean = recent.add(blockEnergy) { energies.append(mean) }
        }
    }

    static func loudness(energy: Double) -> Double { -0.691 + 10 * log10(energy) }

    /// The range in LU, 0 when nothing passes the gates.
    static func of(shortTermEnergies energies: [Double]) -> Double {
        let audible = energies.filter { loudness(energy: $0) >= -70 }
        guard !audible.isEmpty else { return 0 }
        let threshold = loudness(energy: audible.reduce(0, +) / Double(audible.count)) - 20
        let gated = audible.map(loudness(energy:)).filter { $0 >= threshold }.sorted()
        guard !gated.isEmpty else { return 0 }
        let count = Double(gated.count)
        // FFmpeg's percentile positions: the value where the running count
        // reaches 10 % from below, and where it drops under 95 % from above.
        let low = gated[max(0, Int((0.10 * count).rounded()) - 1)]
        let high = gated[min(gated.count - 1, max(0, Int((0.95 * count).rounded()) - 1))]
        return high - low
    }
}

/// The last `count` 100 ms blocks' energies: a window sliding a block at a
/// time (3 s short-term loudness, 400 ms gating blocks).
struct RecentBlocks {
    let count: Int
    private var blocks: [Double] = []
    private var next = 0

    init(count: Int) {
        self.count = count
    }

    /// Adds the latest block; the window's mean energy once it is full.
    mutating func add(_ energy: Double) -> Double? {
        if blocks.count < count {
            blocks.append(energy)
        } else {
            blocks[next] = energy
            next = (next + 1) % count
        }
        return blocks.count == count ? blocks.reduce(0, +) / Double(count) : nil
    }
}
