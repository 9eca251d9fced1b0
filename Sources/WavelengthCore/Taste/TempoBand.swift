/// A track's tempo as a band a listener would name. Bands, not BPM, are the
/// feature: a room that likes 124 BPM likes 120 too, and a few bands learn
/// from few thumbs. aubio sometimes hears half or double the tempo a person
/// would tap; the bands are wide enough that this mostly moves a song one
/// band, never across the range.
public enum TempoBand: String, Sendable, CaseIterable {
    case slow, relaxed, upbeat, fast

    public init?(bpm: Double) {
        guard bpm.isFinite, bpm > 0 else { return nil }
        switch bpm {
        case ..<90: self = .slow
        case ..<115: self = .relaxed
        case ..<135: self = .upbeat
        default: self = .fast
        }
    }
}

/// How busy a track is: onsets (notes and hits starting) per second. A
/// ballad with a steady 120 BPM pulse and a drum-and-bass track share a
/// tempo band but not a pace.
public enum Pace: String, Sendable, CaseIterable {
    case calm, steady, busy

    public init?(onsetsPerSecond rate: Double) {
        guard rate.isFinite, rate >= 0 else { return nil }
        switch rate {
        case ..<1.5: self = .calm
        case ..<4: self = .steady
        default: self = .busy
        }
    }
}

/// How hard a track was mastered, from its integrated loudness before any
/// gain: a modern loud master and a quiet acoustic recording feel different
/// even once they play at one level.
public enum Energy: String, Sendable, CaseIterable {
    case gentle, moderate, loud

    public init?(integratedLufs lufs: Double) {
        guard lufs.isFinite, lufs < 0 else { return nil }
        switch lufs {
        case ..<(-18): self = .gentle
        case ..<(-11): self = .moderate
        default: self = .loud
        }
    }
}

/// How much a track moves between quiet and loud (EBU R128 loudness range):
/// a compressed pop song sits near 5 LU, a classical piece past 15.
public enum Dynamics: String, Sendable, CaseIterable {
    case even, varied, dramatic

    public init?(rangeLu range: Double) {
        guard range.isFinite, range >= 0 else { return nil }
        switch range {
        case ..<6: self = .even
        case ..<12: self = .varied
        default: self = .dramatic
        }
    }
}
