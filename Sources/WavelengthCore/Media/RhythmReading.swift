/// A track's rhythm as aubio hears it: its tempo, when it has a steady
/// beat, and how busy it is (onsets, the starts of notes and hits, per
/// second).
public struct RhythmReading: Sendable, Equatable, Codable {
    /// Beats per minute; nil when aubio found no beat it trusts (a drone,
    /// speech, a free-time piece).
    public var tempo: Double?
    /// Onsets per second over the part that was analysed.
    public var onsetRate: Double

    public init(tempo: Double?, onsetRate: Double) {
        self.tempo = tempo
        self.onsetRate = onsetRate
    }
}
