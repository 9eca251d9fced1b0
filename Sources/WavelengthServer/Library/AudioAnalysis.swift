import Logging
import ServiceLifecycle
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// Measures every track in the background after the scan: its loudness
/// (EBU R128), so each plays at one loudness (`TrackSummary.gainDb`), and
/// its rhythm (aubio's tempo and onset rate), which the robot DJ learns
/// from.
///
/// One file at a time: loudness through FFmpeg's `ebur128` filter in a child
/// process, rhythm through aubio on its own thread. It never takes more than
/// one core from playback, and it holds no thread of the cooperative pool
/// while it waits. Incremental like the scan: a track is measured once, and
/// again only after a scan rewrote its row (the file changed). A reading
/// that can't be taken is left nil and not tried again. It stops when the
/// server stops. Public for `wavelength-bench analysis`, which times it.
public actor AudioAnalysis: Service {
    private let store: any AnalysisRepository
    private let roots: LibraryRoots
    private let clock: any ServerClock
    private let logger: Logger
    private let enabled: Bool
    /// Called after each batch is saved, so the robot's cached pool picks
    /// up the new features.
    private let analyzed: @Sendable () async -> Void
    private var running = false
    private var measuredThisRun = 0
    private var failedThisRun = 0

    public init(
        store: any AnalysisRepository, roots: LibraryRoots, clock: any ServerClock, logger: Logger, enabled: Bool,
        analyzed: @escaping @Sendable () async -> Void = {}
    ) {
        self.store = store
        self.roots = roots
        self.clock = clock
        self.logger = logger
        self.enabled = enabled
        self.analyzed = analyzed
    }

    public func run() async throws {
        if enabled {
            await cancelWhenGracefulShutdown { await self.analyzeAll() }
        }
        try? await gracefulShutdown()
    }

    /// Where the analysis stands, for `GET /api/library/analysis`.
    public func progress() async throws -> AnalysisProgress {
        let counts = try await store.analysisCounts()
        return AnalysisProgress(analyzed: counts.analyzed, total: counts.total, running: running)
    }

    /// Measures every track that waits, oldest first.
    public func analyzeAll() async {
        running = true
        defer { running = false }
        let started = clock.now()
        while !Task.isCancelled {
            let batch: [TrackRecord]
            do {
                batch = try await store.tracksToAnalyze(limit: 32)
            } catch {
                logger.error("Audio analysis stopped: \(error)")
                return
            }
            guard !batch.isEmpty else { break }
            for track in batch where !Task.isCancelled {
                await analyze(track)
            }
            await analyzed()
        }
        if measuredThisRun + failedThisRun > 0 {
            let seconds = Double(clock.now() - started) / 1000
            logger.info(
                "Audio analysed for \(measuredThisRun) tracks (\(failedThisRun) unmeasurable) in \(String(format: "%.1f", seconds)) s")
        }
    }

    private func analyze(_ track: TrackRecord) async {
        var features = AudioFeatures()
        // Only files inside the library's roots are read (a link out of
        // the library is marked unmeasurable, never followed).
        if let path = roots.confine(track.path) {
            do {
                features.loudness = try await LoudnessMeter.measure(path: path)
            } catch {
                if Task.isCancelled { return }
                logger.notice("Loudness of \(track.path): \(error)")
            }
            do {
                features.rhythm = try await RhythmMeter.measure(path: path)
            } catch {
                if Task.isCancelled { return }
                logger.notice("Rhythm of \(track.path): \(error)")
            }
            do {
                features.fingerprint = try await FingerprintMeter.measure(path: path)
            } catch {
                if Task.isCancelled { return }
                logger.notice("Fingerprint of \(track.path): \(error)")
            }
        }
        if Task.isCancelled { return }
        do {
            try await store.saveAnalysis(trackID: track.id, features: features, at: clock.now())
            if features.loudness == nil && features.rhythm == nil { failedThisRun += 1 } else { measuredThisRun += 1 }
        } catch {
            logger.error("Could not save the analysis of \(track.id): \(error)")
        }
    }
}
