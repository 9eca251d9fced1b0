import Foundation
import PostgresNIO
import _ConnectionPoolModule
import Testing
import WavelengthCore
import WavelengthStore
@testable import WavelengthPostgres
import WavelengthTestSupport

/// The PostgreSQL store against a real PostgreSQL: the schema is brought up
/// to date once however many nodes start together, a node older than the
/// schema refuses to start, and the health probe writes.
@Suite("PostgreSQL store", .enabled(if: PostgresServer.installed != nil, Comment(rawValue: PostgresServer.missing)))
struct PostgresStoreTests {
    @Test func theSchemaIsMigratedOnceAndTheHealthProbeWrites() async throws {
        try await PostgresServer.with { server in
            try await PostgresStore.on(server) { store in
                try await store.migrate()
                try await store.migrate()  // a restart: nothing left to do
                try await store.probeWrite(at: 1_000)
                try await store.probeWrite(at: 2_000)
                #expect(try await store.schemaVersions() == Array(1...PostgresMigrations.latest))
                #expect(try await store.scalar("SELECT checked_at FROM health_probe WHERE id = 1") == 2_000)
            }
        }
    }

    /// Three nodes started at once: each migration is applied by one of
    /// them, and none fails for the others' work.
    @Test func nodesStartingTogetherApplyEachMigrationOnce() async throws {
        try await PostgresServer.with { server in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask { try await PostgresStore.on(server) { try await $0.migrate() } }
                }
                try await group.waitForAll()
            }
            let versions = try await PostgresStore.on(server) { try await $0.schemaVersions() }
            #expect(versions == Array(1...PostgresMigrations.latest))
        }
    }

    /// PostgreSQL goes away: each request is an outage (the server answers
    /// 503) after the deadline, not a hang; when it returns, the pool
    /// reconnects by itself and what was saved before is all there.
    @Test func aLostDatabaseIsAnOutageAndTheStoreRecovers() async throws {
        try await PostgresServer.with { server in
            try await PostgresStore.on(server) { store in
                try await store.migrate()
                try await store.insertGuest(
                    PersonRecord(id: "p1", kind: .guest, handle: nil, displayName: "P", passwordHash: nil, createdAt: 1))
                try await store.setStreamKey(personID: "p1", hash: "before", at: 1)
                store.deadline = .seconds(1)
                try await server.stop()
                let fault = await #expect(throws: (any Error).self) { try await store.probeWrite(at: 2) }
                #expect((fault as? any StorageFault)?.isOutage == true, "not an outage: \(String(describing: fault))")
                try await server.start()
                // The pool's next attempt (backoff) finds it: wait for that, as many tries as it takes, bounded.
                var back = false
                for _ in 0..<120 where !back {
                    back = (try? await store.probeWrite(at: 3)) != nil
                }
                #expect(back)
                store.deadline = .seconds(30)
                #expect(try await store.streamKeyHolder(hash: "before") == "p1")
            }
        }
    }

    /// After a minute of failed connections the pool stops trying for a
    /// while and refuses at once: still an outage (503), never a 500.
    @Test func thePoolsRefusalsAreOutages() {
        #expect(ConnectionPoolError.connectionCreationCircuitBreakerTripped.isOutage)
        #expect(ConnectionPoolError.poolShutdown.isOutage)
        #expect(!ConnectionPoolError.requestCancelled.isOutage)
    }

    @Test func aNodeOlderThanTheSchemaRefusesToStart() async throws {
        try await PostgresServer.with { server in
            try await PostgresStore.on(server) { store in
                try await store.migrate()
                try await store.execute("INSERT INTO schema_migration (version, name) VALUES (999, 'from the future')")
                let error = await #expect(throws: PostgresSchemaTooNew.self) { try await store.migrate() }
                #expect(error?.found == 999)
                #expect(error?.description.contains("newer than this Wavelength knows") == true)
            }
        }
    }
}

@Suite("PostgreSQL addresses")
struct PostgresAddressTests {
    @Test func tcpAndSocketAddressesAreRead() throws {
        let tcp = try PostgresAddress(parsing: "postgres://radio:s3cret@db.example.edu:6543/wavelength?sslmode=require")
        #expect(tcp.endpoint == .tcp(host: "db.example.edu", port: 6543))
        #expect(tcp.username == "radio")
        #expect(tcp.password == "s3cret")
        #expect(tcp.database == "wavelength")
        #expect(tcp.tls == .require)
        let plain = try PostgresAddress(parsing: "postgresql://radio@10.0.0.5/wavelength")
        #expect(plain.endpoint == .tcp(host: "10.0.0.5", port: 5432))
        #expect(plain.tls == .prefer)
        #expect(plain.password == nil)
        let socket = try PostgresAddress(parsing: "postgres://radio@/wavelength?host=/run/postgresql")
        #expect(socket.endpoint == .socket(path: "/run/postgresql/.s.PGSQL.5432"))
    }

    @Test(arguments: [
        "mysql://radio@db/wavelength", "postgres://radio@db/", "postgres://@db/wavelength", "postgres:///wavelength",
        "postgres://radio@db:0/wavelength", "postgres://radio@db/wavelength?sslmode=sometimes", "not an address",
        "postgres://radio@db/" + String(repeating: "x", count: 2000),
    ])
    func badAddressesAreRefusedWithAMessage(_ text: String) {
        #expect(throws: PostgresAddress.Invalid.self) { try PostgresAddress(parsing: text) }
    }
}
