import Foundation
import Logging
import WavelengthLibrary
@testable import WavelengthPostgres

#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL from Debian's packages (`apt-get install postgresql`),
/// made for one test in a private temporary folder and stopped after it:
/// `initdb`, then `pg_ctl start` with its Unix socket in that folder and no
/// TCP port, so tests running side by side never meet. PostgreSQL refuses
/// to run as root, and tests run as root in CI, so there the server runs as
/// `nobody`, in a folder that user owns.
struct PostgresServer {
    let folder: String
    let binaries: String

    var data: String { folder + "/data" }
    /// The superuser `initdb` made, through the socket, into the default database.
    var address: PostgresAddress {
        get throws { try PostgresAddress(parsing: "postgres://wavelength@/postgres?host=\(folder)") }
    }

    /// The folder with `initdb` and `pg_ctl` (the newest version installed), or nil.
    static let installed: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }()

    static let missing = "PostgreSQL is not installed (apt-get install postgresql): the PostgreSQL store's tests are SKIPPED"

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `body` with a fresh server; stops it and removes its folder after.
    static func with<T>(_ body: (PostgresServer) async throws -> T) async throws -> T {
        guard let binaries = installed else { throw Failed(description: missing) }
        // As root the server runs as `nobody`, who must reach its folder:
        // under /tmp itself, not the test run's private temporary folder.
        let parent = getuid() == 0 ? "/tmp/" : NSTemporaryDirectory()
        let folder = parent + "wavelength-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        if getuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw Failed(description: "no user 'nobody' to run PostgreSQL as") }
            guard chown(folder, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0 else {
                throw Failed(description: "could not give \(folder) to nobody")
            }
        }
        let server = PostgresServer(folder: folder, binaries: binaries)
        try await server.run(
            "initdb", ["-D", server.data, "-U", "wavelength", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        try await server.start()
        do {
            let result = try await body(server)
            try? await server.stop()
            return result
        } catch {
            try? await server.stop()
            throw error
        }
    }

    /// Starts the server (again, after `stop`), waiting until it takes connections.
    func start() async throws {
        try await run(
            "pg_ctl",
            ["-D", data, "-l", folder + "/server.log", "-w", "-t", "120",
             "-o", "-k \(folder) -c listen_addresses='' -c max_connections=60", "start"])
    }

    func stop() async throws {
        try await run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "120", "stop"])
    }

    /// Runs one of PostgreSQL's programs (as `nobody` when this is root), in
    /// the server's folder: `nobody` may not enter the folder the tests run
    /// in (a checkout under /root, or a CI folder that is 0700).
    private func run(_ program: String, _ arguments: [String]) async throws {
        let finished: ChildProcess.Finished
        if getuid() == 0 {
            finished = try await ChildProcess.run(
                ChildProcess.executable(atPath: "/usr/sbin/runuser"),
                ["-u", "nobody", "--", binaries + "/" + program] + arguments, workingDirectory: folder)
        } else {
            finished = try await ChildProcess.run(
                ChildProcess.executable(atPath: binaries + "/" + program), arguments, workingDirectory: folder)
        }
        guard finished.status.isSuccess else {
            let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
            throw Failed(description: "\(program) failed (\(finished.status)): \(finished.errorTail)\n\(log.suffix(2000))")
        }
    }
}

extension PostgresStore {
    /// A store on `server`, its pool running while `body` does.
    static func on<T: Sendable>(
        _ server: PostgresServer, deadline: Duration = .seconds(30),
        _ body: @escaping @Sendable (PostgresStore) async throws -> T
    ) async throws -> T {
        var logger = Logger(label: "test.postgres")
        logger.logLevel = .critical
        let make = {
            var store = PostgresStore(address: try server.address, logger: logger)
            // Generous: a loaded machine is slow, not down (one test shortens it to see an outage).
            store.deadline = deadline
            return store
        }
        let store = try make()
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
