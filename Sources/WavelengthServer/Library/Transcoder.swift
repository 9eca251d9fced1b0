import Foundation
import Logging
import NIOCore
import Subprocess
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// Converts tracks a client cannot play into a format it can, with the
/// ffmpeg command line, and keeps the results in the cache folder.
///
/// ffmpeg is the costliest thing a request can start, so it is shared: at
/// most one run per core at a time, given out fairly between clients (a
/// person, else an address) by a `FairQueue`, with a short bounded line
/// behind them (429 `busy` past it). The cache is kept under a size limit,
/// the least recently served files going first.
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
    /// The most bytes the cache folder may hold.
    let cacheLimit: Int64
    private var inFlight: [String: Task<String, any Error>] = [:]
    private let slots: FairSlots
    /// ffmpeg runs started, and the most ever running at once.
    private(set) var runs = 0
    private(set) var peakRunning = 0
    private var running = 0

    init(
        cacheDirectory: String, logger: Logger, cacheLimit: Int64 = 2 << 30, slots: Int = System.coreCount,
        maxWaitingPerClient: Int = 2, maxWaiting: Int = 32
    ) {
        self.cacheDirectory = cacheDirectory + "/transcoded"
        self.logger = logger
        self.cacheLimit = cacheLimit
        self.slots = FairSlots(
            slots: slots, maxWaitingPerClient: maxWaitingPerClient, maxWaiting: maxWaiting,
            busy: "The server is busy converting audio; try again in a few seconds.", retryAfterSeconds: 5)
    }

    /// Whether the track is already in the cache in `target`'s format.
    nonisolated func isCached(_ track: TrackRecord, as target: Target) -> Bool {
        FileManager.default.fileExists(atPath: cacheDirectory + "/" + Self.key(track, target))
    }

    private static func key(_ track: TrackRecord, _ target: Target) -> String {
        "\(track.id)-\(track.size)-\(track.mtimeNs).\(target.rawValue)"
    }

    /// The path of the track in `target`'s format, transcoding it on first use
    /// in `client`'s turn. Concurrent requests for the same file share one
    /// ffmpeg run.
    func file(for track: TrackRecord, as target: Target, client: String) async throws -> String {
        let key = Self.key(track, target)
        let output = cacheDirectory + "/" + key
        if FileManager.default.fileExists(atPath: output) {
            // Served now: the last to be evicted.
            utimes(output, nil)
            return output
        }
        if let running = inFlight[key] { return try await running.value }
        let task = Task { [cacheDirectory, logger, slots] in
            try await slots.run(for: client) {
                // Counted inside the slot, before it is given back.
                await self.started()
                do {
                    let path = try await Self.transcode(track, to: target, output: output, in: cacheDirectory)
                    logger.info("Transcoded \(track.path) to \(target.rawValue)")
                    await self.stopped()
                    return path
                } catch {
                    await self.stopped()
                    throw error
                }
            }
        }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        let path = try await task.value
        evictOverLimit(keeping: path)
        return path
    }

    private static func transcode(_ track: TrackRecord, to target: Target, output: String, in cacheDirectory: String)
        async throws -> String
    {
        try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        let partial = output + ".partial"
        try await runFFmpeg(["-nostdin", "-v", "error", "-y", "-i", track.path, "-vn"] + target.ffmpegArguments + [partial])
        // Rename is atomic, so a crash never leaves a half file under the real name.
        guard rename(partial, output) == 0 else {
            throw LibraryError.generationFailed("could not move \(partial) into the cache")
        }
        return output
    }

    private func started() {
        runs += 1
        running += 1
        peakRunning = max(peakRunning, running)
    }

    private func stopped() {
        running -= 1
    }

    // MARK: The cache

    /// Deletes the least recently served files until the cache is within
    /// its limit (to 90 % of it, so it doesn't trim on every transcode).
    private func evictOverLimit(keeping newest: String) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: cacheDirectory) else { return }
        var files: [(path: String, size: Int64, used: Date)] = []
        for name in names where !name.hasSuffix(".partial") {
            let path = cacheDirectory + "/" + name
            guard let attributes = try? manager.attributesOfItem(atPath: path) else { continue }
            files.append(
                (path, (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                 attributes[.modificationDate] as? Date ?? .distantPast))
        }
        var total = files.reduce(0) { $0 + $1.size }
        guard total > cacheLimit else { return }
        for file in files.sorted(by: { $0.used < $1.used }) where file.path != newest {
            guard total > cacheLimit / 10 * 9 else { break }
            if (try? manager.removeItem(atPath: file.path)) != nil {
                total -= file.size
                logger.info("Transcode cache over its limit: removed \(file.path)")
            }
        }
    }

    /// The bytes the cache holds now.
    func cacheSize() -> Int64 {
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: cacheDirectory)) ?? []
        return names.reduce(0) { total, name in
            let size = (try? manager.attributesOfItem(atPath: cacheDirectory + "/" + name))?[.size] as? NSNumber
            return total + (size?.int64Value ?? 0)
        }
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
