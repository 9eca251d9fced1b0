#if canImport(Glibc)
import Foundation
import Testing
import WavelengthLibrary

/// The kernel's inotify, on a real folder tree.
@Suite(.timeLimit(.minutes(1)))
struct FolderWatchTests {
    @Test func itReportsTheFoldersWhereFilesArriveMoveAndGo() async throws {
        let root = NSTemporaryDirectory() + "wavelength-watch-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/Artist/Album", withIntermediateDirectories: true)
        let watch = try FolderWatch(roots: [root])
        var changes = watch.changes.makeAsyncIterator()

        // Written in place, in a folder below the root.
        try Data("one".utf8).write(to: URL(fileURLWithPath: root + "/Artist/Album/01.mp3"))
        #expect(try await Self.next(&changes, containing: root + "/Artist/Album"))

        // A new folder: watched from now on, so a file written in it is seen.
        try FileManager.default.createDirectory(atPath: root + "/New", withIntermediateDirectories: false)
        #expect(try await Self.next(&changes, containing: root))
        try Data("two".utf8).write(to: URL(fileURLWithPath: root + "/New/02.mp3"))
        #expect(try await Self.next(&changes, containing: root + "/New"))

        // Moved between folders: both hear of it.
        try FileManager.default.moveItem(atPath: root + "/New/02.mp3", toPath: root + "/Artist/02.mp3")
        var seen: Set<String> = []
        while !seen.isSuperset(of: [root + "/New", root + "/Artist"]), let batch = await changes.next() { seen.formUnion(batch) }
        #expect(seen.isSuperset(of: [root + "/New", root + "/Artist"]))

        // A folder moved within the library is watched at its new place.
        try FileManager.default.moveItem(atPath: root + "/Artist", toPath: root + "/New/Artist")
        #expect(try await Self.next(&changes, containing: root + "/New"))
        try Data("three".utf8).write(to: URL(fileURLWithPath: root + "/New/Artist/Album/03.mp3"))
        #expect(try await Self.next(&changes, containing: root + "/New/Artist/Album"))

        // A folder deleted whole: its parent hears of it; and one made in
        // its place (which may get its inode) is watched.
        try FileManager.default.removeItem(atPath: root + "/New")
        #expect(try await Self.next(&changes, containing: root))
        try FileManager.default.createDirectory(atPath: root + "/Again", withIntermediateDirectories: false)
        #expect(try await Self.next(&changes, containing: root))
        try Data("four".utf8).write(to: URL(fileURLWithPath: root + "/Again/04.mp3"))
        #expect(try await Self.next(&changes, containing: root + "/Again"))

        watch.stop()
        while await changes.next() != nil {}  // the stream ends
    }

    /// Reads batches until one names `folder`; false if the stream ends first.
    private static func next(_ changes: inout AsyncStream<Set<String>>.Iterator, containing folder: String) async throws -> Bool {
        while let batch = await changes.next() {
            if batch.contains(folder) { return true }
        }
        return false
    }
}
#endif
