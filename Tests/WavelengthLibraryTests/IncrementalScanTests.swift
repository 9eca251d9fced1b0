import Foundation
import Testing
@testable import WavelengthLibrary

@Suite("Incremental rescans")
struct IncrementalScanTests {
    @Test func unchangedUpdatedMovedAndRemovedFiles() async throws {
        let directory = try TemporaryDirectory()
        let keep = try directory.file("Artist/Album/01 - Keep.mp3")
        let edit = try directory.file("Artist/Album/02 - Edit.ogg")
        let move = try directory.file("Artist/Album/03 - Move.flac")
        let delete = try directory.file("Artist/Album/04 - Delete.m4a")
        try await Fixtures.encode(.mp3, to: keep, tags: ["title": "Keep"])
        try await Fixtures.encode(.ogg, to: edit, tags: ["title": "Edit"])
        try await Fixtures.encode(.flac, to: move, frequency: 550, tags: ["title": "Move"])
        try await Fixtures.encode(.m4a, to: delete, tags: ["title": "Delete"])

        let index = MemoryLibraryIndex()
        let scanner = LibraryScanner(index: index, concurrency: 2)
        let first = try await scanner.scan(roots: [directory.path])
        #expect((first.seen, first.added, first.unchanged, first.failed) == (4, 4, 0, 0))

        let second = try await scanner.scan(roots: [directory.path])
        #expect((second.seen, second.added, second.updated, second.moved, second.removed) == (4, 0, 0, 0, 0))
        #expect(second.unchanged == 4, "unchanged files are not read again")

        let editID = try #require(await index.trackID(forPath: edit))
        let moveID = try #require(await index.trackID(forPath: move))
        let deleteID = try #require(await index.trackID(forPath: delete))
        let keepID = try #require(await index.trackID(forPath: keep))
        try await Fixtures.encode(.ogg, to: edit, tags: ["title": "Edited, with a longer title"])
        let moved = try directory.file("Other Artist/Other Album/Moved Here.flac")
        try FileManager.default.moveItem(atPath: move, toPath: moved)
        try FileManager.default.removeItem(atPath: delete)

        let third = try await scanner.scan(roots: [directory.path])
        #expect((third.seen, third.added, third.updated, third.unchanged) == (3, 0, 1, 1))
        #expect((third.moved, third.removed, third.failed) == (1, 1, 0))
        #expect(await index.tracks[editID]?.metadata.title == "Edited, with a longer title")
        #expect(await index.tracks[moveID]?.path == moved, "a moved file keeps its track ID")
        #expect(await index.tracks[moveID]?.metadata.album == "Other Album", "moved files are read again")
        #expect(await index.tracks[deleteID] == nil)
        #expect(await index.tracks[keepID]?.path == keep)
        #expect(await index.applyCount == 3, "one applyScan per scan")
    }

    @Test func filesOutsideTheScannedRootsAreNeverRemoved() async throws {
        let directory = try TemporaryDirectory()
        let inside = try directory.file("A/song.mp3")
        let outside = try directory.file("B/song.mp3")
        try await Fixtures.encode(.mp3, to: inside, tags: ["title": "A"])
        try FileManager.default.copyItem(atPath: inside, toPath: outside)

        let index = MemoryLibraryIndex()
        let scanner = LibraryScanner(index: index)
        _ = try await scanner.scan(roots: [directory.path + "/A", directory.path + "/B"])
        try FileManager.default.removeItem(atPath: outside)
        let report = try await scanner.scan(roots: [directory.path + "/A"])
        #expect(report.removed == 0)
        #expect(report.unchanged == 1)
        #expect(await index.file(atPath: outside) != nil)
    }

    @Test func movePairingPrefersMatchingFingerprintsAndRemovesTheRest() {
        func file(_ path: String, _ fingerprint: String) -> ScannedFile {
            ScannedFile(path: path, stamp: FileStamp(size: 1, mtimeNs: 1), fingerprint: fingerprint, metadata: TrackMetadata(
                title: "t", artist: "a", album: "b", albumArtist: "a", durationMs: 1, format: .mp3, codec: "mp3", hasEmbeddedArt: false))
        }
        func indexed(_ id: String, _ path: String, _ fingerprint: String) -> IndexedFile {
            IndexedFile(trackID: id, path: path, stamp: FileStamp(size: 1, mtimeNs: 1), fingerprint: fingerprint)
        }
        let outcome = MoveMatcher.match(
            newFiles: [file("/n/2", "same"), file("/n/1", "same"), file("/n/3", "new")],
            vanished: [indexed("b", "/o/b", "same"), indexed("a", "/o/a", "same"), indexed("c", "/o/c", "gone")]
        )
        #expect(outcome.moved.map(\.trackID) == ["a", "b"])
        #expect(outcome.moved.map(\.file.path) == ["/n/1", "/n/2"])
        #expect(outcome.added.map(\.path) == ["/n/3"])
        #expect(outcome.removedTrackIDs == ["c"])
    }

    @Test func fingerprintsIgnoreThePathAndSeeContent() throws {
        let directory = try TemporaryDirectory()
        let first = try directory.file("a.bin")
        let second = try directory.file("elsewhere/b.bin")
        try Fixtures.noise(count: 40_000).write(to: URL(fileURLWithPath: first))
        try Fixtures.noise(count: 40_000).write(to: URL(fileURLWithPath: second))
        let other = try directory.file("c.bin")
        try Fixtures.noise(count: 40_000, seed: 7).write(to: URL(fileURLWithPath: other))

        let a = try ContentFingerprint.of(path: first, size: 40_000)
        #expect(a == (try ContentFingerprint.of(path: second, size: 40_000)))
        #expect(a != (try ContentFingerprint.of(path: other, size: 40_000)))
        #expect(a.hasPrefix("40000-"))
    }
}
