import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// One address can't take the server's sockets: past its share it is
/// answered 429, while `/health` and signed-in listeners still get in.
@Suite("Live socket budget", .timeLimit(.minutes(5)))
struct SocketBudgetTests {
    @Test func theBudgetKeepsAReserveAndBoundsAddressesAndPeople() throws {
        var budget = SocketBudget(limits: .init(total: 6, signedInReserve: 2, perAddress: 3, perPerson: 2))
        let nat = SocketBudget.Holder(address: "10.0.0.1", personID: nil, signedIn: false)
        for _ in 0..<3 { try budget.admit(nat) }
        #expect(throws: SocketBudget.Refusal.addressFull(limit: 3)) { try budget.admit(nat) }
        let other = SocketBudget.Holder(address: "10.0.0.2", personID: "g1", signedIn: false)
        try budget.admit(other)
        // Four open: the last two are for signed-in people.
        #expect(throws: SocketBudget.Refusal.serverFull) {
            try budget.admit(.init(address: "10.0.0.3", personID: nil, signedIn: false))
        }
        let ana = SocketBudget.Holder(address: "10.0.0.1", personID: "ana", signedIn: true)
        try budget.admit(ana)
        try budget.admit(ana)
        #expect(throws: SocketBudget.Refusal.serverFull) { try budget.admit(.init(address: "x", personID: "bo", signedIn: true)) }
        for _ in 0..<3 { budget.release(nat) }
        #expect(budget.byAddress["10.0.0.1"] == nil)
        #expect(throws: SocketBudget.Refusal.personFull(limit: 2)) { try budget.admit(ana) }
        budget.release(ana)
        try budget.admit(ana)
        // Limits from a file limit keep descriptors outside live sockets.
        let small = SocketBudget.Limits.forFileLimit(1024)
        #expect(small.total == 896 && small.signedInReserve == 89 && small.perAddress == 256)
    }

    @Test func anAddressPastItsShareIsRefusedAndHealthAndSignedInListenersGetIn() async throws {
        let server = try await TestServer.make {
            $0.liveSocketLimits = .init(total: 12, signedInReserve: 4, perAddress: 5, perPerson: 3)
        }
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let path = "/api/stations/\(owner.stationID)/live"
            var anonymous: [LiveClient] = []
            for _ in 0..<5 {
                let socket = LiveClient(port: client.port!, path: path)
                _ = try await socket.snapshot()
                anonymous.append(socket)
            }
            let refused = try await client.execute(uri: path, method: .get)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "too_many_connections")
            // A guest from the same address shares its share.
            let guest = try await client.guest("Guest")
            let guestRefused = try await client.execute(
                uri: path, method: .get, headers: [.authorization: "Bearer \(guest.token)"])
            #expect(guestRefused.status == .tooManyRequests)
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            // A signed-in listener gets in, up to their own share.
            var mine: [LiveClient] = []
            for _ in 0..<3 {
                let socket = LiveClient(port: client.port!, path: path, token: owner.token)
                _ = try await socket.snapshot()
                mine.append(socket)
            }
            let fourth = try await client.execute(uri: path, method: .get, headers: [.authorization: "Bearer \(owner.token)"])
            #expect(fourth.status == .tooManyRequests)
            // One closes: its slot comes back once the server has seen it go.
            anonymous.removeLast().close()
            while try await client.execute(uri: path, method: .get).status == .tooManyRequests {
                try await Task.sleep(for: .milliseconds(50))
            }
            for socket in anonymous + mine { socket.close() }
        }
    }
}
