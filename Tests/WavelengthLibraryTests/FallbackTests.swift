import Foundation
import Testing
@testable import WavelengthLibrary

@Suite("Fallbacks from file and folder names")
struct FallbackTests {
    @Test(arguments: [
        ("01 - Intro", "Intro", 1), ("01. Intro", "Intro", 1), ("1 Intro", "Intro", 1), ("07_Intro", "Intro", 7),
        ("12-Intro", "Intro", 12), ("003 – Ñandú", "Ñandú", 3),
    ])
    func leadingTrackNumbersAreStripped(name: String, title: String, number: Int) {
        let split = PathFallbacks.splitLeadingNumber(name)
        #expect(split.title == title)
        #expect(split.number == number)
    }

    @Test(arguments: ["1984", "2019 Remaster", "Intro", "01"])
    func namesThatAreNotNumberedStayWhole(name: String) {
        let split = PathFallbacks.splitLeadingNumber(name)
        #expect(split.title == name)
        #expect(split.number == nil)
    }

    @Test func artistAlbumFileLayout() {
        let fallback = PathFallbacks(path: "/music/Sigur Rós/Ágætis byrjun/02 - Svefn-g-englar.flac")
        #expect(fallback.title == "Svefn-g-englar")
        #expect(fallback.trackNumber == 2)
        #expect(fallback.discNumber == nil)
        #expect(fallback.album == "Ágætis byrjun")
        #expect(fallback.artist == "Sigur Rós")
    }

    @Test func discFoldersAreSkippedAndNumbered() {
        let fallback = PathFallbacks(path: "/music/Artist/Album/CD 2/01 Song.mp3", libraryRoot: "/music")
        #expect(fallback.album == "Album")
        #expect(fallback.artist == "Artist")
        #expect(fallback.discNumber == 2)
    }

    @Test func foldersAtOrAboveTheLibraryRootAreNoArtist() {
        let fallback = PathFallbacks(path: "/home/ana/Music/Album/Song.mp3", libraryRoot: "/home/ana/Music")
        #expect(fallback.album == "Album")
        #expect(fallback.artist == PathFallbacks.unknownArtist)
        #expect(PathFallbacks(path: "/Song.mp3").artist == PathFallbacks.unknownArtist)
    }

    @Test(arguments: [("3/12", 3), ("03", 3), (" 7 of 9", 7), ("0", nil), ("A1", nil), ("", nil)] as [(String, Int?)])
    func positionsParse(text: String, value: Int?) {
        #expect(TagValueParser.position(text) == value)
    }

    @Test(arguments: [("2019", 2019), ("2019-05-01", 2019), ("20190501", 2019), ("19", nil), ("May 2019", nil)] as [(String, Int?)])
    func yearsParse(text: String, value: Int?) {
        #expect(TagValueParser.year(text) == value)
    }

    @Test func untaggedFileGetsFallbacks() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("Ólafur Arnalds/Living Room Songs/03 - Near Light.ogg")
        try await Fixtures.encode(.ogg, to: path)

        let metadata = try TagReader.read(path: path, libraryRoot: directory.path)
        #expect(metadata.title == "Near Light")
        #expect(metadata.trackNumber == 3)
        #expect(metadata.album == "Living Room Songs")
        #expect(metadata.artist == "Ólafur Arnalds")
        #expect(metadata.albumArtist == "Ólafur Arnalds")
        #expect(metadata.year == nil)
        #expect(metadata.discNumber == nil)
        #expect(abs(metadata.durationMs - 2500) <= 5)
    }

    @Test func tagsWinOverNamesButMissingTrackComesFromTheName() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("Loose/05 - File Name.mp3")
        try await Fixtures.encode(.mp3, to: path, tags: ["title": "Tag Title", "date": "2019"])

        let metadata = try TagReader.read(path: path, libraryRoot: directory.path)
        #expect(metadata.title == "Tag Title")
        #expect(metadata.trackNumber == 5)
        #expect(metadata.album == "Loose")
        #expect(metadata.artist == PathFallbacks.unknownArtist)
        #expect(metadata.year == 2019)
    }

    @Test func unicodePathsAndTagsSurviveAScan() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("星野ミナ/夜明けの街 🌅/01 - さくら通り.flac")
        try await Fixtures.encode(.flac, to: path, tags: ["artist": "Zoë Keating", "genre": "Ünïcödé ♫"])

        let index = MemoryLibraryIndex()
        let report = try await LibraryScanner(index: index).scan(roots: [directory.path])
        #expect(report.added == 1 && report.failed == 0)
        let scanned = try #require(await index.file(atPath: path))
        #expect(scanned.metadata.title == "さくら通り")
        #expect(scanned.metadata.album == "夜明けの街 🌅")
        #expect(scanned.metadata.artist == "Zoë Keating")
        #expect(scanned.metadata.genre == "Ünïcödé ♫")
    }
}
