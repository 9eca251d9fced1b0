import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// A station that isn't public streams only through its listeners' own
/// links: a token in the URL for players that can't send headers, one per
/// person, replaced by a new one and revocable.
@Suite("Stream links for private stations", .timeLimit(.minutes(5)))
struct StreamLinkTests {
    @Test func aPrivateStationStreamsOnlyThroughALiveLink() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let host = try await client.signUp()
            let station = host.stationID
            let patched = try await client.send(
                "/api/stations/\(station)", .patch, as: host, body: StationSettingsPatch(visibility: .invite))
            #expect(patched.status == .ok)

            let bare = try await client.execute(uri: "/stream/\(station).m3u", method: .get)
            #expect(bare.status == .forbidden || bare.status == .unauthorized)
            let stranger = try await client.signUp()
            #expect(try await client.send("/api/stations/\(station)/stream-link", .post, as: stranger).status == .forbidden)

            let issued = try await client.send("/api/stations/\(station)/stream-link", .post, as: host)
            #expect(issued.status == .ok)
            let link = try issued.decode(StreamLink.self)
            let token = try #require(link.token)
            #expect(link.mp3.hasSuffix("/stream/\(station).mp3?token=\(token)"))
            let playlist = try await client.execute(uri: "/stream/\(station).m3u?token=\(token)", method: .get)
            #expect(playlist.status == .ok)
            #expect(String(buffer: playlist.body).contains("/stream/\(station).mp3?token=\(token)"))
            // A player with the link plays, and counts as the link's holder.
            let player = try await StreamPlayerSocket.open(
                port: client.port!, path: "/stream/\(station).mp3?token=\(token)", userAgent: "Car radio")
            let hub = try #require(try await server.services.directory.hub(id: station))
            #expect(await hub.audience.stream == 1)
            withExtendedLifetime(player) {}

            // A new link replaces the old; a revoked one opens nothing.
            let second = try await client.send("/api/stations/\(station)/stream-link", .post, as: host).decode(StreamLink.self)
            let old = try await client.execute(uri: "/stream/\(station).m3u?token=\(token)", method: .get)
            #expect(old.status == .forbidden)
            #expect(old.errorCode == "forbidden")
            #expect(try await client.send("/api/stations/\(station)/stream-link", .delete, as: host).status == .noContent)
            let revoked = try await client.execute(uri: "/stream/\(station).m3u?token=\(second.token!)", method: .get)
            #expect(revoked.status == .forbidden)
            #expect(try await client.send("/api/stations/\(station)/stream-link", .delete, as: host).status == .notFound)
            // A token for another station, or made up, opens nothing either.
            let other = try await client.execute(uri: "/stream/\(station).m3u?token=made-up", method: .get)
            #expect(other.status == .forbidden)
        }
    }

    @Test func aPublicStationsLinkNeedsNoToken() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let host = try await client.signUp()
            let link = try await client.send("/api/stations/\(host.stationID)/stream-link", .post, as: host).decode(StreamLink.self)
            #expect(link.token == nil)
            // By id: an address saved in a player outlives the frequency.
            #expect(link.m3u.hasSuffix("/stream/\(host.stationID).m3u"))
        }
    }
}
