import PostgresNIO
import _ConnectionPoolModule
import WavelengthStore

/// PostgreSQL's answers that mean storage is out of service, not that the
/// request was wrong: the server can't be reached or went away, is out of
/// disk or memory, is shutting down, or is a read-only standby. The server
/// answers 503 with `Retry-After` to these and the client tries again.
extension PSQLError: StorageFault {
    public var isOutage: Bool {
        switch code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported, .failedToAddSSLHandler:
            return true
        case .server:
            guard let state = sqlState else { return false }
            // 08 connection, 53 resources (disk full, memory), 57 operator
            // intervention (shutdown, starting up), 58 system error,
            // 25006: a standby that takes no writes (mid-failover), and the
            // bounds on waiting (`PostgresStore.Waits`): 55P03, a lock held
            // too long (by a frozen node, say), and 25P03, this session's
            // own transaction ended for idling (it was the frozen one).
            return ["08", "53", "57", "58"].contains(String(state.prefix(2)))
                || ["25006", "55P03", "25P03"].contains(state)
        default:
            return false
        }
    }

    /// The five-character SQLSTATE the server sent, if it sent one.
    var sqlState: String? { serverInfo?[.sqlState] }

    /// A UNIQUE constraint refused the row.
    var isUniqueViolation: Bool { sqlState == PostgresError.Code.uniqueViolation.raw }
}

/// The pool's own refusals: after connections keep failing it stops
/// trying for a while (its circuit breaker) and fails requests at once, and
/// a pool that was shut down takes none. Both mean PostgreSQL can't be
/// reached: an outage (503), like a failed connection.
extension ConnectionPoolError: StorageFault {
    public var isOutage: Bool { self == .connectionCreationCircuitBreakerTripped || self == .poolShutdown }
}

/// A transaction that failed around its body: its BEGIN, COMMIT or ROLLBACK
/// met a connection the server closed (a shutdown mid-transaction). An
/// outage when what failed was one.
extension PostgresTransactionError: StorageFault {
    public var isOutage: Bool {
        [beginError, commitError, rollbackError, closureError].contains { error in
            (error as? any StorageFault)?.isOutage == true
        }
    }
}
