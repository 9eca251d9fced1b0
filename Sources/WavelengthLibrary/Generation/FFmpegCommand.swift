import Foundation

/// The `ffmpeg` command line tool, used only to generate music (reading uses libavformat).
struct FFmpegCommand: Sendable {
    let executablePath: String

    /// Finds `ffmpeg` on `PATH`; `WAVELENGTH_FFMPEG` may name another binary.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(LibraryError) -> FFmpegCommand {
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

    /// Runs ffmpeg with `arguments` and waits for it without blocking a thread.
    /// Throws `.generationFailed` with ffmpeg's error output when it exits unsuccessfully.
    func run(_ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath)
        // Quiet, non-interactive, overwrite: the output files are always ours to replace.
        process.arguments = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        // Error text goes to a file rather than a pipe: a pipe must be drained while the
        // process runs or a chatty ffmpeg would block on a full buffer.
        let errorLog = FileManager.default.temporaryDirectory
            .appendingPathComponent("wavelength-ffmpeg-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: errorLog.path, contents: nil),
              let errorHandle = try? FileHandle(forWritingTo: errorLog)
        else { throw LibraryError.generationFailed("cannot create a temporary file for ffmpeg's output") }
        defer {
            try? errorHandle.close()
            try? FileManager.default.removeItem(at: errorLog)
        }
        process.standardError = errorHandle

        try Task.checkCancellation()
        let status = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
                process.terminationHandler = { finished in
                    continuation.resume(returning: finished.terminationStatus)
                }
                do {
                    try ProcessLauncher.run(process)
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: LibraryError.generationFailed("cannot start \(executablePath): \(error)"))
                }
            }
        } onCancel: {
            // terminate() on a process that never started is a crash (or a signal to our own
            // process group), so only stop one that is running.
            if process.isRunning { process.terminate() }
        }
        try Task.checkCancellation()
        guard status == 0 else {
            let output = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            let lastLines = output.split(separator: "\n").suffix(5).joined(separator: "\n")
            throw LibraryError.generationFailed("ffmpeg exited with status \(status): \(lastLines)")
        }
    }
}
