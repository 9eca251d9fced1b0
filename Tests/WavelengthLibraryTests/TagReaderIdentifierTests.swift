import Testing
@testable import WavelengthLibrary

/// Where the ISRC and MusicBrainz recording ID hide in each tag format.
@Suite("TagReader reads ISRC and MusicBrainz IDs")
struct TagReaderIdentifierTests {
    static let isrc = "GBAYE0601498"
    static let recordingID = "4b9f1c2e-7a3d-4e3a-9f1b-2c8d5e6f7a80"

    @Test func id3StoresThemInTSRCAndTXXX() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("id3.mp3")
        try await Fixtures.encode(.mp3, to: path, tags: [
            "title": "ID3", "TSRC": Self.isrc, "MusicBrainz Track Id": Self.recordingID,
        ])
        let metadata = try TagReader.read(path: path)
        #expect(metadata.isrc == Self.isrc)
        #expect(metadata.musicBrainzRecordingID == Self.recordingID)
    }

    @Test(arguments: [AudioFormat.flac, .ogg, .opus])
    func vorbisCommentsStoreISRCAndMusicBrainzTrackID(format: AudioFormat) async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("vorbis.\(Fixtures.recipe(format).fileExtension)")
        try await Fixtures.encode(format, to: path, tags: [
            "title": "Vorbis", "ISRC": "GB-AYE-06-01498", "MUSICBRAINZ_TRACKID": Self.recordingID.uppercased(),
        ])
        let metadata = try TagReader.read(path: path)
        #expect(metadata.isrc == Self.isrc, "hyphens are dropped")
        #expect(metadata.musicBrainzRecordingID == Self.recordingID, "stored lowercase")
    }

    @Test func mp4FreeformAtomsStoreThem() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("freeform.m4a")
        try await Fixtures.encode(.m4a, to: path, tags: [
            "title": "MP4", "ISRC": Self.isrc, "MusicBrainz Track Id": Self.recordingID,
        ], extraArguments: ["-movflags", "use_metadata_tags"])
        let metadata = try TagReader.read(path: path)
        #expect(metadata.isrc == Self.isrc)
        #expect(metadata.musicBrainzRecordingID == Self.recordingID)
    }

    @Test func absentIdentifiersAreNil() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("plain.flac")
        try await Fixtures.encode(.flac, to: path, tags: ["title": "Plain"])
        let metadata = try TagReader.read(path: path)
        #expect(metadata.isrc == nil)
        #expect(metadata.musicBrainzRecordingID == nil)
        #expect(metadata.genre == nil)
    }
}
