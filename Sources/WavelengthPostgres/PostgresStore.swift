import Logging
import PostgresNIO
import WavelengthCore
import WavelengthStore

/// The store on PostgreSQL: what several nodes share (the embedded
/// default is SQLite, `AppDatabase`). A pool of connections from
/// postgres-nio; each method is one intention in one transaction, as
/// `AppDatabase`'s are.
///
/// The pool runs while `run()` does (the server runs it as a service);
/// `open` starts nothing by itself.
public struct PostgresStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// How frequencies are drawn (a seed gives the same codes every run).
    public var frequencyDraw = FrequencyDraw.system

    public init(address: PostgresAddress, logger: Logger) {
        var configuration = address.configuration
        // A node's share of a PostgreSQL: its own limit keeps several nodes
        // within the server's max_connections (100 by default).
        configuration.options.maximumConnections = 16
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Runs the connection pool until the task is cancelled.
    public func run() async {
        await client.run()
    }

    /// Brings the schema up to date (see `PostgresMigrations`).
    public func migrate() async throws {
        try await transaction { connection in try await PostgresMigrations.apply(on: connection, logger: logger) }
    }

    /// One transaction. What the body throws comes out as itself
    /// (postgres-nio wraps it with the rollback's outcome); a failed begin,
    /// rollback or commit comes out as postgres-nio's error.
    @discardableResult
    func transaction<T>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
        do {
            return try await client.withTransaction(logger: logger, body)
        } catch let error as PostgresTransactionError {
            if let inner = error.closureError, error.rollbackError == nil { throw inner }
            throw error
        }
    }
}
