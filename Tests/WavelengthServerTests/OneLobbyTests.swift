import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

/// A person is in one lobby at a time: joining a second lobby closes their
/// connection to the first, with a reason their page can show, while the
/// first lobby's host and a plain station are unaffected.
@Suite("One lobby at a time", .timeLimit(.minutes(5)))
struct OneLobbyTests {
    @Test func joiningASecondLobbyLeavesTheFirst() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let first = try await client.signUp()
            let second = try await client.signUp()
            for host in [first, second] {
                let made = try await client.send(
                    "/api/stations/\(host.stationID)/party", .patch, as: host, body: PartySettingsPatch(mode: .lobby))
                #expect(made.status == .ok)
            }
            let ann = try await client.guest("Ann")
            let hostSocket = LiveClient(port: client.port!, path: "/api/stations/\(first.stationID)/live", token: first.token)
            _ = try await hostSocket.next { $0.type == "snapshot" }
            let inFirst = LiveClient(port: client.port!, path: "/api/stations/\(first.stationID)/live", token: ann.token)
            _ = try await inFirst.next { $0.type == "snapshot" }

            // The host of the first lobby joins the second: hosts aren't members.
            let hostVisits = LiveClient(port: client.port!, path: "/api/stations/\(second.stationID)/live", token: first.token)
            _ = try await hostVisits.next { $0.type == "snapshot" }

            let inSecond = LiveClient(port: client.port!, path: "/api/stations/\(second.stationID)/live", token: ann.token)
            _ = try await inSecond.next { $0.type == "snapshot" }
            guard case .removed(let person, let reason) = try await inFirst.next(where: { $0.type == "removed" }) else {
                throw LiveClient.ClosedError()
            }
            #expect(person.id == ann.id)
            #expect(reason == "another-lobby")
            await inFirst.closed()
            // The host heard she left, and still listens.
            guard case .removed(let seen, _) = try await hostSocket.next(where: { $0.type == "removed" }) else {
                throw LiveClient.ClosedError()
            }
            #expect(seen.id == ann.id)
            try hostSocket.send(.ping(nonce: "still"))
            _ = try await hostSocket.next { $0.type == "pong" }
            // Ann is in the second lobby.
            try inSecond.send(.ping(nonce: "here"))
            _ = try await inSecond.next { $0.type == "pong" }
        }
    }
}
