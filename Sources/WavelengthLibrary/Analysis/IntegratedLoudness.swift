import Foundation

/// BS.1770's gated integrated loudness from the 100 ms blocks the loudness
/// meter already reads, as libebur128 computes it: a 400 ms gating block
/// every 100 ms (the mean of the last four), those under -70 LUFS dropped,
/// then those 10 LU under the mean of the rest, and the mean of what stays.
///
/// libebur128 would sum each 400 ms of samples again for every block, four
/// times the samples the K-weighting filter reads, a quarter of the whole
/// analysis; the sums of the 100 ms blocks give the same blocks.
struct IntegratedLoudness {
    private var recent = RecentBlocks(count: 4)
    /// The gating blocks that pass the absolute gate (-70 LUFS).
    private(set) var audibleBlocks: [Double] = []

    static let absoluteGate = pow(10, (-70 + 0.691) / 10)

    /// The energy (mean square, K-weighted, channels summed) of the latest
    /// 100 ms block.
    mutating func add(blockEnergy: Double) {
        guard let block = recent.add(blockEnergy) else { return }
        if block >= Self.absoluteGate { audibleBlocks.append(block) }
    }

    /// LUFS; -infinity when nothing passes the gates.
    var loudness: Double {
        guard !audibleBlocks.isEmpty else { return -.infinity }
        let threshold = audibleBlocks.reduce(0, +) / Double(audibleBlocks.count) * pow(10, -10.0 / 10)
        let gated = audibleBlocks.filter { $0 >= threshold }
        guard !gated.isEmpty else { return -.infinity }
        return LoudnessRange.loudness(energy: gated.reduce(0, +) / Double(gated.count))
    }
}
