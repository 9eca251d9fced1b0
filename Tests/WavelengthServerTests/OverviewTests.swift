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
