import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthWire

@testable import WavelengthServer

/// The control room's "at a glance", over a real socket: the listener on
/// a station, the people and sign-ups counted, the log's last warning, and
/// the process's own figures.
@Suite("The server at a glance", .timeLimit(.minutes(5)))
struct OverviewTests {
    @Test func theOverviewCountsWhatIsOnTheAirAndShowsTheLastWarning() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let admin = try await client.signUp(), member = try await client.signUp()
            try await AdminTests.grant(server, admin)
            #expect(try await client.send("/api/admin/overview", .get).status == .unauthorized)
            #expect(try await client.send("/api/admin/overview", .get, as: member).status == .forbidden)

            let listener = LiveClient(port: client.port!, path: "/api/stations/\(member.stationID)/live?v=1", token: member.token)
            _ = try await listener.snapshot()
            server.services.logger.warning("A test warning <b>with markup</b>")
            try await RegistrationTests.setMode(.approval, by: admin, client)
            #expect(try await client.send("/api/auth/signup", .post, body: RegistrationTests.signup(TestHandles.next())).status == .accepted)

            let overview = try await client.send("/api/admin/overview", .get, as: admin).decode(ServerOverview.self)
            #expect(overview.stationsOnAir == 1 && overview.listeners == 1 && overview.appListeners == 1)
            #expect(overview.people == 2 && overview.waitingSignups == 1 && overview.stations >= 2)
            #expect(overview.warnings.first?.message == "A test warning <b>with markup</b>")
            #expect(overview.warnings.first?.level == "warning")
            #expect(overview.tracks > 0 && overview.cores > 0)
            #expect((overview.memoryBytes ?? 0) > 0 && (overview.cpuPercent ?? -1) >= 0)
            #expect((overview.dataFolderBytes ?? 0) > 0 && (overview.libraryBytes ?? 0) > 0)
            listener.close()
        }
    }
}

/// An administrator looks a person up (their stations and sessions) and
/// takes one of their stations off the air: its listeners are told and let
/// go, and it's in the log.
@Suite("A person in the control room", .timeLimit(.minutes(5)))
struct AdminPersonTests {
    @Test func anAdministratorSeesAPersonsStationsAndSessionsAndTakesAStationOffTheAir() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let admin = try await client.signUp(), host = try await client.signUp()
            try await AdminTests.grant(server, admin)
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(host.stationID)/live?v=1", token: admin.token)
            _ = try await listener.snapshot()

            let detail = try await client.send("/api/admin/people/\(host.id)", .get, as: admin).decode(AdminPersonDetail.self)
            #expect(detail.standing.person.id == host.id && detail.stations.map(\.id) == [host.stationID])
            #expect(detail.sessions.map(\.kind) == ["bearer"])
            #expect(try await client.send("/api/admin/people/nobody", .get, as: admin).status == .notFound)

            let path = "/api/admin/stations/\(host.stationID)/off-air"
            #expect(try await client.send(path, .post, as: host, body: AdminActionRequest(reason: "x")).status == .forbidden)
            #expect(try await client.send(path, .post, as: admin, body: AdminActionRequest(reason: "")).status == .badRequest)
            let off = try await client.send(path, .post, as: admin, body: AdminActionRequest(reason: "Playing something it shouldn't"))
            #expect(off.status == .noContent)
            #expect(try await listener.next { $0.type == "ended" } == .ended)
            await listener.closed()
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.first?.action == "take-off-air" && log.first?.subjectID == host.stationID)
            #expect(try await client.send("/api/admin/stations/nope/off-air", .post, as: admin, body: AdminActionRequest(reason: "x")).status == .notFound)
        }
    }

    @Test func aDeletedStationIsGoneAndItsOwnerGetsAFreshOneAtSignIn() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let admin = try await client.signUp(), host = try await client.signUp()
            try await AdminTests.grant(server, admin)
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(host.stationID)/live?v=1", token: admin.token)
            _ = try await listener.snapshot()
            let path = "/api/admin/stations/\(host.stationID)/delete"
            #expect(try await client.send(path, .post, as: host, body: AdminActionRequest(reason: "x")).status == .forbidden)
            #expect(try await client.send(path, .post, as: admin, body: AdminActionRequest(reason: " ")).status == .badRequest)
            let deleted = try await client.send(path, .post, as: admin, body: AdminActionRequest(reason: "Spam station"))
            #expect(deleted.status == .noContent)
            #expect(try await listener.next { $0.type == "ended" } == .ended)
            await listener.closed()
            #expect(try await client.send("/api/stations/\(host.stationID)", .get, as: admin).status == .notFound)
            #expect(try await client.send(path, .post, as: admin, body: AdminActionRequest(reason: "again")).status == .notFound)
            let log = try await client.send("/api/admin/audit", .get, as: admin).decode([AuditEntryView].self)
            #expect(log.first?.action == "delete-station" && log.first?.reason == "Spam station")
            // Every user has a station: the owner's next sign-in makes a fresh one.
            let login = try await client.send(
                "/api/auth/login", .post, body: LoginRequest(handle: host.person.handle!, password: "correct horse", tokens: true))
            let fresh = try #require(try login.decode(AuthResponse.self).station)
            #expect(fresh.id != host.stationID && fresh.ownerID == host.id)
        }
    }
}
