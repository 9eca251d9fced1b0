import Foundation
import Testing
@testable import WavelengthLibrary

@Suite("Bad files are reported, not fatal")
struct BadFileTests {
    @Test func corruptEmptyAndTruncatedFilesAreFailuresAndTheScanGoesOn() async throws {
        let directory = try TemporaryDirectory()
        let good = try directory.file("Artist/Album/01 - Good.mp3")
        try await Fixtures.encode(.mp3, to: good, seconds: 6, tags: ["title": "Good"])
        let whole = try directory.file("whole.flac")
        try await Fixtures.encode(.flac, to: whole, seconds: 6, tags: ["title": "Whole"])

        let corrupt = try directory.file("Artist/Album/02 - Noise.mp3")
        try Fixtures.noise(count: 64 * 1024).write(to: URL(fileURLWithPath: corrupt))
        let empty = try directory.file("Artist/Album/03 - Empty.flac")
        try Data().write(to: URL(fileURLWithPath: empty))
        let truncated = try directory.file("Artist/Album/04 - Cut.mp3")
        let goodBytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try goodBytes.prefix(goodBytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let headerOnly = try directory.file("Artist/Album/05 - Header.m4a")
        try Data(try Data(contentsOf: URL(fileURLWithPath: whole)).prefix(300)).write(to: URL(fileURLWithPath: headerOnly))
        try FileManager.default.removeItem(atPath: whole)

        let index = MemoryLibraryIndex()
        let report = try await LibraryScanner(index: index, concurrency: 2).scan(roots: [directory.path])

        #expect(report.seen == 5)
        #expect(report.added == 1)
        #expect(report.failed == 4)
        #expect(report.failures.map(\.path) == [corrupt, empty, truncated, headerOnly])
        #expect(report.failures.allSatisfy { !$0.reason.isEmpty })
        let reasons = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.path, $0.reason) })
        #expect(reasons[empty] == "the file is empty")
        #expect(reasons[truncated]?.contains("truncated") == true, "\(reasons[truncated] ?? "")")
        #expect(await index.file(atPath: good)?.metadata.title == "Good")
    }

    @Test func tagReaderThrowsUnreadableWithAReason() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("noise.flac")
        try Fixtures.noise(count: 4096, seed: 42).write(to: URL(fileURLWithPath: path))
        #expect {
            try TagReader.read(path: path)
        } throws: { error in
            guard case LibraryError.unreadable(let reason) = error else { return false }
            return !reason.isEmpty
        }
        #expect(throws: LibraryError.self) { try TagReader.read(path: directory.path + "/missing.mp3") }
        let empty = try directory.file("empty.mp3")
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(throws: LibraryError.unreadable("the file is empty")) { try TagReader.embeddedArtwork(path: empty) }
    }

    @Test func missingRootIsAFailureAndKeepsItsTracks() async throws {
        let directory = try TemporaryDirectory()
        let song = try directory.file("Present/Album/song.ogg")
        try await Fixtures.encode(.ogg, to: song, tags: ["title": "Present"])
        let index = MemoryLibraryIndex()
        let vanishedDisk = directory.path + "/Unmounted Disk"
        let stale = ScannedFile(
            path: vanishedDisk + "/Artist/old.mp3", stamp: FileStamp(size: 1, mtimeNs: 1), fingerprint: "1-0",
            metadata: TrackMetadata(title: "Old", artist: "A", album: "B", albumArtist: "A", durationMs: 1000,
                                    format: .mp3, codec: "mp3", hasEmbeddedArt: false)
        )
        await index.insert(stale, id: "kept")

        let report = try await LibraryScanner(index: index).scan(roots: [directory.path + "/Present", vanishedDisk])

        #expect(report.added == 1)
        #expect(report.removed == 0, "an unmounted disk must not empty the library")
        #expect(report.failures == [ScanFailure(path: vanishedDisk, reason: "cannot scan this folder: it does not exist")])
        #expect(await index.tracks["kept"] != nil)
    }

    @Test func symlinkLoopsEndAndFilesAreSeenOnce() async throws {
        let directory = try TemporaryDirectory()
        let song = try directory.file("Artist/Album/song.mp3")
        try await Fixtures.encode(.mp3, to: song, tags: ["title": "Loop"])
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/Artist/Album/again", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/Artist/self", withDestinationPath: directory.path)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/dangling.mp3", withDestinationPath: "/nonexistent")

        let report = try await LibraryScanner(index: MemoryLibraryIndex()).scan(roots: [directory.path + "/./Artist/../"])

        #expect(report.roots == [directory.path])
        #expect(report.seen == 1)
        #expect(report.added == 1)
        #expect(report.failures.map(\.path) == [directory.path + "/dangling.mp3"])
    }
}
