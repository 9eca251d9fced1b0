import Logging
import ServiceLifecycle
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// Measures every track's loudness (EBU R128) in the background after the
/// scan, so each plays at one loudness (`TrackSummary.gainDb`).
///
/// One file at a time, through FFmpeg's `ebur128` filter in a child process:
/// it never takes more than one core from playback, and it holds no thread
/// while it waits. Incremental like the scan: a track is measured once, and
/// again only after a scan rewrote its row (the file changed). A file that
/// can't be measured is marked and left alone. It stops when the server
/// stops.
actor LoudnessAnalysis: Service {
    private let store: any LoudnessRepository
    private let roots: LibraryRoots
    private let clock: any ServerClock
    private let logger: Logger
    private let enabled: Bool
    private var running = false
    private var measuredThisRun = 0
    private var failedThisRun = 0

    init(store: any LoudnessRepository, roots: LibraryRoots, clock: any ServerClock, logger: Logger, enabled: Bool) {
        self.store = store
        self.roots = roots
        self.clock = clock
        self.logger = logger
        self.enabled = enabled
    }

    func run() async throws {
        if enabled {
            await cancelWhenGracefulShutdown { await self.analyzeAll() }
        }
        try? await gracefulShutdown()
    }

    /// Where the analysis stands, for `GET /api/library/analysis`.
    func progress() async throws -> AnalysisProgress {
        let counts = try await store.analysisCounts()
        return AnalysisProgress(analyzed: counts.analyzed, total: counts.total, running: running)
    }

    /// Measures every track that waits, oldest first.
    func analyzeAll() async {
        running = true
        defer { running = false }
        let started = clock.now()
        while !Task.isCancelled {
            let batch: [TrackRecord]
            do {
                batch = try await store.tracksToAnalyze(limit: 32)
            } catch {
                logger.error("Loudness analysis stopped: \(error)")
                return
            }
            guard !batch.isEmpty else { break }
            for track in batch where !Task.isCancelled {
                await analyze(track)
            }
        }
        if measuredThisRun + failedThisRun > 0 {
            let seconds = Double(clock.now() - started) / 1000
            logger.info(
                "Loudness measured for \(measuredThisRun) tracks (\(failedThisRun) unmeasurable) in \(String(format: "%.1f", seconds)) s")
        }
    }

    private func analyze(_ track: TrackRecord) async {
        var reading: LoudnessReading?
        // Only files inside the library's roots are read (a link out of
        // the library is marked unmeasurable, never followed).
        if let path = roots.confine(track.path) {
            do {
                reading = try await LoudnessMeter.measure(path: path)
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                logger.notice("Loudness of \(track.path): \(error)")
            }
        }
        if Task.isCancelled { return }
        do {
            try await store.saveLoudness(trackID: track.id, reading: reading, at: clock.now())
            if reading == nil { failedThisRun += 1 } else { measuredThisRun += 1 }
        } catch {
            logger.error("Could not save the loudness of \(track.id): \(error)")
        }
    }
}
