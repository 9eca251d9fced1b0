import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Logging
import WavelengthLibrary
import WavelengthPostgres
import WavelengthTestSupport
import WavelengthWire

/// `/health` said `ok` while every write failed. Made immutable (which
/// holds even for root), the database refuses writes, and health says so.
@Suite("Health", .timeLimit(.minutes(5)))
struct HealthTests {
    static func chattr(_ flag: String, _ paths: [String]) async throws -> Bool {
        try await ChildProcess.run(ChildProcess.executable(atPath: "/usr/bin/chattr"), [flag] + paths).status.isSuccess
    }

    @Test(.enabled(if: TestStore.isSQLite)) func healthFailsWhenStorageRefusesWrites() async throws {
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
            // The process still serves: the balancer keeps it.
            #expect(try await client.execute(uri: "/health/live", method: .get).status == .ok)
        }
    }

    /// PostgreSQL stops under a running node: `/health` fails (monitoring
    /// says so) while `/health/live`, which the balancer checks, holds, so
    /// what needs no database goes on (the API's document, an open socket);
    /// a command is answered 503 with `Retry-After`, not a hang; PostgreSQL
    /// returns, and the node serves again with everything it had acknowledged.
    @Test(.enabled(if: TestStore.current == .postgres)) func aLostDatabaseFailsHealthAndCommandsUntilItReturns() async throws {
        try await PostgresServer.with { postgres in
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            // Patient while the scene is set (a loaded machine is slow, not
            // down), then the deadline a node has (5 s) once PostgreSQL stops.
            let store = PostgresStore(address: try postgres.address, logger: logger, idleTimeout: .seconds(2))
            store.deadline = .seconds(60)
            let pool = Task { [store] in await store.run() }
            defer { pool.cancel() }
            try await store.migrate()
            let server = try await TestServer.make(storage: store)
            try await server.application().test(.live) { client in
                let owner = try await client.signUp()
                let song = try #require(try await client.tracks().first)
                let queued = try await client.send(
                    "/api/stations/\(owner.stationID)/commands", .post, as: owner,
                    body: CommandRequest(id: "before", command: .append(trackID: song.id)))
                let acked = try queued.decode(CommandAck.self)
                let listener = LiveClient(port: client.port!, path: "/api/stations/\(owner.stationID)/live")
                defer { listener.close() }
                _ = try await listener.snapshot()
                store.deadline = .seconds(5)
                try await postgres.stop()
                let sick = try await client.execute(uri: "/health", method: .get)
                #expect(sick.status == .serviceUnavailable)
                #expect(try await client.execute(uri: "/health/live", method: .get).status == .ok)
                #expect(try await client.execute(uri: "/openapi.json", method: .get).status == .ok)
                try listener.send(.ping(nonce: "blip"))
                _ = try await listener.next(where: { $0.type == "pong" })
                let refused = try await client.send(
                    "/api/stations/\(owner.stationID)/commands", .post, as: owner,
                    body: CommandRequest(id: "during", command: .append(trackID: song.id)))
                #expect(refused.status == .serviceUnavailable)
                #expect(refused.headers[.retryAfter] != nil)
                #expect(refused.errorCode == "service_unavailable")
                try await postgres.start()
                // The pool reconnects on its own (with backoff): wait for it, as many checks as it takes, bounded.
                var healthy = false
                for _ in 0..<120 where !healthy {
                    healthy = try await client.execute(uri: "/health", method: .get).status == .ok
                }
                #expect(healthy)
                store.deadline = .seconds(60)
                #expect(try await client.timeline(owner.stationID).revision >= acked.revision)
                let retried = try await client.send(
                    "/api/stations/\(owner.stationID)/commands", .post, as: owner,
                    body: CommandRequest(id: "during", command: .append(trackID: song.id)))
                #expect(try retried.decode(CommandAck.self).revision > acked.revision)
            }
        }
    }
}
