import Foundation
import Logging
import Subprocess
import WavelengthLibrary
import WavelengthStorage

/// Converts tracks a client cannot play into a format it can, with the
/// ffmpeg command line, and keeps the results in the cache folder.
actor Transcoder {
    enum Target: String, CaseIterable, Sendable {
        case mp3, m4a, opus

        var contentType: String {
            switch self {
            case .mp3: "audio/mpeg"
            case .m4a: "audio/mp4"
            case .opus: "audio/ogg; codecs=opus"
            }
        }

        var ffmpegArguments: [String] {
            switch self {
            case .mp3: ["-c:a", "libmp3lame", "-b:a", "192k", "-f", "mp3"]
            case .m4a: ["-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart", "-f", "mp4"]
            case .opus: ["-c:a", "libopus", "-b:a", "128k", "-f", "ogg"]
            }
        }
    }

    private let cacheDirectory: String
    private let logger: Logger
    private var inFlight: [String: Task<String, any Error>] = [:]

    init(cacheDirectory: String, logger: Logger) {
        self.cacheDirectory = cacheDirectory + "/transcoded"
        self.logger = logger
    }

    /// The path of the track in `target`'s format, transcoding it on first use.
    /// Concurrent requests for the same file share one ffmpeg run.
    func file(for track: TrackRecord, as target: Target) async throws -> String {
        let key = "\(track.id)-\(track.size)-\(track.mtimeNs).\(target.rawValue)"
        let output = cacheDirectory + "/" + key
        if FileManager.default.fileExists(atPath: output) { return output }
        if let running = inFlight[key] { return try await running.value }
        let task = Task { [cacheDirectory, logger] in
            try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
            let partial = output + ".partial"
            try await Self.runFFmpeg(["-nostdin", "-v", "error", "-y", "-i", track.path, "-vn"] + target.ffmpegArguments + [partial])
            // Rename is atomic, so a crash never leaves a half file under the real name.
            guard rename(partial, output) == 0 else { throw LibraryError.generationFailed("could not move \(partial) into the cache") }
            logger.info("Transcoded \(track.path) to \(target.rawValue)")
            return output
        }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        return try await task.value
    }

    /// ffmpeg runs as a child process watched by swift-subprocess: its error output is
    /// read while it runs and waiting for it holds no thread (see `ChildProcess`).
    private static func runFFmpeg(_ arguments: [String]) async throws {
        let finished = try await ChildProcess.run(.name("ffmpeg"), arguments)
        guard finished.status.isSuccess else {
            throw LibraryError.generationFailed("ffmpeg \(finished.status): \(finished.errorTail.suffix(300))")
        }
    }
}
