import Foundation
import HummingbirdTesting
import Subprocess
import Testing
import WavelengthWire

@testable import WavelengthServer

/// Lyrics as lines for the listener screen, from `.lrc` sidecars and from
/// the files' own tags (ID3 and Vorbis comments, as FFmpeg reads them).
@Suite("Lyrics over HTTP", .timeLimit(.minutes(5)))
struct LyricsRouteTests {
    static func make(_ path: String, metadata: [String]) async throws {
        let made = try await Subprocess.run(
            .name("ffmpeg"),
            arguments: Arguments(
                ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=4"] + metadata + [path]),
            output: .discarded, error: .discarded)
        #expect(made.terminationStatus.isSuccess)
    }

    @Test func sidecarsAndTagsBecomeLinesAndTheRestIsNotFound() async throws {
        let root = NSTemporaryDirectory() + "wavelength-lyrics-\(UUID().uuidString)"
        let album = root + "/Singers/Words"
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await Self.make(album + "/01 Sidecar.mp3", metadata: ["-metadata", "title=Sidecar"])
        try "[offset:+200]\n[00:01.00][00:03.00]Twice\n[00:02.00]<00:02.00>Once\n".write(
            toFile: album + "/01 Sidecar.lrc", atomically: true, encoding: .utf8)
        try await Self.make(album + "/02 Tagged.mp3", metadata: ["-metadata", "title=Tagged", "-metadata", "lyrics=[00:01.50]From the tag"])
        try await Self.make(album + "/03 Plain.flac", metadata: ["-metadata", "title=Plain", "-metadata", "UNSYNCEDLYRICS=Plain words\nSecond line"])
        try await Self.make(album + "/04 Silent.mp3", metadata: ["-metadata", "title=Silent"])
        let server = try await TestServer.make(libraryRoots: [root])
        try await server.application().test(.router) { client in
            let all = try await client.execute(uri: "/api/library/tracks?limit=50", method: .get).decode([TrackSummary].self)
            func lyrics(_ title: String) async throws -> TestResponse {
                let id = try #require(all.first { $0.title == title }?.id)
                return try await client.execute(uri: "/api/tracks/\(id)/lyrics.json", method: .get)
            }
            let sidecar = try await lyrics("Sidecar").decode(LyricsView.self)
            #expect(sidecar.synced && sidecar.source == "lrc")
            #expect(sidecar.lines == [.init(timeMs: 800, text: "Twice"), .init(timeMs: 1_800, text: "Once"), .init(timeMs: 2_800, text: "Twice")])
            let tagged = try await lyrics("Tagged").decode(LyricsView.self)
            #expect(tagged.source == "tags" && tagged.lines == [.init(timeMs: 1_500, text: "From the tag")])
            let plain = try await lyrics("Plain").decode(LyricsView.self)
            #expect(!plain.synced && plain.lines.map(\.text) == ["Plain words", "Second line"])
            let silent = try await lyrics("Silent")
            #expect(silent.status == .notFound && silent.errorCode == "not_found")
            #expect(try await client.execute(uri: "/api/tracks/nope/lyrics.json", method: .get).status == .notFound)
        }
    }
}
