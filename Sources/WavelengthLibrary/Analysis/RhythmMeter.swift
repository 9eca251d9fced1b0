import CAubio
import WavelengthCore

/// Measures a track's tempo and onset rate with aubio, in-process, from the
/// shared decode (`TrackAnalyzer`; this is the rhythm alone).
public enum RhythmMeter {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The file could not be opened or decoded.
        case unreadable
        /// Less than a second of audio: too little to hear a rhythm in.
        case tooShort

        public var description: String {
            switch self {
            case .unreadable: "could not read the audio for its rhythm"
            case .tooShort: "too short to measure a rhythm"
            }
        }
    }

    /// Beat and onset detection need no more than this; the decode is
    /// resampled to it for aubio, which halves the detectors' work at CD rate.
    static let sampleRate: UInt32 = 22_050
    /// aubio's defaults for both detectors are a 1024-sample window read 512
    /// at a time at 44.1 kHz; half of each at half the rate keeps the same
    /// 23 ms and 12 ms (its onset detector misses most clicks otherwise).
    static let window: UInt32 = 512
    static let hop: UInt32 = 256
    /// The first three minutes say what a song's rhythm is; aubio isn't fed
    /// the rest of a two-hour DJ mix.
    static let longestAnalysedSeconds = 180
    /// Below this, aubio's beat tracker is guessing (it reports a tempo for
    /// noise too).
    static let leastTempoConfidence: Float = 0.1

    public static func measure(path: String, on lane: AnalysisLane = .onDemand) async throws -> RhythmReading {
        _ = aubioSilenced
        let analysis = try await TrackAnalyzer.measure(path: path, meters: .rhythm, on: lane)
        guard let rhythm = analysis.rhythm else { throw Failure.unreadable }
        return try rhythm.get()
    }

    /// aubio prints its failures to standard error itself; the caller logs
    /// a failure once, with the path, instead. Evaluated once, thread-safely.
    static let aubioSilenced: Void = {
        for level in [AUBIO_LOG_ERR, AUBIO_LOG_WRN] {
            _ = aubio_log_set_level_function(sint_t(level.rawValue), { _, _, _ in }, nil)
        }
    }()
}
