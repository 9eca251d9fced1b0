import Foundation
import Logging
import Synchronization
import WavelengthPostgres

/// One PostgreSQL for a whole test process, for tests that run the server
/// on PostgreSQL: starting a server per test would cost a second or two
/// each. Each test gets a database of its own, copied from a migrated
/// template (a copy is a file copy, not eight migrations). The server stops
/// when the process exits.
public actor SharedPostgres {
    public static let shared = SharedPostgres()

    private var server: Task<PostgresServer, any Error>?
    private var made: Set<String> = []

    static let template = "wavelength_template"

    /// The address of database `name`, made from the template the first
    /// time it is asked for (a server restarted on the same data folder
    /// finds its rows again).
    public func database(named name: String) async throws -> PostgresAddress {
        precondition(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }, "a plain name")
        let server = try await running()
        if !made.contains(name) {
            made.insert(name)
            try await server.sql("CREATE DATABASE \(name) TEMPLATE \(Self.template)")
        }
        return try server.address(database: name)
    }

    /// The address of a new database of its own, copied from the migrated
    /// template: for a test that wants an empty store and leaves the server
    /// alone (stopping it is for a server of the test's own).
    public func freshDatabase() async throws -> PostgresAddress {
        try await database(named: "f_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())
    }

    private func running() async throws -> PostgresServer {
        if let server { return try await server.value }
        let starting = Task { try await Self.start() }
        server = starting
        return try await starting.value
    }

    private static func start() async throws -> PostgresServer {
        let server = try await PostgresServer.make()
        try await server.start()
        running.withLock { $0 = server }
        atexit { SharedPostgres.running.withLock { $0?.stopAtExit() } }
        try await server.sql("CREATE DATABASE \(template)")
        var logger = Logger(label: "test.postgres.template")
        logger.logLevel = .critical
        let store = PostgresStore(address: try server.address(database: template), logger: logger, maximumConnections: 1)
        let pool = Task { await store.run() }
        try await store.migrate()
        pool.cancel()
        // The pool's run ends once its connections are closed: a template
        // with a session still on it can't be copied.
        await pool.value
        return server
    }

    /// The server to stop at exit (a C callback captures nothing).
    static let running = Mutex<PostgresServer?>(nil)
}
