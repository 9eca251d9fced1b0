import Foundation
import WavelengthCore

/// A file's loudness as FFmpeg's `ebur128` filter measures it, in a child
/// process: how loudness was measured before the one-decode analysis, kept
/// as the reference that `LoudnessMeter` is checked against (by the tests
/// and `wavelength-bench analysis`). The server doesn't use it.
public enum FFmpegLoudnessReference {
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
            throw LoudnessMeter.Failure.unmeasurable(String(finished.errorTail.suffix(200)))
        }
        guard let reading = LoudnessReading.parse(ebur128Output: finished.errorTail) else {
            throw LoudnessMeter.Failure.unmeasurable("no loudness in ffmpeg's summary (silence?)")
        }
        return reading
    }
}
