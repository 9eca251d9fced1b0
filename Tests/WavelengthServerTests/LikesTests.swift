import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthSQLite
import WavelengthWire

/// Liked songs and thumbs over HTTP.
@Suite("Liked songs and thumbs", .timeLimit(.minutes(5)))
struct LikesTests {
    @Test func aGuestSavesSongsAndTakesThemBack() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let ann = try await client.guest("Ann")
            let tracks = try await client.execute(uri: "/api/library/tracks?limit=3", method: .get).decode([TrackSummary].self)
            #expect(try await client.send("/api/me/likes/\(tracks[0].id)", .put).status == .unauthorized)
            for track in tracks.prefix(2) {
                let liked = try await client.send("/api/me/likes/\(track.id)", .put, as: ann)
                #expect(liked.status == .ok)
            }
            // Twice is once.
            #expect(try await client.send("/api/me/likes/\(tracks[0].id)", .put, as: ann).status == .ok)
            let missing = try await client.send("/api/me/likes/no-such-track", .put, as: ann)
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "unknown_track")
            var mine = try await client.send("/api/me/likes", .get, as: ann).decode([TrackSummary].self)
            #expect(Set(mine.map(\.id)) == Set(tracks.prefix(2).map(\.id)))
            #expect(try await client.send("/api/me/likes/\(tracks[0].id)", .delete, as: ann).status == .noContent)
            mine = try await client.send("/api/me/likes", .get, as: ann).decode([TrackSummary].self)
            #expect(mine.map(\.id) == [tracks[1].id])
            // Someone else's list is their own.
            let bo = try await client.guest("Bo")
            #expect(try await client.send("/api/me/likes", .get, as: bo).decode([TrackSummary].self).isEmpty)
        }
    }

    @Test func theLikeLimitHoldsUnderConcurrentSaves() async throws {
        let server = try await TestServer.make()
        let database = server.storage
        let person = try await server.application().test(.router) { client in try await client.guest("Hoarder").person.id }
        let limit = 5
        let saved = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask { (try? await database.like(personID: person, trackID: "t\(index)", at: 1, limit: limit)) ?? false }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(saved == limit)
        #expect(try await database.likedTracks(personID: person, limit: 100).count == limit)
    }

    @Test func aThumbIsSavedWithItsCommand() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let host = try await client.signUp()
            let station = host.stationID
            let ann = try await client.guest("Ann")
            let hostSocket = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: host.token)
            _ = try await hostSocket.snapshot()
            try hostSocket.send(.command(CommandRequest(id: "hold", command: .pause)))
            _ = try await hostSocket.ack("hold")
            let playing = try #require(try await client.timeline(station).current)
            let thumb = try await client.send(
                "/api/stations/\(station)/commands", .post, as: ann,
                body: CommandRequest(id: "t1", command: .thumb(entryID: playing.id, up: true)))
            #expect(thumb.status == .ok)
            let counts = try await hostSocket.next { $0.type == "thumbs" }
            #expect(counts == .thumbs(entryID: playing.id, up: 1, down: 0))
            let saved = try await server.storage.thumbs(stationID: station, limit: 10)
            #expect(saved.map(\.trackID) == [playing.track.id])
            #expect(saved.first?.up == true)
            hostSocket.close()
        }
    }
}
