/// What the background analysis learns about one file: its loudness (for
/// the gain every track plays at) and its rhythm (for the robot DJ). Either
/// is nil when that meter couldn't read the file.
public struct AudioFeatures: Sendable, Equatable, Codable {
    public var loudness: LoudnessReading?
    public var rhythm: RhythmReading?
    /// Chromaprint's fingerprint, for "what's this song?".
    public var fingerprint: AudioFingerprint?

    public init(loudness: LoudnessReading? = nil, rhythm: RhythmReading? = nil, fingerprint: AudioFingerprint? = nil) {
        self.loudness = loudness
        self.rhythm = rhythm
        self.fingerprint = fingerprint
    }
}
