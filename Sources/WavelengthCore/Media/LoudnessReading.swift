import Foundation

/// A track's loudness as EBU R128 measures it: integrated loudness (LUFS),
/// loudness range (LU) and true peak (dBTP).
public struct LoudnessReading: Sendable, Equatable, Codable {
    public var integrated: Double
    public var range: Double
    public var truePeak: Double

    public init(integrated: Double, range: Double, truePeak: Double) {
        self.integrated = integrated
        self.range = range
        self.truePeak = truePeak
    }

    /// Reads the summary FFmpeg's `ebur128` filter prints at the end
    /// ("I: -12.4 LUFS", "LRA: 0.7 LU", "Peak: -2.4 dBFS"). Nil when there
    /// is no summary, or when it measured silence (-inf or -70 LUFS: there
    /// is no loudness to match).
    public static func parse(ebur128Output text: String) -> LoudnessReading? {
        guard let summary = text.range(of: "Summary:", options: .backwards) else { return nil }
        let tail = text[summary.upperBound...]
        func value(after label: String) -> Double? {
            guard let found = tail.range(of: label) else { return nil }
            let rest = tail[found.upperBound...].drop { $0 == " " }
            let number = rest.prefix { !$0.isWhitespace }
            return Double(number)
        }
        guard let integrated = value(after: "I:"), integrated.isFinite, integrated > -70,
            let range = value(after: "LRA:"), range.isFinite
        else { return nil }
        // A peak ffmpeg couldn't read is taken as full scale: the gain then
        // never boosts past 0 dBFS.
        let peak = value(after: "Peak:").flatMap { $0.isFinite ? $0 : nil } ?? 0
        return LoudnessReading(integrated: integrated, range: range, truePeak: peak)
    }
}
