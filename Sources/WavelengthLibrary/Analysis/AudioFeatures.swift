/// What the background analysis learns about one file: its loudness (for
/// the gain every track plays at) and its rhythm (for the robot DJ). Either
/// is nil when that meter couldn't read the file.
public struct AudioFeatures: Sendable, Equatable, Codable {
    public var loudness: LoudnessReading?
    public var rhythm: RhythmReading?

    public init(loudness: LoudnessReading? = nil, rhythm: RhythmReading? = nil) {
        self.loudness = loudness
        self.rhythm = rhythm
    }
}
