import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

/// Anyone who can write into a library folder can plant symlinks. Nothing a
/// link leads to outside the library is ever served: not as lyrics, not as
/// cover art, not as audio (nor fed to ffmpeg to transcode).
@Suite("A hostile library", .timeLimit(.minutes(5)))
struct HostileLibraryTests {
    @Test func symlinksOutOfTheLibraryAreNeverServed() async throws {
        let base = NSTemporaryDirectory() + "wavelength-hostile-\(UUID().uuidString)"
        let album = base + "/Lib/Planted/Links"
        let outside = base + "/outside"
        let files = FileManager.default
        try files.createDirectory(atPath: album, withIntermediateDirectories: true)
        try files.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? files.removeItem(atPath: base) }
        let tone = ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "libmp3lame"]
        try await ffmpeg(tone + [album + "/Planted Lyrics.mp3"])
        try await ffmpeg(tone + [album + "/Honest Link.mp3"])
        try await ffmpeg(tone + [outside + "/Elsewhere.mp3"])
        let secret = "root:x:0:0:root:/root:/bin/bash\n"
        try secret.write(toFile: outside + "/passwd", atomically: true, encoding: .utf8)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x73, 0x65, 0x63, 0x72, 0x65, 0x74]).write(to: URL(fileURLWithPath: outside + "/cover.jpg"))
        try "[00:00.00] words that live in the library\n".write(
            toFile: album + "/lyrics-kept-here.txt", atomically: true, encoding: .utf8)
        try files.createSymbolicLink(atPath: album + "/Planted Lyrics.lrc", withDestinationPath: outside + "/passwd")
        try files.createSymbolicLink(atPath: album + "/cover.jpg", withDestinationPath: outside + "/cover.jpg")
        try files.createSymbolicLink(atPath: album + "/Linked Elsewhere.mp3", withDestinationPath: outside + "/Elsewhere.mp3")
        // A link that stays inside the library is an ordinary thing to have.
        try files.createSymbolicLink(atPath: album + "/Honest Link.lrc", withDestinationPath: "lyrics-kept-here.txt")

        let server = try await TestServer.make(libraryRoots: [base + "/Lib"])
        try await server.application().test(.router) { client in
            let planted = try await client.firstTrack(matching: "Planted")
            let lyrics = try await client.execute(uri: "/api/tracks/\(planted.id)/lyrics", method: .get)
            #expect(lyrics.status == .notFound)
            #expect(!String(buffer: lyrics.body).contains("root:x"))
            let art = try await client.execute(uri: "/api/tracks/\(planted.id)/artwork", method: .get)
            #expect(art.status == .notFound)
            #expect(!String(buffer: art.body).contains("secret"))

            let linked = try await client.firstTrack(matching: "Linked")
            for uri in ["/api/tracks/\(linked.id)/audio", "/api/tracks/\(linked.id)/audio?format=opus"] {
                let audio = try await client.execute(uri: uri, method: .get)
                #expect(audio.status == .notFound, "\(uri)")
            }

            let honest = try await client.firstTrack(matching: "Honest")
            let kept = try await client.execute(uri: "/api/tracks/\(honest.id)/lyrics", method: .get)
            #expect(kept.status == .ok)
            #expect(String(buffer: kept.body).contains("words that live in the library"))
            let audio = try await client.execute(uri: "/api/tracks/\(honest.id)/audio", method: .get)
            #expect(audio.status == .ok)
        }
    }
}
