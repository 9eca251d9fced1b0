import Logging
@testable import WavelengthPostgres
import WavelengthTestSupport

extension PostgresStore {
    /// A store on `server`, its pool running while `body` does.
    static func on<T: Sendable>(
        _ server: PostgresServer, _ body: @escaping @Sendable (PostgresStore) async throws -> T
    ) async throws -> T {
        try await on(address: try server.address, body)
    }

    /// A store on a new database of the test process's one shared
    /// PostgreSQL: a server per test (initdb, start, migrations) for dozens
    /// of contract tests at once loaded the machine until queries waited
    /// past their deadline.
    static func onSharedServer<T: Sendable>(_ body: @escaping @Sendable (PostgresStore) async throws -> T) async throws -> T {
        try await on(address: try await SharedPostgres.shared.freshDatabase(), maximumConnections: 8, body)
    }

    static func on<T: Sendable>(
        address: PostgresAddress, maximumConnections: Int = 16,
        _ body: @escaping @Sendable (PostgresStore) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "test.postgres")
        logger.logLevel = .critical
        let store = PostgresStore(address: address, logger: logger, maximumConnections: maximumConnections)
        // Generous: a loaded machine is slow, not down (one test shortens it to see an outage).
        store.deadline = .seconds(60)
        // The pool runs beside the test and is cancelled after it, without
        // waiting for it to wind down: a pool still retrying a server that
        // was stopped and started again may take its time, and the test
        // has its answer.
        let pool = Task { await store.run() }
        defer { pool.cancel() }
        return try await body(store)
    }
}
