import Foundation
import Subprocess
import WavelengthServer

/// Audio made by real FFmpeg for upload tests: a tone of some length in
/// some format, as bytes.
enum TestAudio {
    /// `seconds` of a 440 Hz tone (quiet, so loudness has work to do) in
    /// `format`: "webm" (Opus, as a browser's MediaRecorder makes), "wav", "mp3".
    static func tone(seconds: Double, format: String = "webm") async throws -> Data {
        let path = NSTemporaryDirectory() + "wavelength-tone-\(UUID().uuidString).\(format)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let codec: [String] =
            switch format {
            case "webm": ["-c:a", "libopus", "-b:a", "48k"]
            case "mp3": ["-c:a", "libmp3lame", "-b:a", "64k"]
            default: []
            }
        let made = try await Subprocess.run(
            .name("ffmpeg"),
            arguments: Arguments(
                [
                    "-nostdin", "-hide_banner", "-loglevel", "error", "-f", "lavfi",
                    "-i", "sine=frequency=440:duration=\(seconds)", "-af", "volume=0.05", "-ac", "1", "-ar", "48000",
                ] + codec + [path]), output: .discarded, error: .discarded)
        guard made.terminationStatus.isSuccess else { throw TestFailure("ffmpeg could not make a tone") }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// A ZIP archive's first bytes, then noise: not audio, whatever its name.
    static let zip = Data([0x50, 0x4B, 0x03, 0x04] + (0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 37) })
}
