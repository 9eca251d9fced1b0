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
    /// The targets a station may choose: EBU R128 broadcast (−23) to loud.
    public static let targetRange: ClosedRange<Double> = -24 ... -8
    /// The quietest a track is ever played, target and level together.
    static let floor: Double = -60

    /// The gain in dB for a track measured at `integrated` LUFS with its
    /// true peak at `truePeak` dBTP; 0 when it was never measured.
    public static func gainDb(integrated: Double?, truePeak: Double?, target: Double = defaultTarget) -> Double {
        guard let integrated, integrated.isFinite else { return 0 }
        var gain = target - integrated
        if let truePeak, truePeak.isFinite { gain = min(gain, peakCeiling - truePeak) }
        return min(boostLimit, max(cutLimit, gain))
    }

    /// The most gain a track with its true peak at `truePeak` takes before
    /// it would pass the ceiling; nil when never measured.
    public static func headroomDb(truePeak: Double?) -> Double? {
        guard let truePeak, truePeak.isFinite else { return nil }
        return peakCeiling - truePeak
    }

    /// What a player applies to a track: its gain at the default target
    /// moved by `offset` (the station's target and level), still never past
    /// its headroom. A track never measured is never boosted, since its
    /// peak is unknown.
    public static func playbackGain(trackGain: Double?, headroom: Double?, offset: Double) -> Double {
        guard let trackGain, trackGain.isFinite else { return max(floor, min(0, offset)) }
        var gain = trackGain + offset
        if let headroom, headroom.isFinite { gain = min(gain, headroom) }
        return max(floor, min(boostLimit, gain))
    }

    /// The same gain as a linear factor for audio samples.
    public static func factor(db: Double) -> Double {
        pow(10, db / 20)
    }
}
