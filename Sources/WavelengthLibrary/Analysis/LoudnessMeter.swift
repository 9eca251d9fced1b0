import WavelengthCore

/// Measures a file's loudness (EBU R128: integrated loudness, loudness
/// range and true peak) with libebur128, in process, from one decode of the
/// whole file. The background analysis measures it together with the other
/// meters (`TrackAnalyzer`); this is the loudness alone.
public enum LoudnessMeter {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The file could not be decoded, or it is silence.
        case unmeasurable(String)

        public var description: String {
            switch self {
            case .unmeasurable(let why): "could not measure loudness: \(why)"
            }
        }
    }

    public static func measure(path: String, on lane: AnalysisLane = .onDemand) async throws -> LoudnessReading {
        let analysis = try await TrackAnalyzer.measure(path: path, meters: .loudness, on: lane)
        guard let loudness = analysis.loudness else { throw Failure.unmeasurable("not measured") }
        return try loudness.get()
    }
}
