import Foundation
import Testing
@testable import WavelengthLibrary

@Suite("TagReader reads every format")
struct TagReaderFormatTests {
    @Test(arguments: AudioFormat.allCases)
    func readsTagsDurationAndCodec(format: AudioFormat) async throws {
        let directory = try TemporaryDirectory()
        let recipe = Fixtures.recipe(format)
        let path = try directory.file("Tagged/track.\(recipe.fileExtension)")
        try await Fixtures.encode(format, to: path, tags: [
            "title": "Svefn-g-englar ☕ 夜", "artist": "Sigur Rós", "album": "Ágætis byrjun",
            "album_artist": "Sigur Rós & Friends", "track": "3/12", "disc": "2/2", "date": "1999-06-12",
            "genre": "Post-rock",
        ])

        let metadata = try TagReader.read(path: path)

        #expect(metadata.format == format)
        #expect(metadata.codec == recipe.expectedCodec)
        #expect(metadata.title == "Svefn-g-englar ☕ 夜")
        #expect(metadata.artist == "Sigur Rós")
        #expect(metadata.album == "Ágætis byrjun")
        #expect(metadata.trackNumber == 3)
        #expect(metadata.year == 1999)
        #expect(metadata.genre == "Post-rock")
        if recipe.storesAlbumArtistAndDisc {
            #expect(metadata.albumArtist == "Sigur Rós & Friends")
            #expect(metadata.discNumber == 2)
        } else {
            #expect(metadata.albumArtist == "Sigur Rós", "falls back to the artist")
            #expect(metadata.discNumber == nil)
        }
        #expect(abs(metadata.durationMs - 2500) <= recipe.durationToleranceMs, "duration was \(metadata.durationMs) ms")
        #expect(!metadata.hasEmbeddedArt)
    }

    @Test func durationIsExactForLongerFiles() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("long.flac")
        try await Fixtures.encode(.flac, to: path, seconds: 61.25, tags: ["title": "Long"])
        #expect(try TagReader.read(path: path).durationMs == 61_250)
    }

    @Test func opusInAnOggFileIsOpus() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("really-opus.ogg")
        try await Fixtures.encode(.opus, to: path, tags: ["title": "x"], extraArguments: ["-f", "ogg"])
        let metadata = try TagReader.read(path: path)
        #expect(metadata.format == .opus)
        #expect(abs(metadata.durationMs - 2500) <= 5, "pre-skip is not part of the music: \(metadata.durationMs)")
    }

    @Test func rawADTSWithAacExtensionIsRejected() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("raw.aac")
        try await Fixtures.encode(.m4a, to: path, tags: ["title": "x"], extraArguments: ["-f", "adts"])
        #expect(throws: LibraryError.self) { try TagReader.read(path: path) }
    }
}
