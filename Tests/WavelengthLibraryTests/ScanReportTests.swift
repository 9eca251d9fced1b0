import Foundation
import Testing
import WavelengthLibrary

@Suite("ScanReport")
struct ScanReportTests {
    @Test func encodesToJSONWithEveryField() throws {
        let report = ScanReport(
            roots: ["/music/Ñandú"], seen: 10, added: 4, updated: 1, unchanged: 3, moved: 1, removed: 2, failed: 1,
            failures: [ScanFailure(path: "/music/Ñandú/bad.mp3", reason: "the file is empty")], elapsedSeconds: 0.25
        )
        let data = try JSONEncoder().encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])

        #expect(Set(object.keys) == [
            "roots", "seen", "added", "updated", "unchanged", "moved", "removed", "failed", "failures", "elapsedSeconds", "removedTrackIDs",
        ])
        #expect(object["roots"] as? [String] == ["/music/Ñandú"])
        #expect(object["seen"] as? Int == 10)
        #expect(object["unchanged"] as? Int == 3)
        #expect(object["elapsedSeconds"] as? Double == 0.25)
        let failures = try #require(object["failures"] as? [[String: String]])
        #expect(failures == [["path": "/music/Ñandú/bad.mp3", "reason": "the file is empty"]])
        #expect(try JSONDecoder().decode(ScanReport.self, from: data) == report)
    }

    @Test func trackMetadataRoundTripsThroughJSON() throws {
        let metadata = TrackMetadata(
            title: "夜明けの街", artist: "星野ミナ", album: "夜明けの街", albumArtist: "星野ミナ", trackNumber: 1,
            discNumber: 1, year: 2023, genre: "City Pop", durationMs: 62_000, isrc: nil, musicBrainzRecordingID: nil,
            format: .opus, codec: "opus", hasEmbeddedArt: false
        )
        let data = try JSONEncoder().encode(metadata)
        #expect(try JSONDecoder().decode(TrackMetadata.self, from: data) == metadata)
    }
}
