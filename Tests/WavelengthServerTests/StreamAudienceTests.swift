import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// The station's one count with stream players in it: each person once,
/// relays apart, and a player that vanished without closing gone from the
/// count once its writes stall.
@Suite("Stream listeners in the count", .timeLimit(.minutes(5)))
struct StreamAudienceTests {
    static func play(_ port: Int, _ path: String, agent: String) async throws -> StreamPlayerSocket {
        try await StreamPlayerSocket.open(port: port, path: path, userAgent: agent)
    }

    @Test func playersCountOncePerAddressAndPlayerAndRelaysApart() async throws {
        let server = try await TestServer.make()
        let station = try server.firstStation().id
        try await server.application().test(.live) { client in
            let port = client.port!
            let app = LiveClient(port: port, path: "/api/stations/\(station)/live?v=1")
            _ = try await app.snapshot()
            let path = "/stream/\(station).mp3"
            let vlc = try await Self.play(port, path, agent: "VLC/3.0.20 LibVLC/3.0.20")
            try await app.listeners(2)
            // The same player from the same address again: the same listener.
            let vlcAgain = try await Self.play(port, path, agent: "VLC/3.0.20 LibVLC/3.0.20")
            let relay = try await Self.play(port, path, agent: "Icecast 2.4.4")
            let hub = try #require(try await server.services.directory.hub(id: station))
            #expect(await hub.audience == Audience.Counts(listeners: 2, app: 1, stream: 2, relays: 1, bots: 0))
            let mpv = try await Self.play(port, path, agent: "mpv 0.37.0")
            try await app.listeners(3)

            // Icecast's status page says the same count.
            let status = try await client.execute(uri: "/status-json.xsl", method: .get)
            #expect(status.headers[.contentType] == "application/json; charset=utf-8")
            let source = try #require(try status.decode(IcecastStatus.self).icestats.sources.first)
            #expect(source.listeners == 3)
            #expect(source.listenerPeak == 3)
            // By id, as stream links are: a frequency can be given back.
            #expect(source.listenURL.hasSuffix("/stream/\(station).mp3"))
            #expect(source.bitrate == 128)
            #expect(source.serverName == "Wavelength Radio")
            #expect(!source.title.isEmpty)
            withExtendedLifetime((vlc, vlcAgain, relay, mpv)) {}
        }
    }

    /// One address opened 256 signed-out sockets and counted as 256
    /// listeners. Now its signed-out app connections, devices and players
    /// count at most `Audience.anonymousPerAddress` together, and a person
    /// signed in behind the same address is one more.
    @Test func oneAddressCountsAsAFewSignedOutListenersNotACrowd() async throws {
        let server = try await TestServer.make()
        let station = try server.firstStation().id
        let cap = Audience.anonymousPerAddress
        try await server.application().test(.live) { client in
            let port = client.port!
            let person = try await client.signUp(name: "Ada")
            let watcher = LiveClient(port: port, path: "/api/stations/\(station)/live?v=1", token: person.token)
            _ = try await watcher.snapshot()
            var apps: [LiveClient] = []
            for n in 0..<(cap + 4) {
                let key = n % 2 == 0 ? "&listener=device-key-\(n)-of-a-crowd" : ""
                let app = LiveClient(port: port, path: "/api/stations/\(station)/live?v=1\(key)")
                _ = try await app.snapshot()
                apps.append(app)
            }
            var players: [StreamPlayerSocket] = []
            for n in 0..<4 { players.append(try await Self.play(port, "/stream/\(station).mp3", agent: "Player \(n)")) }
            try await watcher.listeners(cap + 1)
            let hub = try #require(try await server.services.directory.hub(id: station))
            #expect(await hub.audience.listeners == cap + 1)
            #expect(await hub.audience.app == cap + 5)
            // No count on the way went past it.
            let counts = await watcher.seenListenerCounts()
            #expect(counts.allSatisfy { $0 <= cap + 1 }, "\(counts)")

            // Twelve of the address's 24 leave: its other 12 count again.
            for app in apps.prefix(12) { app.close() }
            try await watcher.listeners(12 + 1)
            withExtendedLifetime((apps, players)) {}
        }
    }

    /// The web app plays a live show through the station's relay: a
    /// signed-out listener is then a connection on one side and an address
    /// on the other, unless both say the same device key.
    @Test func aSignedOutDevicesAppAndPlayerAreOneListener() async throws {
        let server = try await TestServer.make()
        let station = try server.firstStation().id
        try await server.application().test(.live) { client in
            let port = client.port!
            let key = "Kx3-9_fQ2rTz8wLm0aBcDe"
            let app = LiveClient(port: port, path: "/api/stations/\(station)/live?v=1&listener=\(key)")
            _ = try await app.snapshot()
            let path = "/stream/\(station).mp3"
            // Counted before its first byte came (see `StreamPlayerSocket`);
            // no `listeners` message, since the count did not change.
            let player = try await Self.play(port, path + "?listener=\(key)", agent: "Chromium")
            let hub = try #require(try await server.services.directory.hub(id: station))
            #expect(await hub.audience == Audience.Counts(listeners: 1, app: 1, stream: 1, relays: 0, bots: 0))

            // Another device's key, and none: listeners of their own.
            let other = try await Self.play(port, path + "?listener=another-device-key", agent: "Chromium")
            try await app.listeners(2)
            let keyless = try await Self.play(port, path, agent: "Firefox")
            try await app.listeners(3)

            // Not a key: refused, on the stream and on the WebSocket. (A
            // stream's connection closes after a refusal, as Icecast's does:
            // a client of its own each time.)
            for bad in ["short", String(repeating: "k", count: 65), "has%20space", "%3Cscript%3E1234"] {
                let stream = try await HTTPClient.shared.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)?listener=\(bad)"), timeout: .seconds(30))
                #expect(stream.status == .badRequest, "\(bad)")
                let live = try await client.execute(uri: "/api/stations/\(station)/live?listener=" + bad, method: .get)
                #expect(live.status == .badRequest, "\(bad)")
            }
            withExtendedLifetime((player, other, keyless)) {}
        }
    }

    /// A player that stops reading without closing (no FIN, no RST) stays a
    /// TCP connection for many minutes; the count lets it go once a write
    /// has not finished for the stall timeout.
    @Test func aPlayerThatVanishesWithoutClosingLeavesTheCount() async throws {
        let server = try await TestServer.make { $0.streamStallTimeout = .seconds(1) }
        let station = try server.firstStation().id
        try await server.application().test(.live) { client in
            let port = client.port!
            let app = LiveClient(port: port, path: "/api/stations/\(station)/live?v=1")
            _ = try await app.snapshot()
            let gone = try await StreamPlayerSocket.open(
                port: port, path: "/stream/\(station).mp3", userAgent: "Sonos", tinyBuffer: true)
            try await app.listeners(2)
            let counted = ContinuousClock.now
            try await app.listeners(1)
            // A figure, not a check: the player stopped reading at once, and
            // the stall timeout here is 1 s (15 s when serving).
            print("a player that vanished left the count \(ContinuousClock.now - counted) after it was counted")
            let stream = server.services.streams.stream(for: try #require(try await server.services.directory.hub(id: station)))
            #expect(await stream.dropped == 1)
            withExtendedLifetime(gone) {}
        }
    }
}
