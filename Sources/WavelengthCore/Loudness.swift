import Foundation

/// Every track plays at one loudness (issue 11, section 6): the gain that
/// brings a track's integrated loudness to the station's target, but never
/// so much that its true peak would pass −1 dBTP (no clipping), and never
/// more than `boostLimit` up or `cutLimit` down.
public enum Loudness {
    /// Streaming services' common target, and the default per station.
    public static let defaultTarget: Double = -14
    /// Headroom kept under full scale after the gain.
    public static let peakCeiling: Double = -1
    public static let boostLimit: Double = 12
    public static let cutLimit: Double = -24

    /// The gain in dB for a track measured at `integrated` LUFS with its
    /// true peak at `truePeak` dBTP; 0 when it was never measured.
    public static func gainDb(integrated: Double?, truePeak: Double?, target: Double = defaultTarget) -> Double {
        guard let integrated, integrated.isFinite else { return 0 }
        var gain = target - integrated
        if let truePeak, truePeak.isFinite { gain = min(gain, peakCeiling - truePeak) }
        return min(boostLimit, max(cutLimit, gain))
    }

    /// The same gain as a linear factor for audio samples.
    public static func factor(db: Double) -> Double {
        pow(10, db / 20)
    }
}
