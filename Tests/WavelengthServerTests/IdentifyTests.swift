import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WavelengthLibrary
import WavelengthWire

@testable import WavelengthServer

/// "What's this song?" from audio, end to end: real songs in a library,
/// fingerprinted by the background analysis with Chromaprint, and clips cut
/// and re-encoded by ffmpeg as a phone's recording would be.
@Suite("What's this song?", .timeLimit(.minutes(5)))
struct IdentifyTests {
    /// Two 40 s songs in a library of their own.
    static func library() async throws -> String {
        let root = NSTemporaryDirectory() + "wavelength-identify-\(UUID().uuidString)"
        let album = root + "/Melodies/Seeded"
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        for (number, title) in ["First Tune", "Second Tune"].enumerated() {
            try await ffmpeg([
                "-nostdin", "-v", "error", "-f", "lavfi", "-i", MelodyRecipe.lavfi(seed: UInt64(number + 1)), "-t", "40",
                "-metadata", "title=\(title)", "-metadata", "artist=Melodies", "-c:a", "libmp3lame", "-b:a", "128k",
                album + "/0\(number + 1) \(title).mp3",
            ])
        }
        return root
    }

    static func clip(of song: String, from start: Int, seconds: Int) async throws -> ByteBuffer {
        let path = NSTemporaryDirectory() + "clip-\(UUID().uuidString).m4a"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // As a phone records it: mono, AAC at a low bitrate.
        try await ffmpeg(["-nostdin", "-v", "error", "-ss", "\(start)", "-t", "\(seconds)", "-i", song, "-ac", "1", "-c:a", "aac", "-b:a", "48k", path])
        return ByteBuffer(data: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func ask(_ client: some TestClientProtocol, _ body: ByteBuffer, as account: TestAccount?) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "audio/mp4"]
        if let account { headers[.authorization] = "Bearer \(account.token)" }
        return try await client.execute(uri: "/api/identify", method: .post, headers: headers, body: body)
    }

    @Test func aClipFromTheLibraryIsRecognisedWithWhereItStarts() async throws {
        let root = try await Self.library()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let server = try await TestServer.make(libraryRoots: [root]) { $0.analyzeAudio = true }
        try await server.application().test(.router) { client in
            await server.services.analysis.analyzeAll()
            let person = try await client.signUp()
            let second = root + "/Melodies/Seeded/02 Second Tune.mp3"
            let answer = try await Self.ask(client, try await Self.clip(of: second, from: 17, seconds: 10), as: person)
            #expect(answer.status == .ok)
            let match = try #require(try answer.decode(IdentifyResponse.self).match)
            #expect(match.track.title == "Second Tune")
            let offset = try #require(match.offsetMs, "the place in a tune that doesn't repeat is known")
            #expect(abs(offset - 17_000) <= 1_000, "offset \(offset)")
            #expect(match.similarity >= 0.65)

            // Something the library doesn't have: noise.
            let noise = NSTemporaryDirectory() + "noise-\(UUID().uuidString).wav"
            defer { try? FileManager.default.removeItem(atPath: noise) }
            try await ffmpeg(["-nostdin", "-v", "error", "-f", "lavfi", "-i", "anoisesrc=d=10:c=pink", noise])
            let unknown = try await Self.ask(client, ByteBuffer(data: try Data(contentsOf: URL(fileURLWithPath: noise))), as: person)
            #expect(unknown.status == .ok)
            #expect(try unknown.decode(IdentifyResponse.self).match == nil)
        }
    }

    @Test func badClipsGetClearErrors() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let person = try await client.signUp()
            let anonymous = try await Self.ask(client, ByteBuffer(string: "x"), as: nil)
            #expect(anonymous.status == .unauthorized)
            let empty = try await Self.ask(client, ByteBuffer(), as: person)
            #expect(empty.status == .badRequest)
            #expect(empty.errorCode == "bad_audio")
            let garbage = try await Self.ask(client, ByteBuffer(bytes: (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }), as: person)
            #expect(garbage.status == .badRequest)
            #expect(garbage.errorCode == "bad_audio")
            let huge = try await Self.ask(client, ByteBuffer(repeating: 0, count: IdentifyController.maxClipBytes + 1), as: person)
            #expect(huge.status == .contentTooLarge)
            #expect(huge.errorCode == "too_large")
            // Nothing a listener sent is left on disk.
            let kept = (try? FileManager.default.contentsOfDirectory(atPath: server.dataDirectory + "/clips")) ?? []
            #expect(kept.isEmpty)
        }
    }
}
