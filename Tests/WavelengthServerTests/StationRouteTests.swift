import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@Suite("Stations over HTTP", .timeLimit(.minutes(2)))
struct StationRouteTests {
    @Test func healthAnswersWhenReady() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body).contains("\"status\":\"ok\""))
        }
    }

    @Test func aFreshServerHasAStationOnTheDial() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let stations = try await client.execute(uri: "/api/stations", method: .get).decode([StationView].self)
            #expect(stations.count == 1)
            #expect(FrequencyDial.isWellFormed(stations[0].frequency))
            let byCode = try await client.execute(uri: "/api/frequencies/\(stations[0].frequency)", method: .get)
            #expect(try byCode.decode(StationView.self).id == stations[0].id)
        }
    }

    @Test func createListAndGetStations() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let body = ByteBuffer(string: #"{"name":"  Night Shift ","owner":"Ana"}"#)
            let created = try await client.execute(uri: "/api/stations", method: .post, body: body)
            #expect(created.status == .created)
            let response = try created.decode(CreateStationResponse.self)
            #expect(response.station.name == "Night Shift")
            #expect(response.ownerKey.count == 64)
            let fetched = try await client.execute(uri: "/api/stations/\(response.station.id)", method: .get)
            #expect(try fetched.decode(StationView.self).frequency == response.station.frequency)
            let all = try await client.execute(uri: "/api/stations", method: .get).decode([StationView].self)
            #expect(all.count == 2)
            // The key is never stored in the clear.
            let database = try Data(contentsOf: URL(fileURLWithPath: server.services.configuration.databasePath))
            #expect(database.range(of: Data(response.ownerKey.utf8)) == nil)
        }
    }

    @Test func badStationRequestsAreRefusedWithJSON() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let cases: [(String, HTTPRequest.Method, String?, HTTPResponse.Status, String)] = [
                ("/api/stations", .post, "{nope", .badRequest, "bad_request"),
                ("/api/stations", .post, #"{"name":""}"#, .badRequest, "invalid_name"),
                ("/api/stations", .post, #"{"name":"\#(String(repeating: "x", count: 81))"}"#, .badRequest, "invalid_name"),
                ("/api/stations", .post, #"{"title":"x"}"#, .badRequest, "bad_request"),
                ("/api/stations/nope", .get, nil, .notFound, "not_found"),
                ("/api/stations/\(String(repeating: "a", count: 65))", .get, nil, .badRequest, "invalid_id"),
                ("/api/frequencies/999.9", .get, nil, .notFound, "not_found"),
                ("/api/stations/x/timeline?history=9999", .get, nil, .badRequest, "bad_request"),
            ]
            for (uri, method, body, status, code) in cases {
                let response = try await client.execute(uri: uri, method: method, body: body.map { ByteBuffer(string: $0) })
                #expect(response.status == status, "\(method) \(uri)")
                #expect(response.errorCode == code, "\(method) \(uri)")
            }
            let huge = ByteBuffer(string: #"{"name":""# + String(repeating: "x", count: 20_000) + #""}"#)
            let tooLarge = try await client.execute(uri: "/api/stations", method: .post, body: huge)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.errorCode == "too_large")
            let stations = try await client.execute(uri: "/api/stations", method: .get).decode([StationView].self)
            #expect(stations.count == 1)
        }
    }

    @Test func djCommandsNeedTheOwnerKey() async throws {
        let server = try await TestServer.make()
        let (station, key) = try server.firstStation()
        try await server.application().test(.router) { client in
            let track = try await client.firstTrack(matching: "cafe")
            let noKey = try await client.command(station, key: nil, id: "c1", .append(trackID: track.id))
            #expect(noKey.status == .forbidden)
            let wrongKey = try await client.command(station, key: "0000", id: "c1", .append(trackID: track.id))
            #expect(wrongKey.status == .forbidden)
            #expect(try await client.timeline(station).revision == 0)
            let ok = try await client.command(station, key: key, id: "c1", .append(trackID: track.id))
            #expect(ok.status == .ok)
            #expect(try ok.decode(CommandAck.self).revision == 1)
        }
    }

    @Test func aResentCommandIsAppliedOnce() async throws {
        let server = try await TestServer.make()
        let (station, key) = try server.firstStation()
        try await server.application().test(.router) { client in
            let track = try await client.firstTrack(matching: "cafe")
            let first = try await client.command(station, key: key, id: "same", .append(trackID: track.id)).decode(CommandAck.self)
            let again = try await client.command(station, key: key, id: "same", .append(trackID: track.id)).decode(CommandAck.self)
            #expect(first == CommandAck(id: "same", revision: 1, duplicate: false))
            #expect(again == CommandAck(id: "same", revision: 1, duplicate: true))
            let window = try await client.timeline(station)
            #expect(window.revision == 1)
            #expect(([window.current].compactMap { $0 } + window.upNext).count == 1)
        }
    }

    @Test func everyDJOperationOverHTTP() async throws {
        let server = try await TestServer.make()
        let (station, key) = try server.firstStation()
        try await server.application().test(.router) { client in
            let a = try await client.firstTrack(matching: "cafe")
            let b = try await client.firstTrack(matching: "nandu")
            let c = try await client.firstTrack(matching: "reel")
            for (i, track) in [a, b, c].enumerated() {
                try await client.command(station, key: key, id: "add\(i)", .append(trackID: track.id))
            }
            var window = try await client.timeline(station)
            #expect(window.current?.track.id == a.id)
            #expect(window.upNext.map(\.track.id) == [b.id, c.id])
            #expect(window.upNext[0].start == window.current!.expiration)

            // Up Next goes after the current track and after DJ picks already lined up.
            try await client.command(station, key: key, id: "next", .queueNext(trackID: c.id))
            window = try await client.timeline(station)
            #expect(window.upNext.map(\.track.id) == [b.id, c.id, c.id])

            let last = window.upNext[2].id
            try await client.command(station, key: key, id: "move", .move(entryID: last, toIndex: 0))
            window = try await client.timeline(station)
            #expect(window.upNext.map(\.id).first == last)
            #expect(window.upNext[0].start == window.current!.expiration)

            try await client.command(station, key: key, id: "remove", .remove(entryID: last))
            window = try await client.timeline(station)
            #expect(window.upNext.map(\.track.id) == [b.id, c.id])

            let playing = window.current!.id
            try await client.command(station, key: key, id: "skip", .skip(entryID: playing))
            window = try await client.timeline(station)
            #expect(window.current?.track.id == b.id)
            #expect(window.history.first?.id == playing)
            #expect(window.revision == 7)
        }
    }

    @Test func refusedOperationsChangeNothing() async throws {
        let server = try await TestServer.make()
        let (station, key) = try server.firstStation()
        try await server.application().test(.router) { client in
            let a = try await client.firstTrack(matching: "cafe")
            try await client.command(station, key: key, id: "a1", .append(trackID: a.id))
            try await client.command(station, key: key, id: "a2", .append(trackID: a.id))
            let playing = try await client.timeline(station).current!.id
            try await client.command(station, key: key, id: "skip", .skip(entryID: playing))
            let before = try await client.timeline(station)

            let cases: [(StationCommand, HTTPResponse.Status, String)] = [
                (.remove(entryID: playing), .conflict, "already_played"),
                (.skip(entryID: playing), .conflict, "already_played"),
                (.move(entryID: playing, toIndex: 0), .conflict, "already_played"),
                (.remove(entryID: before.current!.id), .conflict, "entry_is_playing"),
                (.remove(entryID: "nope"), .notFound, "unknown_entry"),
                (.append(trackID: "nope"), .notFound, "unknown_track"),
                (.move(entryID: before.current!.id, toIndex: 5), .conflict, "entry_is_playing"),
            ]
            for (i, (command, status, code)) in cases.enumerated() {
                let response = try await client.command(station, key: key, id: "bad\(i)", command)
                #expect(response.status == status, "\(command)")
                #expect(response.errorCode == code, "\(command)")
            }
            let malformed = [
                #"{"id":"x","command":{"op":"explode"}}"#, #"{"id":"x"}"#, #"{"id":"","command":{"op":"skip"}}"#, "[]", "",
            ]
            for body in malformed {
                let response = try await client.execute(
                    uri: "/api/stations/\(station)/commands", method: .post, headers: [.authorization: "Bearer \(key)"],
                    body: ByteBuffer(string: body))
                #expect(response.status == .badRequest, "\(body)")
            }
            let after = try await client.timeline(station)
            #expect(after.revision == before.revision)
            #expect(after.upNext == before.upNext)
        }
    }

    @Test func historyAnswersWhatWasOn() async throws {
        let server = try await TestServer.make()
        let (station, key) = try server.firstStation()
        try await server.application().test(.router) { client in
            let a = try await client.firstTrack(matching: "cafe")
            try await client.command(station, key: key, id: "a1", .append(trackID: a.id))
            try await client.command(station, key: key, id: "a2", .append(trackID: a.id))
            let playing = try await client.timeline(station).current!
            try await client.command(station, key: key, id: "skip", .skip(entryID: playing.id))
            let history = try await client.execute(uri: "/api/stations/\(station)/history?limit=5", method: .get)
                .decode([EntryView].self)
            #expect(history.map(\.id) == [playing.id])
            #expect(history[0].track.title == a.title)
            let before = try await client.execute(
                uri: "/api/stations/\(station)/history?before=\(playing.start)", method: .get
            ).decode([EntryView].self)
            #expect(before.isEmpty)
        }
    }
}

@Suite("Station access")
struct StationAccessTests {
    @Test func theRoleFollowsTheOwnerKey() async throws {
        let server = try await TestServer.make()
        let (station, key) = try server.firstStation()
        try await server.application().test(.router) { client in
            let anonymous = try await client.execute(uri: "/api/stations/\(station)/access", method: .get)
            #expect(try anonymous.decode(StationAccess.self).role == .listener)
            let wrong = try await client.execute(
                uri: "/api/stations/\(station)/access", method: .get, headers: [.authorization: "Bearer nope"])
            #expect(try wrong.decode(StationAccess.self).role == .listener)
            let owner = try await client.execute(
                uri: "/api/stations/\(station)/access", method: .get, headers: [.authorization: "Bearer \(key)"])
            #expect(try owner.decode(StationAccess.self).role == .owner)
        }
    }
}
