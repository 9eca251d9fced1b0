import Foundation

/// Measures a file's loudness with FFmpeg's `ebur128` filter (EBU R128:
/// integrated loudness, loudness range and true peak), run as a child
/// process through `ChildProcess`, which waits without holding a thread.
public enum LoudnessMeter {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// FFmpeg could not read the file, or measured silence.
        case unmeasurable(String)

        public var description: String {
            switch self {
            case .unmeasurable(let why): "could not measure loudness: \(why)"
            }
        }
    }

    public static func measure(path: String) async throws -> LoudnessReading {
        // The per-frame log goes to the verbose level, so only the summary
        // reaches standard error; its last 4 KiB hold it whole.
        try Task.checkCancellation()
        let finished = try await ChildProcess.run(
            ChildProcess.executable(atPath: try FFmpegCommand.locate().executablePath),
            ["-hide_banner", "-nostdin", "-nostats", "-i", path, "-vn", "-af", "ebur128=peak=true:framelog=verbose",
             "-f", "null", "-"],
            errorBytes: 4096)
        try Task.checkCancellation()
        guard finished.status.isSuccess else {
            throw Failure.unmeasurable(String(finished.errorTail.suffix(200)))
        }
        guard let reading = LoudnessReading.parse(ebur128Output: finished.errorTail) else {
            throw Failure.unmeasurable("no loudness in ffmpeg's summary (silence?)")
        }
        return reading
    }
}
