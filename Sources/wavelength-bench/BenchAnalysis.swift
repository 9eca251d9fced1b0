import ArgumentParser
import Foundation
import Logging
import WavelengthLibrary
import WavelengthTestSupport
import WavelengthServer
import WavelengthSQLite

/// Generates a library of song-length tracks, scans it into a real SQLite
/// index, then runs the server's background audio analysis over it to the
/// end, as the server does (one decode per file feeding every meter, files
/// side by side on its lanes), and prints tracks per second. A sample is
/// then timed through one lane: the decode with all meters, and with each
/// meter alone, to show where the time goes. `--compare` prints each
/// reading next to how it was measured before (FFmpeg's ebur128 filter,
/// aubio's own source).
struct BenchAnalysis: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analysis",
        abstract: "Audio analysis throughput (one decode: EBU R128 loudness, aubio rhythm, Chromaprint fingerprint).")

    @Option(help: "How many tracks to generate and analyse.")
    var count: Int = 100

    @Option(help: "Each track's length in seconds (a song is about 180).")
    var seconds: Int = 180

    @Option(help: "How many tracks to time through each meter alone.")
    var sample: Int = 10

    @Option(help: "Files analysed side by side (the server's default: one per core, at most 2).")
    var lanes: Int = AudioAnalysis.defaultLanes

    @Flag(help: "Also compare the readings with the old way (ffmpeg CLI loudness, aubio-source rhythm and fingerprint) on the demo library and one bench track.")
    var compare = false

    func validate() throws {
        guard (1...100_000).contains(count) else { throw ValidationError("--count must be 1…100000") }
        guard (5...3_600).contains(seconds) else { throw ValidationError("--seconds must be 5…3600") }
        guard (0...1_000).contains(sample) else { throw ValidationError("--sample must be 0…1000") }
        guard (1...16).contains(lanes) else { throw ValidationError("--lanes must be 1…16") }
    }

    func run() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = folder + "/library"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let generateStart = Date()
        try await SyntheticLibrary.generate(count: count, in: library, seconds: seconds)
        print("generated \(count) tracks of \(seconds) s in \(format(Date().timeIntervalSince(generateStart))) s")

        let database = try AppDatabase.open(path: folder + "/bench.sqlite")
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        _ = try await LibraryScanner(index: database, logger: logger).scan(roots: [library])

        let analysis = AudioAnalysis(
            store: database, roots: LibraryRoots([library]), clock: SystemClock(), logger: logger, enabled: true,
            lanes: lanes)
        let started = Date()
        let cpuBefore = processCPUSeconds()
        await analysis.analyzeAll()
        let elapsed = Date().timeIntervalSince(started)
        let cpu = processCPUSeconds() - cpuBefore
        let progress = try await analysis.progress()
        let audioSeconds = Double(progress.analyzed * seconds)
        print(
            "analysed \(progress.analyzed)/\(progress.total) tracks in \(format(elapsed)) s = "
                + "\(String(format: "%.2f", Double(progress.analyzed) / elapsed)) tracks/s "
                + "(\(String(format: "%.0f", audioSeconds / elapsed))× real time, \(lanes) file(s) at a time)")
        // The machine may be shared: CPU time per track says what the
        // analysis costs whatever else runs, and so what idle cores would do.
        let cpuPerTrack = cpu / Double(max(1, progress.analyzed))
        print(
            "  CPU \(format(cpuPerTrack)) s per track = \(String(format: "%.2f", Double(lanes) / cpuPerTrack)) tracks/s "
                + "on \(lanes) idle core(s)")
        let tracks = try await database.tracks(artist: nil, album: nil, limit: 100_000, offset: 0)
        let unmeasured = tracks.filter { $0.loudness == nil || $0.onsetRate == nil }.count
        let tempos = tracks.compactMap(\.tempo)
        print("  unmeasured: \(unmeasured); tempo found for \(tempos.count) (the clip is 120 BPM; median \(median(tempos)))")

        if compare {
            let demo = try await DemoLibrary.ensure(in: folder)
            try await AnalysisComparison.print(paths: AnalysisComparison.audioFiles(in: demo) + [tracks[0].path])
        }
        guard sample > 0 else { return }
        let paths = Array(tracks.prefix(sample).map(\.path))
        let lane = AnalysisLane(label: "bench")
        let all = try await timed(paths) { _ = try await TrackAnalyzer.measure(path: $0, on: lane) }
        let loudness = try await timed(paths) { _ = try await LoudnessMeter.measure(path: $0, on: lane) }
        let rhythm = try await timed(paths) { _ = try await RhythmMeter.measure(path: $0, on: lane) }
        let fingerprint = try await timed(paths) { _ = try await FingerprintMeter.measure(path: $0, on: lane) }
        // The way it was before: three decodes, loudness in an ffmpeg child process.
        let old = try await timed(paths) { path in
            _ = try await FFmpegLoudnessReference.measure(path: path)
            _ = await AnalysisComparison.offPool {
                (AubioSourceReference.rhythm(path: path), AubioSourceReference.fingerprint(path: path))
            }
        }
        print(
            "  per track on one lane, over \(paths.count), wall s (CPU s): one decode feeding all \(all); "
                + "each meter alone with its decode: loudness (libebur128 + true peak) \(loudness), "
                + "rhythm (aubio) \(rhythm), fingerprint (chromaprint) \(fingerprint); "
                + "the old three decodes (ffmpeg CLI + aubio source ×2) \(old)")
    }

    /// Seconds per track, on the clock and in CPU time (with child processes').
    struct PerTrack: CustomStringConvertible {
        var wall: Double
        var cpu: Double
        var description: String { "\(format(wall)) (\(format(cpu)))" }
    }

    /// User and system CPU seconds this process has used, every thread,
    /// and with `children`, its finished child processes' too.
    private func processCPUSeconds(children: Bool = false) -> Double {
        func seconds(_ who: Int32) -> Double {
            var usage = rusage()
            #if os(Linux)
                getrusage(__rusage_who_t(who), &usage)
            #else
                getrusage(who, &usage)
            #endif
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
        }
        #if os(Linux)
            let (own, theirs) = (RUSAGE_SELF.rawValue, RUSAGE_CHILDREN.rawValue)
        #else
            let (own, theirs) = (RUSAGE_SELF, RUSAGE_CHILDREN)
        #endif
        return seconds(own) + (children ? seconds(theirs) : 0)
    }

    /// Mean seconds per path, on the clock and in CPU time.
    private func timed(_ paths: [String], _ measure: (String) async throws -> Void) async throws -> PerTrack {
        let start = Date()
        let cpuStart = processCPUSeconds(children: true)
        for path in paths { try await measure(path) }
        let count = Double(max(1, paths.count))
        return PerTrack(
            wall: Date().timeIntervalSince(start) / count, cpu: (processCPUSeconds(children: true) - cpuStart) / count)
    }

    private func median(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "-" }
        return String(format: "%.1f", values.sorted()[values.count / 2])
    }
}
