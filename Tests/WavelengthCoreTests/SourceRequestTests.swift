import Foundation
import Testing
import WavelengthCore

/// Icecast's source protocol read without I/O: the request, MP3 or not,
/// and the bitrate cap.
@Suite("Source requests")
struct SourceRequestTests {
    static func basic(_ key: String) -> String { "Basic " + Data("source:\(key)".utf8).base64EncodedString() }

    @Test func aPutWithIceHeadersIsAStream() throws {
        let parsed = SourceRequest.parse(
            method: "PUT", uri: "/live/s123.mp3",
            headers: [
                ("Authorization", Self.basic("k:ey")), ("content-type", "audio/mpeg; charset=x"), ("Expect", "100-continue"),
                ("ice-name", "Late\nJazz"), ("ice-audio-info", "samplerate=44100;bitrate=128;channels=2"),
            ])
        guard case .success(.stream(let stream)) = parsed else { Issue.record("\(parsed)"); return }
        #expect(stream.stationID == "s123" && stream.key == "k:ey" && stream.expectsContinue && !stream.legacy)
        #expect(stream.name == "LateJazz")
        #expect(stream.audioInfo == "samplerate=44100;bitrate=128;channels=2")
    }

    @Test func refusals() {
        let auth = [("Authorization", Self.basic("key")), ("Content-Type", "audio/mpeg")]
        #expect(SourceRequest.parse(method: "PUT", uri: "/live/s1", headers: [("Content-Type", "audio/mpeg")]) == .failure(.unauthorized))
        #expect(SourceRequest.parse(method: "PUT", uri: "/live/s1", headers: [("Authorization", "Basic !!!")]) == .failure(.unauthorized))
        #expect(SourceRequest.parse(method: "PUT", uri: "/stream/s1", headers: auth) == .failure(.notFound))
        #expect(SourceRequest.parse(method: "PUT", uri: "/live/../etc", headers: auth) == .failure(.notFound))
        #expect(SourceRequest.parse(method: "DELETE", uri: "/live/s1", headers: auth) == .failure(.methodNotAllowed))
        #expect(
            SourceRequest.parse(method: "SOURCE", uri: "/live/s1", headers: [("Authorization", Self.basic("key")), ("Content-Type", "application/ogg")])
                == .failure(.unsupportedMediaType("application/ogg")))
    }

    @Test func metadataUpdatesTakeSongOrArtistAndTitle() {
        let auth = [("Authorization", Self.basic("key"))]
        let song = SourceRequest.parse(method: "GET", uri: "/admin/metadata?mode=updinfo&mount=%2Flive%2Fs1&song=A+%26+B+-+C%27s", headers: auth)
        #expect(song == .success(.metadata(SourceMetadata(stationID: "s1", key: "key", title: "A & B - C's"))))
        // Mixxx sends artist and title (mixxx #14210).
        let mixxx = SourceRequest.parse(method: "GET", uri: "/admin/metadata?mode=updinfo&mount=/live/s1&artist=Nina&title=Sinnerman", headers: auth)
        #expect(mixxx == .success(.metadata(SourceMetadata(stationID: "s1", key: "key", title: "Nina - Sinnerman"))))
        #expect(SourceRequest.parse(method: "GET", uri: "/admin/metadata?mode=other&mount=/live/s1", headers: auth) == .failure(.badRequest("mode must be updinfo")))
    }

    @Test func mp3IsToldFromAnythingElse() {
        var tagged = MP3Sniff()
        let id3 = tagged.read(Array("ID3".utf8) + [4, 0])
        #expect(id3 == .mp3)
        var framed = MP3Sniff(limit: 1024)
        let before = framed.read([0x00, 0x12])
        let frame = framed.read([0xFF, 0xFB, 0x90, 0x64])
        #expect(before == .unsure && frame == .mp3)
        var text = MP3Sniff(limit: 1024)
        let first = text.read([UInt8](repeating: 0x61, count: 600))
        let second = text.read([UInt8](repeating: 0x61, count: 600))
        #expect(first == .unsure && second == .notMP3)
        // A "sync" with a reserved version or a bad bitrate is no frame.
        var fake = MP3Sniff(limit: 8)
        let reserved = fake.read([0xFF, 0xEB, 0xF0, 0, 0, 0, 0, 0, 0])
        #expect(reserved == .notMP3)
    }

    @Test func theBitrateCapAllowsABurstAndCatchesAFlood() {
        var steady = SourceBitrate(capKbps: 128, windowMillis: 10_000, burstBytes: 64_000)
        var over = false
        for second in 0..<60 { over = over || steady.add(16_000, at: EpochMillis(second) * 1000) }
        #expect(!over)
        var burst = SourceBitrate(capKbps: 128, windowMillis: 10_000, burstBytes: 64_000)
        let burstOver = burst.add(64_000, at: 0)
        #expect(!burstOver)
        var flood = SourceBitrate(capKbps: 128, windowMillis: 10_000, burstBytes: 64_000)
        let floodOver = flood.add(16_000 * 10 + 64_001, at: 500)
        #expect(floodOver)
    }
}
