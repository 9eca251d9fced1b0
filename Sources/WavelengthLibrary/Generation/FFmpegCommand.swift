import Foundation

/// The `ffmpeg` command line tool, used only to generate music (reading uses libavformat).
package struct FFmpegCommand: Sendable {
    let executablePath: String

    /// Finds `ffmpeg` on `PATH`; `WAVELENGTH_FFMPEG` may name another binary.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(LibraryError) -> FFmpegCommand {
        if let explicit = environment["WAVELENGTH_FFMPEG"], FileManager.default.isExecutableFile(atPath: explicit) {
            return FFmpegCommand(executablePath: explicit)
        }
        let searchPath = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return FFmpegCommand(executablePath: candidate)
            }
        }
        throw .ffmpegMissing
    }

    /// Runs ffmpeg with `arguments` and waits for it without blocking a thread
    /// (see `ChildProcess`). Cancelling the calling task kills ffmpeg.
    /// Throws `.generationFailed` with ffmpeg's error output when it exits unsuccessfully.
    package func run(_ arguments: [String]) async throws {
        try Task.checkCancellation()
        let finished: ChildProcess.Finished
        do {
            // Quiet, non-interactive, overwrite: the output files are always ours to replace.
            finished = try await ChildProcess.run(
                ChildProcess.executable(atPath: executablePath),
                ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + arguments
            )
        } catch {
            try Task.checkCancellation()
            throw LibraryError.generationFailed("cannot start \(executablePath): \(error)")
        }
        try Task.checkCancellation()
        guard finished.status.isSuccess else {
            let lastLines = finished.errorTail.split(separator: "\n").suffix(5).joined(separator: "\n")
            throw LibraryError.generationFailed("ffmpeg \(finished.status): \(lastLines)")
        }
    }
}
