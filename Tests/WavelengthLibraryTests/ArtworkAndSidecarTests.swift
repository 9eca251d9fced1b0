import Foundation
import Testing
@testable import WavelengthLibrary

@Suite("Cover art and sidecar files")
struct ArtworkAndSidecarTests {
    @Test(arguments: [(AudioFormat.mp3, "jpg", "image/jpeg"), (.flac, "png", "image/png"), (.m4a, "png", "image/png")])
    func embeddedArtIsReadBackByteForByte(format: AudioFormat, imageExtension: String, mimeType: String) async throws {
        let directory = try TemporaryDirectory()
        let cover = try directory.file("source-cover.\(imageExtension)")
        try await Fixtures.image(at: cover)
        let path = try directory.file("Album/with-art.\(Fixtures.recipe(format).fileExtension)")
        try await Fixtures.encode(format, to: path, tags: ["title": "Art"], cover: cover)

        #expect(try TagReader.read(path: path).hasEmbeddedArt)
        let artwork = try #require(try TagReader.embeddedArtwork(path: path))
        #expect(artwork.mimeType == mimeType)
        #expect(artwork.data == [UInt8](try Data(contentsOf: URL(fileURLWithPath: cover))))
    }

    @Test func filesWithoutArtHaveNoEmbeddedArtwork() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("plain.mp3")
        try await Fixtures.encode(.mp3, to: path, tags: ["title": "Plain"])
        #expect(try TagReader.embeddedArtwork(path: path) == nil)
    }

    @Test func scanFindsFolderCoverAndLyricsSidecar() async throws {
        let directory = try TemporaryDirectory()
        let plain = try directory.file("Artist/Album/01 - Song.ogg")
        try await Fixtures.encode(.ogg, to: plain, tags: ["title": "Song"])
        let cover = try directory.file("Artist/Album/Cover.JPG")
        try await Fixtures.image(at: cover + ".tmp.jpg")
        try FileManager.default.moveItem(atPath: cover + ".tmp.jpg", toPath: cover)
        // "folder" ranks below "cover", so it must not win.
        try Data([1]).write(to: URL(fileURLWithPath: try directory.file("Artist/Album/folder.png")))
        let lyrics = try directory.file("Artist/Album/01 - SONG.lrc")
        try Data("[00:01.00]Hello\n".utf8).write(to: URL(fileURLWithPath: lyrics))

        let index = MemoryLibraryIndex()
        let report = try await LibraryScanner(index: index).scan(roots: [directory.path])
        #expect(report.added == 1)
        let scanned = try #require(await index.file(atPath: plain))
        #expect(scanned.artworkPath == cover)
        #expect(scanned.lyricsPath == lyrics)
    }

    @Test func embeddedArtWinsOverAFolderImage() async throws {
        let directory = try TemporaryDirectory()
        let cover = try directory.file("Album/cover.jpg")
        try await Fixtures.image(at: cover)
        let path = try directory.file("Album/with-art.mp3")
        try await Fixtures.encode(.mp3, to: path, tags: ["title": "Art"], cover: cover)

        let index = MemoryLibraryIndex()
        _ = try await LibraryScanner(index: index).scan(roots: [directory.path])
        let scanned = try #require(await index.file(atPath: path))
        #expect(scanned.metadata.hasEmbeddedArt)
        #expect(scanned.artworkPath == nil)
        #expect(scanned.lyricsPath == nil)
    }

    @Test func folderSidecarsPreferCoverAndMatchLyricsIgnoringCase() {
        let sidecars = FolderSidecars(directory: "/m/a", names: ["AlbumArt.png", "front.jpeg", "x.lrc", "Ñandú.LRC"])
        #expect(sidecars.artworkPath == "/m/a/front.jpeg")
        #expect(sidecars.lyricsPath(forAudioFileNamed: "ñandú.flac") == "/m/a/Ñandú.LRC")
        #expect(sidecars.lyricsPath(forAudioFileNamed: "y.mp3") == nil)
        #expect(FolderSidecars(directory: "/m", names: ["scan.jpg"]).artworkPath == nil)
    }
}
