import Foundation
import Logging
import ServiceLifecycle
import WavelengthCore
import WavelengthLibrary
import WavelengthStore
import WavelengthWire

/// Measures every track in the background after the scan: its loudness
/// (EBU R128), so each plays at one loudness (`TrackSummary.gainDb`), its
/// rhythm (aubio's tempo and onset rate), which the robot DJ learns from,
/// and its fingerprint, for "what's this song?".
///
/// Each file is decoded once, in process, and that decode feeds every meter
/// (`TrackAnalyzer`). Files are measured side by side, one per lane (a
/// dedicated thread each, at most two), so a 2-core machine keeps up with a
/// real collection; it holds no thread of the cooperative pool while it
/// waits, so playback and requests still get theirs. Incremental like the scan: a track is measured once, and
/// again only after a scan rewrote its row (the file changed). A reading
/// that can't be taken is left nil and not tried again. It stops when the
/// server stops. Public for `wavelength-bench analysis`, which times it.
public actor AudioAnalysis: Service {
    private let store: any AnalysisRepository
    private let roots: LibraryRoots
    private let clock: any ServerClock
    private let logger: Logger
    private let enabled: Bool
    /// The threads files are measured on, one file each at a time.
    private let lanes: [AnalysisLane]
    /// Called after each batch is saved, so the robot's cached pool picks
    /// up the new features.
    private let analyzed: @Sendable () async -> Void
    private var running = false
    /// New tracks arrived while a run was going: it goes round once more.
    private var again = false
    private var measuredThisRun = 0
    private var failedThisRun = 0

    public init(
        store: any AnalysisRepository, roots: LibraryRoots, clock: any ServerClock, logger: Logger, enabled: Bool,
        lanes: Int = AudioAnalysis.defaultLanes, analyzed: @escaping @Sendable () async -> Void = {}
    ) {
        self.lanes = (0..<max(1, lanes)).map { AnalysisLane(label: "wavelength.analysis.\($0)") }
        self.store = store
        self.roots = roots
        self.clock = clock
        self.logger = logger
        self.enabled = enabled
        self.analyzed = analyzed
    }

    /// Two lanes on two cores or more: the decode and the meters are one
    /// thread's work per file, and more lanes would take playback's cores.
    public static var defaultLanes: Int { min(2, ProcessInfo.processInfo.activeProcessorCount) }

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
        again = true
        while again, !Task.isCancelled {
            again = false
            await analyzeWaiting()
        }
        if measuredThisRun + failedThisRun > 0 {
            let seconds = Double(clock.now() - started) / 1000
            logger.info(
                "Audio analysed for \(measuredThisRun) tracks (\(failedThisRun) unmeasurable) in \(String(format: "%.1f", seconds)) s")
        }
    }

    /// A rescan added or changed tracks: they are measured, by the run
    /// going on or by a new one.
    func wake() {
        guard enabled else { return }
        if running {
            again = true
        } else {
            running = true
            Task { await analyzeAll() }
        }
    }

    private func analyzeWaiting() async {
        while !Task.isCancelled {
            let batch: [TrackRecord]
            do {
                batch = try await store.tracksToAnalyze(limit: 32)
            } catch {
                logger.error("Audio analysis stopped: \(error)")
                return
            }
            guard !batch.isEmpty else { break }
            await analyzeSideBySide(batch)
            await analyzed()
        }
    }

    /// The batch, one file per lane at a time; a lane takes the next file
    /// as soon as it is free.
    private func analyzeSideBySide(_ batch: [TrackRecord]) async {
        var waiting = batch[...]
        await withTaskGroup(of: AnalysisLane.self) { group in
            for lane in lanes {
                guard let track = waiting.popFirst() else { break }
                group.addTask { await self.analyze(track, on: lane); return lane }
            }
            for await lane in group {
                guard !Task.isCancelled, let track = waiting.popFirst() else { continue }
                group.addTask { await self.analyze(track, on: lane); return lane }
            }
        }
    }

    private func analyze(_ track: TrackRecord, on lane: AnalysisLane) async {
        var features = AudioFeatures()
        // Only files inside the library's roots are read (a link out of
        // the library is marked unmeasurable, never followed).
        if let path = roots.confine(track.path) {
            guard let analysis = try? await TrackAnalyzer.measure(path: path, on: lane) else { return }  // cancelled
            features.loudness = reading(analysis.loudness, of: "Loudness", track)
            features.rhythm = reading(analysis.rhythm, of: "Rhythm", track)
            features.fingerprint = reading(analysis.fingerprint, of: "Fingerprint", track)
        }
        if Task.isCancelled { return }
        do {
            try await store.saveAnalysis(trackID: track.id, features: features, at: clock.now())
            if features.loudness == nil && features.rhythm == nil { failedThisRun += 1 } else { measuredThisRun += 1 }
        } catch {
            logger.error("Could not save the analysis of \(track.id): \(error)")
        }
    }

    /// A meter's reading, or nil with the reason logged once, with the path.
    private func reading<Reading>(_ result: Result<Reading, any Error>?, of meter: String, _ track: TrackRecord) -> Reading? {
        switch result {
        case .success(let reading): return reading
        case .failure(let error):
            logger.notice("\(meter) of \(track.path): \(error)")
            return nil
        case nil: return nil
        }
    }
}
