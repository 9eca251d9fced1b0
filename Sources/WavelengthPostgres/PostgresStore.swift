import Logging
import Synchronization
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
    /// Where PostgreSQL is: the LISTEN connection opens its own connection there.
    let address: PostgresAddress
    /// How frequencies are drawn (a seed gives the same codes every run).
    public var frequencyDraw = FrequencyDraw.system
    /// This node, when it is one of a cluster's: its saves are fenced by
    /// station leases. Nil (tools like `migrate-db`): no leases.
    public let node: NodeIdentity?
    /// How long a lease lasts unless renewed; a node that stops renewing
    /// loses its stations this long after (failover time).
    public var leaseSeconds: Double {
        get { settings.leaseSeconds.withLock { $0 } }
        nonmutating set { settings.leaseSeconds.withLock { $0 = newValue } }
    }
    let leases = LeaseBook()

    /// How long PostgreSQL lets a session wait, set on every connection: a
    /// node that freezes (SIGSTOP, a VM paused) in the middle of a
    /// transaction holds its locks until PostgreSQL ends that transaction,
    /// and meanwhile every other node waiting on one of them gives up
    /// instead of stalling (its renewals and saves are answered as an
    /// outage: 503, try again). Without these one frozen node held the
    /// others' lease renewals for 31 s, and could hold them for good.
    public struct Waits: Sendable {
        /// The longest wait for a lock (`lock_timeout`): longer than nodes
        /// taking turns on a loaded machine wait (5 s refused publishes
        /// while two test suites shared two cores).
        public var lock: Duration = .seconds(15)
        /// How long a transaction may sit idle before PostgreSQL ends it
        /// (`idle_in_transaction_session_timeout`). Longer than any pause
        /// of a loaded but running node between two statements.
        public var idleInTransaction: Duration = .seconds(60)

        public init(lock: Duration = .seconds(15), idleInTransaction: Duration = .seconds(60)) {
            self.lock = lock
            self.idleInTransaction = idleInTransaction
        }

        var startupParameters: [(String, String)] {
            [
                ("application_name", "wavelength"),
                ("lock_timeout", Self.setting(lock)),
                ("idle_in_transaction_session_timeout", Self.setting(idleInTransaction)),
            ]
        }

        /// A duration as PostgreSQL takes it: whole milliseconds, at least one
        /// (0 would mean no limit).
        private static func setting(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            return "\(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))ms"
        }
    }

    /// `maximumConnections` is a node's share of a PostgreSQL: each node's
    /// limit keeps the cluster within the server's max_connections (100 by default).
    /// `idleTimeout` is how long an unused connection stays open.
    public init(
        address: PostgresAddress, logger: Logger, node: NodeIdentity? = nil, maximumConnections: Int = 16,
        idleTimeout: Duration = .seconds(60), waits: Waits = Waits()
    ) {
        self.node = node
        self.address = address
        var configuration = address.configuration
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectionIdleTimeout = idleTimeout
        configuration.options.additionalStartupParameters = waits.startupParameters
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Runs the connection pool until the task is cancelled.
    public func run() async {
        await client.run()
    }

    /// Brings the schema up to date (see `PostgresMigrations`).
    /// A schema change is not an intention: on a large database, or a
    /// loaded machine (a test process starting hundreds of tests), it may
    /// take far longer than `deadline`, so it has ten minutes.
    public func migrate() async throws {
        try await transaction(within: Self.migrationDeadline) { connection in
            try await PostgresMigrations.apply(on: connection, logger: logger)
        }
    }

    static let migrationDeadline = Duration.seconds(600)

    /// How long one intention may take, waiting for a connection included.
    /// postgres-nio queues a request while its pool can't reach the server
    /// (and retries with backoff); past this the request is an outage, so
    /// the server answers 503 with `Retry-After` instead of hanging.
    /// Shared by every copy of the store (a server holds several).
    public var deadline: Duration {
        get { settings.deadline.withLock { $0 } }
        nonmutating set { settings.deadline.withLock { $0 = newValue } }
    }
    let settings = SharedSettings()

    /// One transaction. What the body throws comes out as itself
    /// (postgres-nio wraps it with the rollback's outcome); a failed begin,
    /// rollback or commit comes out as postgres-nio's error.
    @discardableResult
    func transaction<T: Sendable>(
        within limit: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withinDeadline(limit) {
            do {
                return try await client.withTransaction(logger: logger) { try await body($0) }
            } catch let error as PostgresTransactionError {
                if let inner = error.closureError, error.rollbackError == nil { throw inner }
                throw error
            }
        }
    }

    /// One statement outside a transaction, its rows read whole.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> Rows {
        try await withinDeadline {
            var rows: [PostgresRow] = []
            for try await row in try await client.query(query, logger: logger) { rows.append(row) }
            return Rows(rows: rows)
        }
    }

    /// Runs `body`, or gives up (cancelling it) at the deadline.
    func withinDeadline<T: Sendable>(_ limit: Duration? = nil, _ body: @escaping @Sendable () async throws -> T) async throws
        -> T
    {
        let deadline = limit ?? deadline
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw PostgresUnavailable(waited: deadline)
            }
            return value
        }
    }
}

/// PostgreSQL didn't answer in time: it is down, unreachable or stuck.
public struct PostgresUnavailable: Error, StorageFault, CustomStringConvertible {
    public var waited: Duration
    public var isOutage: Bool { true }
    public var description: String { "PostgreSQL didn't answer within \(waited)." }
}

/// Settings every copy of a store shares (the server holds several copies).
final class SharedSettings: Sendable {
    let deadline = Mutex<Duration>(.seconds(5))
    let leaseSeconds = Mutex<Double>(3)
    /// When a renewal last said this node is here (`node.seen_at`).
    let seenWrittenAt = Mutex<ContinuousClock.Instant?>(nil)
}

extension PostgresConnection {
    /// Takes a transaction-scoped advisory lock, waiting at most
    /// `lock_timeout` (`PostgresStore.Waits`). Its row is read here: postgres-nio
    /// hands a SELECT's error over with its rows, so a wait that ran out
    /// unread went unnoticed until the next statement failed with
    /// "current transaction is aborted".
    func advisoryLock(_ key: Int64, logger: Logger) async throws {
        _ = try await query("SELECT pg_advisory_xact_lock(\(key))", logger: logger).collect()
    }
}
