import ArgumentParser
import Foundation
import Logging
import WavelengthCore
import WavelengthLibrary
import WavelengthTestSupport
import WavelengthSQLite

@main
struct WavelengthBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wavelength-bench",
        abstract: "Benchmarks that print figures. Build with -c release for real numbers.",
        subcommands: [
            BenchScan.self, BenchSearch.self, BenchFrequencies.self, BenchListeners.self, BenchRobotDJ.self, BenchAnalysis.self, BenchIdentify.self, BenchFailover.self, BenchBackup.self, BenchWatch.self, BenchUploads.self,
        ])
}

/// Generates a tagged library, then times a first scan and an unchanged
/// rescan into a real SQLite index.
struct BenchScan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "scan", abstract: "Library scan throughput.")

    @Option(help: "How many files to generate.")
    var count: Int = 2000

    @Option(help: "Work folder (default: a new temporary folder, removed afterwards).")
    var workDir: String?

    func run() async throws {
        let folder = workDir ?? NSTemporaryDirectory() + "wavelength-bench-\(UUID().uuidString)"
        defer { if workDir == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let library = folder + "/library"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let generateStart = Date()
        try await SyntheticLibrary.generate(count: count, in: library)
        print("generated \(count) files in \(seconds(since: generateStart)) s")

        let database = try AppDatabase.open(path: folder + "/bench.sqlite")
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let scanner = LibraryScanner(index: database, logger: logger)
        let first = try await scanner.scan(roots: [library])
        let rescan = try await scanner.scan(roots: [library])
        print("first scan:     \(first.added) tracks in \(format(first.elapsedSeconds)) s = \(rate(first.added, first.elapsedSeconds)) tracks/s (failed \(first.failed))")
        print("unchanged scan: \(rescan.unchanged) files in \(format(rescan.elapsedSeconds)) s = \(rate(rescan.seen, rescan.elapsedSeconds)) files/s")
    }
}

/// Fills an index with synthetic tracks and times find-as-you-type queries.
struct BenchSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search latency on a large library.")

    @Option(help: "How many tracks in the index.")
    var tracks: Int = 10_000

    @Option(help: "How many queries to time.")
    var queries: Int = 2_000

    func run() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = try AppDatabase.open(path: folder + "/bench.sqlite")
        var rng = SeededRandom(seed: 42)
        let words = SyntheticWords()
        let files = (0..<tracks).map { i in words.scannedFile(index: i, using: &rng) }
        try await database.applyScan(ScanChanges(added: files, updated: [], moved: [], removed: []))

        // Warm up SQLite's page cache and statement cache; the first query of a
        // process pays for opening the file.
        for word in words.vocabulary.prefix(20) { _ = try await database.search(word, limit: 25) }
        // Type-ahead: every prefix of a real title/artist word, as a user types it.
        var latencies: [Double] = []
        var results = 0
        for _ in 0..<queries {
            let word = words.vocabulary.randomElement(using: &rng)!
            let typed = String(word.prefix(Int.random(in: 1...word.count, using: &rng)))
            let start = DispatchTime.now().uptimeNanoseconds
            results += try await database.search(typed, limit: 25).count
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        }
        latencies.sort()
        func percentile(_ p: Double) -> String {
            format(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))])
        }
        print("search over \(tracks) tracks, \(queries) prefix queries (limit 25, avg \(results / max(1, queries)) hits):")
        print("  p50 \(percentile(0.50)) ms  p95 \(percentile(0.95)) ms  p99 \(percentile(0.99)) ms  max \(format(latencies.last ?? 0)) ms")
    }
}

/// Made-up but realistic tags, with accents so diacritic folding is exercised.
struct SyntheticWords {
    let vocabulary = [
        "midnight", "café", "señorita", "river", "électrique", "northern", "lights", "gravity", "velvet", "orchid",
        "satellite", "harbor", "émile", "zürich", "blue", "ocean", "fire", "glass", "paper", "moon", "sunday",
        "neon", "dreams", "ghost", "summer", "winter", "echo", "radio", "wave", "static", "golden", "hour",
        "bossa", "nova", "tango", "jazz", "søren", "åsa", "noël", "françois", "mañana", "corazón", "über",
        "kaleidoscope", "horizon", "lantern", "meadow", "thunder", "whisper", "crystal",
    ]

    func phrase(_ count: Int, using rng: inout some RandomNumberGenerator) -> String {
        (0..<count).map { _ in vocabulary.randomElement(using: &rng)!.capitalized }.joined(separator: " ")
    }

    func scannedFile(index: Int, using rng: inout some RandomNumberGenerator) -> ScannedFile {
        let artist = phrase(2, using: &rng)
        let metadata = TrackMetadata(
            title: phrase(Int.random(in: 1...4, using: &rng), using: &rng), artist: artist,
            album: phrase(2, using: &rng), albumArtist: artist, trackNumber: index % 12 + 1, discNumber: 1,
            year: 1960 + index % 60, genre: nil, durationMs: Int64.random(in: 120_000...360_000, using: &rng),
            isrc: nil, musicBrainzRecordingID: nil, format: .mp3, codec: "mp3", hasEmbeddedArt: false)
        return ScannedFile(
            path: "/bench/\(index).mp3", stamp: FileStamp(size: 1000, mtimeNs: 1), fingerprint: "f\(index)",
            metadata: metadata, artworkPath: nil, lyricsPath: nil)
    }
}

func seconds(since start: Date) -> String { format(Date().timeIntervalSince(start)) }
func format(_ value: Double) -> String { String(format: "%.3f", value) }
func rate(_ count: Int, _ seconds: Double) -> String { String(format: "%.0f", Double(count) / max(seconds, 1e-9)) }
