import Crypto
import Foundation
import Logging
import WavelengthPostgres
import WavelengthStore
import WavelengthTestSupport

/// Which store the server tests run on: `WAVELENGTH_TEST_STORE=postgres`
/// runs them on PostgreSQL, as `wavelength serve --database postgres://…`.
enum TestStore: String {
    case sqlite, postgres

    static let current: TestStore = {
        let chosen = ProcessInfo.processInfo.environment["WAVELENGTH_TEST_STORE"] ?? "sqlite"
        guard let store = TestStore(rawValue: chosen) else {
            fatalError("WAVELENGTH_TEST_STORE must be sqlite or postgres, not \(chosen)")
        }
        return store
    }()

    /// For tests that break the SQLite file itself.
    static var isSQLite: Bool { current == .sqlite }

    /// A store on the shared PostgreSQL, in a database named for the data
    /// folder: a server restarted on the same folder finds what it saved.
    static func postgres(for dataDirectory: String, logger: Logger) async throws -> PostgresStore {
        let digest = SHA256.hash(data: Data(dataDirectory.utf8)).prefix(10).map { String(format: "%02x", $0) }.joined()
        let address = try await SharedPostgres.shared.database(named: "t_" + digest)
        // Small pools that let go of what they don't use: hundreds of test
        // servers share one PostgreSQL, and a test's pool outlives its test
        // (it runs until the process ends), so its connections must close.
        // A node of a cluster, so every save in the suite goes through the
        // lease check; named for the data folder, so a test's restarted
        // server is the same node taking its stations back.
        let store = PostgresStore(
            address: address, logger: logger, node: NodeIdentity(id: "node-" + digest, address: "http://127.0.0.1"),
            maximumConnections: 4, idleTimeout: .seconds(2))
        // Hundreds of tests at once on two cores: slow is not down.
        store.deadline = .seconds(60)
        Task { await store.run() }
        return store
    }
}
