import WavelengthCore

/// What one decode of a file measured: each meter's reading, or why that
/// meter couldn't take it (each meter's own `Failure`), or nil when it
/// wasn't asked for.
public struct TrackAnalysis: Sendable {
    public var loudness: Result<LoudnessReading, any Error>?
    public var rhythm: Result<RhythmReading, any Error>?
    public var fingerprint: Result<AudioFingerprint, any Error>?

    public init(
        loudness: Result<LoudnessReading, any Error>? = nil, rhythm: Result<RhythmReading, any Error>? = nil,
        fingerprint: Result<AudioFingerprint, any Error>? = nil
    ) {
        self.loudness = loudness
        self.rhythm = rhythm
        self.fingerprint = fingerprint
    }
}

/// Which meters one decode feeds.
public struct AnalysisMeters: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let loudness = AnalysisMeters(rawValue: 1 << 0)
    public static let rhythm = AnalysisMeters(rawValue: 1 << 1)
    public static let fingerprint = AnalysisMeters(rawValue: 1 << 2)
    public static let all: AnalysisMeters = [.loudness, .rhythm, .fingerprint]
}
