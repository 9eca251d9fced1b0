import Foundation
import WavelengthLibrary

/// A large tagged library, generated with ffmpeg, for the scan benchmark and
/// the library tests.
public enum SyntheticLibrary {
    /// Tracks per album folder, and albums per artist folder.
    static let tracksPerAlbum = 10
    static let albumsPerArtist = 2
    /// Outputs per ffmpeg process: starting ffmpeg costs far more than writing one copy.
    static let outputsPerProcess = 100

    /// Writes `count` mp3 files laid out `Artist NNN/Album NNNN/NN Title NNNNN.mp3`, each with
    /// distinct tags. One clip is encoded once; every file is a stream copy of it with its own
    /// tags, many outputs per ffmpeg run, so thousands of files take seconds.
    ///
    /// The clip is a 3 s tone, which is all a scan reads; with `seconds`, it is a song of that
    /// length with a beat instead (a plucked note at 120 BPM), for the audio analysis, whose
    /// work grows with the length.
    public static func generate(count: Int, in directory: String, seconds: Int? = nil) async throws {
        guard count > 0 else { return }
        let ffmpeg = try FFmpegCommand.locate()
        let root = PathNormalizer.standardize(directory)
        let source = PathNormalizer.join(root, ".bench-source-\(UUID().uuidString).mp3")
        try createDirectory(root)
        defer { try? FileManager.default.removeItem(atPath: source) }
        let clip =
            seconds.map { "aevalsrc=exprs='0.6*sin(2*PI*220*t)*exp(-6*mod(t\\,0.5))':s=44100:d=\($0)" }
            ?? "sine=frequency=440:duration=3"
        try await ffmpeg.run(["-f", "lavfi", "-i", clip, "-c:a", "libmp3lame", "-b:a", "128k", source])

        let files = (0..<count).map { BenchFile(number: $0, root: root) }
        for folder in Set(files.map(\.folder)) { try createDirectory(folder) }
        let batches = stride(from: 0, to: count, by: outputsPerProcess).map {
            Array(files[$0..<min($0 + outputsPerProcess, count)])
        }
        let jobs: [@Sendable () async throws -> Void] = batches.map { batch in
            { try await ffmpeg.run(["-i", source] + batch.flatMap(\.outputArguments)) }
        }
        try await LimitedConcurrency.run(jobs, limit: ProcessInfo.processInfo.activeProcessorCount)
    }

    private static func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LibraryError.generationFailed("cannot create \(path): \(error.localizedDescription)")
        }
    }
}

/// One benchmark file: where it goes and the tags it gets.
private struct BenchFile: Sendable {
    var number: Int
    var root: String

    var albumNumber: Int { number / SyntheticLibrary.tracksPerAlbum }
    var artistNumber: Int { albumNumber / SyntheticLibrary.albumsPerArtist }
    var trackNumber: Int { number % SyntheticLibrary.tracksPerAlbum + 1 }
    var artist: String { String(format: "Bench Artist %03d", artistNumber) }
    var album: String { String(format: "Bench Album %04d", albumNumber) }
    var title: String { String(format: "Bench Track %05d", number) }
    var folder: String { PathNormalizer.join(PathNormalizer.join(root, artist), album) }

    var outputArguments: [String] {
        let path = PathNormalizer.join(folder, String(format: "%02d ", trackNumber) + title + ".mp3")
        return [
            "-map", "0", "-c", "copy",
            "-metadata", "title=\(title)", "-metadata", "artist=\(artist)", "-metadata", "album=\(album)",
            "-metadata", "album_artist=\(artist)", "-metadata", "track=\(trackNumber)/\(SyntheticLibrary.tracksPerAlbum)",
            "-metadata", "date=\(2000 + artistNumber % 25)", "-metadata", "genre=Benchmark",
            path,
        ]
    }
}
