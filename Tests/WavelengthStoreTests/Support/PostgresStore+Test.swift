import Logging
@testable import WavelengthPostgres
import WavelengthTestSupport

extension PostgresStore {
    /// A store on `server`, its pool running while `body` does.
    static func on<T: Sendable>(
        _ server: PostgresServer, _ body: @escaping @Sendable (PostgresStore) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "test.postgres")
        logger.logLevel = .critical
        let store = PostgresStore(address: try server.address, logger: logger)
        // Generous: a loaded machine is slow, not down (one test shortens it to see an outage).
        store.deadline = .seconds(30)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await store.run()
                return nil
            }
            group.addTask { try await body(store) }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let result = next { return result }
            }
            throw PostgresServer.Failed(description: "the store's pool stopped before the test was done")
        }
    }
}
