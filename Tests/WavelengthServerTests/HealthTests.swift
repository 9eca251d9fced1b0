import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthLibrary
import WavelengthWire

/// `/health` said `ok` while every write failed. Made immutable (which
/// holds even for root), the database refuses writes, and health says so.
@Suite("Health", .timeLimit(.minutes(5)))
struct HealthTests {
    static func chattr(_ flag: String, _ paths: [String]) async throws -> Bool {
        try await ChildProcess.run(ChildProcess.executable(atPath: "/usr/bin/chattr"), [flag] + paths).status.isSuccess
    }

    @Test func healthFailsWhenStorageRefusesWrites() async throws {
        let server = try await TestServer.make()
        let database = server.dataDirectory + "/wavelength.sqlite"
        let files = [database, database + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
        try await server.application().test(.router) { client in
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            #expect(try await Self.chattr("+i", files), "chattr +i works on this filesystem")
            let refused = try await client.execute(uri: "/health", method: .get)
            _ = try await Self.chattr("-i", files)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.errorCode == "service_unavailable")
        }
    }
}
