import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// A show's hosts get exactly what the owner gave them: only the owner names
/// hosts, a host on the air runs the sound and the room and nothing more,
/// and a ban or a revoked co-DJ role wins over any show.
@Suite("Show hosts and roles", .timeLimit(.minutes(5)))
struct HostRolesTests {
    /// A one-off show that began ten minutes ago and runs an hour.
    static func showOnAir(hosts: [String], name: String = "Host Hour", minutes: Int = 60) -> ShowSpec {
        let began = ZonedTime.local(EpochMillis(Date().timeIntervalSince1970 * 1000) - 600_000, in: TimeZone(identifier: "UTC")!)
        return ShowSpec(
            name: name, hosts: hosts, timeZone: "UTC", startTime: began.time.description, durationMinutes: minutes,
            repeat: .init(kind: "once"), seasonStart: began.date.description)
    }

    @Test func onlyTheOwnerNamesHostsAndNeverSomeoneBanned() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let codj = try await client.signUp()
            let stranger = try await client.signUp()
            let banned = try await client.signUp()
            let station = "/api/stations/\(owner.stationID)"
            #expect(try await client.send("\(station)/codjs/\(codj.id)", .put, as: owner).status == .ok)
            #expect(
                try await client.send("\(station)/ban", .post, as: owner, body: PersonIDRequest(personID: banned.id)).status
                    == .noContent)

            // A co-DJ naming a stranger (or themselves) host is refused.
            let byCoDJ = try await client.send(
                "\(station)/shows", .post, as: codj, body: Self.showOnAir(hosts: [stranger.person.handle!]))
            #expect(byCoDJ.status == .forbidden)
            #expect(String(buffer: byCoDJ.body).contains("owner names"))
            // The owner names them; a co-DJ may edit the show, hosts untouched.
            let made = try await client.send(
                "\(station)/shows", .post, as: owner, body: Self.showOnAir(hosts: [stranger.person.handle!]))
            #expect(made.status == .created)
            let show = try made.decode(ShowView.self)
            let kept = try await client.send(
                "\(station)/shows/\(show.id)", .put, as: codj,
                body: Self.showOnAir(hosts: [stranger.person.handle!], name: "Renamed"))
            #expect(kept.status == .ok)
            let added = try await client.send(
                "\(station)/shows/\(show.id)", .put, as: codj,
                body: Self.showOnAir(hosts: [stranger.person.handle!, codj.person.handle!]))
            #expect(added.status == .forbidden)
            // Nobody names a banned person.
            let namedBanned = try await client.send(
                "\(station)/shows/\(show.id)", .put, as: owner, body: Self.showOnAir(hosts: [banned.person.handle!]))
            #expect(namedBanned.status == .conflict)
        }
    }

    /// A co-DJ finds the station on their dial, right after their own.
    @Test func aCoDJFindsTheStationOnTheirDial() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let codj = try await client.signUp()
            let before = try await client.send("/api/dial", .get, as: codj).decode(DialView.self)
            #expect(!before.sections.contains { $0.kind == "codj" })
            #expect(try await client.send("/api/stations/\(owner.stationID)/codjs/\(codj.id)", .put, as: owner).status == .ok)
            let dial = try await client.send("/api/dial", .get, as: codj).decode(DialView.self)
            #expect(dial.sections.prefix(2).map(\.kind) == ["own", "codj"])
            #expect(dial.sections[1].stations.map(\.id) == [owner.stationID])
            #expect(try await client.send("/api/stations/\(owner.stationID)/codjs/\(codj.id)", .delete, as: owner).status == .ok)
            let after = try await client.send("/api/dial", .get, as: codj).decode(DialView.self)
            #expect(!after.sections.contains { $0.kind == "codj" })
        }
    }

    @Test func aHostOnTheAirRunsTheSoundButNotTheStation() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let host = try await client.signUp()
            let station = "/api/stations/\(owner.stationID)"
            let made = try await client.send(
                "\(station)/shows", .post, as: owner, body: Self.showOnAir(hosts: [host.person.handle!]))
            let show = try made.decode(ShowView.self)
            let track = try await client.send("/api/library/tracks?limit=1", .get).decode([TrackSummary].self)[0]
            let command = CommandRequest(id: "h-\(UUID().uuidString)", command: .append(trackID: track.id))
            #expect(try await client.send("\(station)/commands", .post, as: host, body: command).status == .ok)
            // What only the owner gives: the code, invites, members, the schedule.
            #expect(try await client.send("\(station)/code", .get, as: host).status == .forbidden)
            #expect(try await client.send("\(station)/invites", .post, as: host, body: CreateInviteRequest()).status == .forbidden)
            #expect(try await client.send("\(station)/members", .get, as: host).status == .forbidden)
            let stretched = try await client.send(
                "\(station)/shows/\(show.id)", .put, as: host,
                body: Self.showOnAir(hosts: [host.person.handle!], minutes: 720))
            #expect(stretched.status == .forbidden)
        }
    }

    @Test func aRevokedCoDJKeepsNoShowAndABannedHostLeavesTheAir() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let host = try await client.signUp()
            let station = "/api/stations/\(owner.stationID)"
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            #expect(try await client.send("\(station)/codjs/\(host.id)", .put, as: owner).status == .ok)
            let made = try await client.send(
                "\(station)/shows", .post, as: owner, body: Self.showOnAir(hosts: [host.person.handle!]))
            let show = try made.decode(ShowView.self)
            // Revoked: no longer a host of any show, so no co-DJ rights.
            #expect(try await client.send("\(station)/codjs/\(host.id)", .delete, as: owner).status == .ok)
            let page = try await client.send("\(station)/shows/\(show.id)", .get, as: owner).decode(ShowPage.self)
            #expect(page.show.hosts.isEmpty)
            #expect(try await client.send("\(station)/code", .get, as: host).status == .forbidden)
            let track = try await client.send("/api/library/tracks?limit=1", .get).decode([TrackSummary].self)[0]
            let command = CommandRequest(id: "r-\(UUID().uuidString)", command: .append(trackID: track.id))
            #expect(try await client.send("\(station)/commands", .post, as: host, body: command).status == .forbidden)

            // Named again, they go live; banned, their source is cut and
            // they can't come back.
            let renamed = try await client.send(
                "\(station)/shows/\(show.id)", .put, as: owner, body: Self.showOnAir(hosts: [host.person.handle!]))
            #expect(renamed.status == .ok)
            let key = try await LiveSourceTests.key(client, host)
            let socket = try await SourceSocket(port: port)
            try await socket.send(SourceSocket.head(station: owner.stationID, key: key))
            #expect(try await socket.answerHead() == "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\n")
            _ = try await LiveSourceTests.waitFor(client, owner.stationID, onAir: true)
            #expect(
                try await client.send("\(station)/ban", .post, as: owner, body: PersonIDRequest(personID: host.id)).status
                    == .noContent)
            _ = try await LiveSourceTests.waitFor(client, owner.stationID, onAir: false)
            let again = try await SourceSocket(port: port)
            try await again.send(SourceSocket.head(station: owner.stationID, key: key))
            #expect(try await again.answerHead().hasPrefix("HTTP/1.0 403"))
        }
    }
}
