import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@Suite("Stations over HTTP", .timeLimit(.minutes(5)))
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
            let frequency = try #require(stations[0].frequency)
            #expect(FrequencyDial.isWellFormed(frequency))
            #expect(stations[0].visibility == .public)
            // It belongs to nobody until someone claims it with its owner key.
            #expect(stations[0].ownerID == nil)
            let byCode = try await client.execute(uri: "/api/frequencies/\(frequency)", method: .get)
            #expect(try byCode.decode(StationView.self).id == stations[0].id)
        }
    }

    @Test func createListAndGetStations() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let body = #"{"name":"  Night Shift ","owner":"Mallory"}"#
            // Only a signed-in user starts stations; a guest is asked to sign up.
            let anonymous = try await client.send("/api/stations", .post, as: nil, raw: body)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.errorCode == "sign_in_required")
            let guest = try await client.guest("Visitor")
            let asGuest = try await client.send("/api/stations", .post, as: guest, raw: body)
            #expect(asGuest.status == .unauthorized)
            #expect(asGuest.errorCode == "sign_in_required")

            let ana = try await client.signUp(name: "Ana")
            let created = try await client.send("/api/stations", .post, as: ana, raw: body)
            #expect(created.status == .created)
            let response = try created.decode(CreateStationResponse.self)
            #expect(response.station.name == "Night Shift")
            // The creator owns it (the "owner" in the body is ignored), and it is public.
            #expect(response.station.ownerID == ana.id)
            #expect(response.station.owner == "Ana")
            #expect(response.station.role == .owner)
            #expect(response.station.visibility == .public)
            #expect(response.station.id != ana.stationID)
            let frequency = try #require(response.station.frequency)
            #expect(FrequencyDial.isWellFormed(frequency))
            let fetched = try await client.execute(uri: "/api/stations/\(response.station.id)", method: .get)
            #expect(try fetched.decode(StationView.self).frequency == response.station.frequency)
            // The first station, Ana's own and the new one.
            let all = try await client.execute(uri: "/api/stations", method: .get).decode([StationView].self)
            #expect(all.count == 3)
            #expect(Set(all.map(\.id)).isSuperset(of: [ana.stationID, response.station.id]))
            // The owner, and nobody else, runs it.
            let track = try await client.firstTrack(matching: "cafe")
            let mine = try await client.command(response.station.id, key: ana.token, id: "n1", .append(trackID: track.id))
            #expect(mine.status == .ok)
            let other = try await client.signUp()
            let theirs = try await client.command(response.station.id, key: other.token, id: "n2", .append(trackID: track.id))
            #expect(theirs.status == .forbidden)
        }
    }

    @Test func badStationRequestsAreRefusedWithJSON() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let user = try await client.signUp()
            let cases: [(String, HTTPRequest.Method, String?, HTTPResponse.Status, String)] = [
                ("/api/stations", .post, "{nope", .badRequest, "bad_request"),
                ("/api/stations", .post, #"{"name":""}"#, .badRequest, "invalid_name"),
                ("/api/stations", .post, #"{"name":"\#(String(repeating: "x", count: 81))"}"#, .badRequest, "invalid_name"),
                ("/api/stations", .post, #"{"name":"   "}"#, .badRequest, "invalid_name"),
                ("/api/stations", .post, #"{"name":"bell\u0007"}"#, .badRequest, "invalid_name"),
                ("/api/stations", .post, #"{"title":"x"}"#, .badRequest, "bad_request"),
                ("/api/stations/nope", .get, nil, .notFound, "not_found"),
                ("/api/stations/\(String(repeating: "a", count: 65))", .get, nil, .badRequest, "invalid_id"),
                ("/api/frequencies/999.9", .get, nil, .notFound, "not_found"),
                ("/api/stations/x/timeline?history=9999", .get, nil, .badRequest, "bad_request"),
            ]
            for (uri, method, body, status, code) in cases {
                let response = try await client.send(uri, method, as: user, raw: body)
                #expect(response.status == status, "\(method) \(uri)")
                #expect(response.errorCode == code, "\(method) \(uri)")
            }
            let huge = #"{"name":""# + String(repeating: "x", count: 20_000) + #""}"#
            let tooLarge = try await client.send("/api/stations", .post, as: user, raw: huge)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.errorCode == "too_large")
            // Nothing was created: the first station and the user's own.
            let stations = try await client.execute(uri: "/api/stations", method: .get).decode([StationView].self)
            #expect(stations.count == 2)
        }
    }

    @Test func djCommandsNeedTheOwner() async throws {
        let server = try await TestServer.make()
        let (first, ownerKey) = try server.firstStation()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
            let track = try await client.firstTrack(matching: "cafe")
            let noKey = try await client.command(station, key: nil, id: "c1", .append(trackID: track.id))
            #expect(noKey.status == .unauthorized)
            #expect(noKey.errorCode == "sign_in_required")
            let wrongKey = try await client.command(station, key: "0000", id: "c1", .append(trackID: track.id))
            #expect(wrongKey.status == .unauthorized)
            #expect(wrongKey.errorCode == "invalid_token")
            let listener = try await client.signUp()
            let notTheOwner = try await client.command(station, key: listener.token, id: "c1", .append(trackID: track.id))
            #expect(notTheOwner.status == .forbidden)
            #expect(notTheOwner.errorCode == "forbidden")
            let guest = try await client.guest("Drive-by")
            let asGuest = try await client.command(station, key: guest.token, id: "c1", .append(trackID: track.id))
            #expect(asGuest.status == .forbidden)
            // Owner keys are retired: the first station's key is no credential.
            let oldKey = try await client.command(first, key: ownerKey, id: "c1", .append(trackID: track.id))
            #expect(oldKey.status == .unauthorized)
            #expect(try await client.timeline(first).revision == 0)
            #expect(try await client.timeline(station).revision == 0)
            let ok = try await client.command(station, key: key, id: "c1", .append(trackID: track.id))
            #expect(ok.status == .ok)
            #expect(try ok.decode(CommandAck.self).revision == 1)
        }
    }

    @Test func aResentCommandIsAppliedOnce() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
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
        // On a clock that stands still: the test library's songs last
        // seconds, and on a loaded machine the first could end mid-test.
        let clock = ManualClock.startingNow()
        let server = try await TestServer.make(clock: clock.wall)
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
            let a = try await client.firstTrack(matching: "cafe")
            let b = try await client.firstTrack(matching: "nandu")
            let c = try await client.firstTrack(matching: "reel")
            for (i, track) in [a, b, c].enumerated() {
                try await client.command(station, key: key, id: "add\(i)", .append(trackID: track.id))
            }
            var window = try await client.timeline(station)
            #expect(window.current?.track.id == a.id)
            try #require(window.upNext.map(\.track.id) == [b.id, c.id])
            #expect(window.upNext[0].start == window.current?.expiration)

            // Up Next goes after the current track and after DJ picks already lined up.
            try await client.command(station, key: key, id: "next", .queueNext(trackID: c.id))
            window = try await client.timeline(station)
            try #require(window.upNext.map(\.track.id) == [b.id, c.id, c.id])

            let last = window.upNext[2].id
            try await client.command(station, key: key, id: "move", .move(entryID: last, toIndex: 0))
            window = try await client.timeline(station)
            try #require(window.upNext.map(\.id).first == last)
            #expect(window.upNext[0].start == window.current?.expiration)

            try await client.command(station, key: key, id: "remove", .remove(entryID: last))
            window = try await client.timeline(station)
            #expect(window.upNext.map(\.track.id) == [b.id, c.id])

            let playing = try #require(window.current).id
            // A second into the song, so it has played and goes to history.
            clock.advance(by: .seconds(1))
            try await client.command(station, key: key, id: "skip", .skip(entryID: playing))
            window = try await client.timeline(station)
            #expect(window.current?.track.id == b.id)
            #expect(window.history.first?.id == playing)
            #expect(window.revision == 7)
        }
    }

    @Test func refusedOperationsChangeNothing() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
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
                    uri: "/api/stations/\(station)/commands", method: .post,
                    headers: [.authorization: "Bearer \(key)", .contentType: "application/json"], body: ByteBuffer(string: body))
                #expect(response.status == .badRequest, "\(body)")
            }
            let after = try await client.timeline(station)
            #expect(after.revision == before.revision)
            #expect(after.upNext == before.upNext)
        }
    }

    @Test func historyAnswersWhatWasOn() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
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
    @Test func theRoleFollowsThePerson() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let friend = try await client.signUp()
            let fan = try await client.signUp()
            let station = owner.stationID
            func access(_ account: TestAccount?) async throws -> StationAccess {
                try await client.send("/api/stations/\(station)/access", .get, as: account).decode(StationAccess.self)
            }
            // A public station: anyone may listen, even without a session.
            #expect(try await access(nil) == StationAccess(role: .listener, canListen: true, reason: nil))
            #expect(try await access(fan) == StationAccess(role: .listener, canListen: true, reason: nil))
            #expect(try await access(owner) == StationAccess(role: .owner, canListen: true, reason: nil))
            // A bearer token that isn't one is refused, not taken for anonymous.
            let wrong = try await client.execute(
                uri: "/api/stations/\(station)/access", method: .get, headers: [.authorization: "Bearer nope"])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.errorCode == "invalid_token")
            // A co-DJ, named by the owner.
            #expect(try await access(friend).role == .listener)
            try await client.makeCoDJ(friend, on: station, by: owner)
            #expect(try await access(friend) == StationAccess(role: .codj, canListen: true, reason: nil))
            // The role shows in the station view too.
            let seen = try await client.send("/api/stations/\(station)", .get, as: friend).decode(StationView.self)
            #expect(seen.role == .codj)
            #expect(seen.ownerID == owner.id)
            #expect(seen.visibility == .public)
        }
    }

    @Test func theFirstStationsKeyClaimsItOnce() async throws {
        let server = try await TestServer.make()
        let (station, key) = try server.firstStation()
        try await server.application().test(.router) { client in
            let ana = try await client.signUp(name: "Ana")
            let bo = try await client.signUp()
            // Nobody owns it yet: not even whoever holds the key can command.
            #expect(try await client.send("/api/stations/\(station)/access", .get, as: ana).decode(StationAccess.self).role == .listener)
            let track = try await client.firstTrack(matching: "cafe")
            #expect(try await client.command(station, key: ana.token, id: "c0", .append(trackID: track.id)).status == .forbidden)
            // Claiming needs a signed-in user and the right key.
            let anonymous = try await client.send("/api/stations/\(station)/claim", .post, body: ClaimRequest(key: key))
            #expect(anonymous.status == .unauthorized)
            let wrong = try await client.send("/api/stations/\(station)/claim", .post, as: ana, body: ClaimRequest(key: "0000"))
            #expect(wrong.status == .forbidden)
            #expect(wrong.errorCode == "wrong_key")
            let claimed = try await client.send("/api/stations/\(station)/claim", .post, as: ana, body: ClaimRequest(key: key))
            #expect(claimed.status == .ok)
            let view = try claimed.decode(StationView.self)
            #expect(view.ownerID == ana.id)
            #expect(view.owner == "Ana")
            #expect(view.role == .owner)
            // The role follows the key's new owner.
            #expect(try await client.send("/api/stations/\(station)/access", .get, as: ana).decode(StationAccess.self).role == .owner)
            #expect(try await client.send("/api/stations/\(station)/access", .get).decode(StationAccess.self).role == .listener)
            #expect(try await client.command(station, key: ana.token, id: "c1", .append(trackID: track.id)).status == .ok)
            // The key is then void.
            let again = try await client.send("/api/stations/\(station)/claim", .post, as: bo, body: ClaimRequest(key: key))
            #expect(again.status == .forbidden)
            #expect(try await client.send("/api/stations/\(station)/access", .get, as: bo).decode(StationAccess.self).role == .listener)
            // The key is never stored in the clear (in the database or its write-ahead log).
            let path = server.services.configuration.databasePath
            for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
                let contents = try Data(contentsOf: URL(fileURLWithPath: file))
                #expect(contents.range(of: Data(key.utf8)) == nil, "\(file)")
            }
        }
    }
}
