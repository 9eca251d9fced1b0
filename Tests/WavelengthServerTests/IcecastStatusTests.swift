import Foundation
import Testing
import WavelengthWire

@testable import WavelengthServer

/// The status document in Icecast 2.4's shape, as widgets read it.
@Suite("Icecast status")
struct IcecastStatusTests {
    static func source(_ name: String, listeners: Int) -> IcecastStatus.Source {
        IcecastStatus.Source(
            audioInfo: "channels=2;samplerate=44100;bitrate=128", bitrate: 128, genre: "Various",
            listenerPeak: listeners + 1, listeners: listeners, listenURL: "http://radio.example/stream/\(name).mp3",
            serverDescription: "A station", serverName: name, serverType: "audio/mpeg", serverURL: "http://radio.example",
            streamStart: "Mon, 23 Nov 2026 18:49:13 +0000", streamStartISO8601: "2026-11-23T18:49:13+0000",
            title: "Nordlys Trio - Fjord Loop", artist: "Nordlys Trio")
    }

    static func json(_ sources: [IcecastStatus.Source]) throws -> [String: Any] {
        let status = IcecastStatus(icestats: .init(
            admin: "admin@radio.example", host: "radio.example", location: "Davis", serverID: "Wavelength",
            serverStart: "Mon, 23 Nov 2026 18:00:00 +0000", serverStartISO8601: "2026-11-23T18:00:00+0000",
            sources: sources))
        let data = try JSONEncoder().encode(status)
        #expect(try JSONDecoder().decode(IcecastStatus.self, from: data) == status)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["icestats"] as? [String: Any])
    }

    @Test func oneMountIsAnObjectWithIcecastsFieldNames() throws {
        let stats = try Self.json([Self.source("90.3", listeners: 2)])
        let source = try #require(stats["source"] as? [String: Any])
        for key in ["audio_info", "bitrate", "genre", "listener_peak", "listeners", "listenurl", "server_description",
                    "server_name", "server_type", "server_url", "stream_start", "stream_start_iso8601", "title", "artist"] {
            #expect(source[key] != nil, "no \(key)")
        }
        #expect(source["listeners"] as? Int == 2)
        #expect(stats["server_start_iso8601"] as? String == "2026-11-23T18:00:00+0000")
    }

    @Test func severalMountsAreAnArrayAndNoneIsNoSource() throws {
        let two = try Self.json([Self.source("90.3", listeners: 2), Self.source("91.1", listeners: 0)])
        #expect((two["source"] as? [[String: Any]])?.count == 2)
        let none = try Self.json([])
        #expect(none["source"] == nil)
    }

    /// Widgets written for Icecast parse these as Icecast writes them.
    @Test func datesAndTheHostAreWrittenAsIcecastWritesThem() {
        let date = Date(timeIntervalSince1970: 1_795_729_796)
        #expect(StatusController.iso8601(date) == "2026-11-26T21:49:56+0000")
        #expect(StatusController.rfc822(date) == "Thu, 26 Nov 2026 21:49:56 +0000")
        #expect(StatusController.hostName(publicURL: nil, authority: "radio.example:8080") == "radio.example")
        #expect(StatusController.hostName(publicURL: nil, authority: "[::1]:8080") == "[::1]")
        #expect(StatusController.hostName(publicURL: "https://radio.example/", authority: "10.0.0.2:8080") == "radio.example")
        #expect(StatusController.hostName(publicURL: nil, authority: nil) == "localhost")
    }
}
