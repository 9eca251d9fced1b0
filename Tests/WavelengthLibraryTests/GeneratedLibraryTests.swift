import Foundation
import Testing
@testable import WavelengthLibrary
import WavelengthTestSupport

@Suite("Generated libraries")
struct GeneratedLibraryTests {
    @Test func demoCatalogMatchesItsPromise() {
        let tracks = DemoCatalog.albums.flatMap(\.tracks)
        #expect(tracks.count == 8)
        #expect(tracks.allSatisfy { (30...75).contains($0.seconds) })
        #expect(Set(tracks.map(\.encoding.fileExtension)) == ["mp3", "ogg", "opus", "flac", "m4a"])
        #expect(Set(DemoCatalog.albums.map(\.artist)).count >= 3)
        #expect(tracks.filter { $0.lyrics != nil }.count == 1)
        let names = tracks.map(\.title) + DemoCatalog.albums.map(\.title)
        #expect(names.contains("Café Nocturne") && names.contains("Ñandú"))
        #expect(names.contains { $0.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) } }, "a Japanese title")
    }

    /// The real recipes and tags, with tracks shortened so the test stays quick.
    @Test func demoLibraryIsGeneratedOnceAndScansCleanly() async throws {
        let directory = try TemporaryDirectory()
        var albums = DemoCatalog.albums
        for album in albums.indices {
            for track in albums[album].tracks.indices { albums[album].tracks[track].seconds = 2 }
        }
        let root = try await DemoLibrary.ensure(in: directory.path, albums: albums)
        #expect(root == directory.path + "/" + DemoLibrary.folderName)

        let index = MemoryLibraryIndex()
        let report = try await LibraryScanner(index: index).scan(roots: [root])
        #expect(report.added == 8)
        #expect(report.failures == [])
        let files = await index.tracks.values.sorted { $0.path < $1.path }
        #expect(Set(files.map(\.metadata.format)) == [.mp3, .ogg, .opus, .flac, .m4a])
        #expect(files.allSatisfy { abs($0.metadata.durationMs - 2000) <= 30 })
        #expect(files.allSatisfy { $0.metadata.hasEmbeddedArt || $0.artworkPath?.hasSuffix("/cover.png") == true })
        #expect(files.filter(\.metadata.hasEmbeddedArt).count == 6)
        #expect(files.compactMap(\.lyricsPath).count == 1)
        let cafe = try #require(files.first { $0.metadata.title == "Café Nocturne" })
        #expect(cafe.metadata.artist == "Aurora Vale" && cafe.metadata.trackNumber == 1 && cafe.metadata.year == 2021)
        #expect(try TagReader.embeddedArtwork(path: cafe.path)?.mimeType == "image/png")

        // A second call finds the marker and leaves the files alone.
        let before = try FileManager.default.attributesOfItem(atPath: cafe.path)[.modificationDate] as? Date
        #expect(try await DemoLibrary.ensure(in: directory.path, albums: albums) == root)
        #expect(try FileManager.default.attributesOfItem(atPath: cafe.path)[.modificationDate] as? Date == before)
        #expect(try await LibraryScanner(index: index).scan(roots: [root]).unchanged == 8)
    }

    @Test func benchLibraryHasDistinctTagsAndHeaderDurations() async throws {
        let directory = try TemporaryDirectory()
        try await SyntheticLibrary.generate(count: 25, in: directory.path)

        let index = MemoryLibraryIndex()
        let report = try await LibraryScanner(index: index).scan(roots: [directory.path])
        #expect(report.added == 25)
        #expect(report.failed == 0)
        let files = await index.tracks.values.map { $0 }
        #expect(Set(files.map(\.metadata.title)).count == 25)
        #expect(Set(files.map(\.metadata.album)).count == 3)
        #expect(Set(files.map(\.fingerprint)).count == 25, "tags make every copy distinct")
        let first = try #require(files.first { $0.metadata.title == "Bench Track 00000" })
        #expect(first.path == directory.path + "/Bench Artist 000/Bench Album 0000/01 Bench Track 00000.mp3")
        // The scan's speed depends on durations coming from headers rather than probing.
        let container = try MediaContainer(path: first.path)
        let statesDuration = container.audioStream.map { container.hasHeaderDuration($0) } ?? false
        #expect(statesDuration)
    }

    @Test func missingFFmpegIsReported() {
        #expect(throws: LibraryError.ffmpegMissing) {
            try FFmpegCommand.locate(environment: ["PATH": "/nonexistent"])
        }
    }
}
