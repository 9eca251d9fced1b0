import WavelengthCore

/// Chromaprint's fingerprint of a file: the raw 32-bit items, one per
/// `AudioFingerprint.itemMillis`, for matching a clip from anywhere in it.
/// Fed 11,025 Hz mono (the rate Chromaprint works at) from the shared
/// decode (`TrackAnalyzer`; this is the fingerprint alone).
public enum FingerprintMeter {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable
        /// Less than three seconds of audio: too little to recognise.
        case tooShort

        public var description: String {
            switch self {
            case .unreadable: "could not read the audio for its fingerprint"
            case .tooShort: "too short to fingerprint"
            }
        }
    }

    static let sampleRate: UInt32 = 11_025

    /// The fingerprint of at most `seconds` of `path` from its start.
    public static func measure(
        path: String, seconds: Int = AudioFingerprint.longestSeconds, on lane: AnalysisLane = .onDemand
    ) async throws -> AudioFingerprint {
        let analysis = try await TrackAnalyzer.measure(
            path: path, meters: .fingerprint, fingerprintSeconds: seconds, on: lane)
        guard let fingerprint = analysis.fingerprint else { throw Failure.unreadable }
        return try fingerprint.get()
    }
}
