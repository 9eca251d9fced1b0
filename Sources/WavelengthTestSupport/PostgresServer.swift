import Foundation
import WavelengthLibrary
import WavelengthPostgres

#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL from Debian's packages (`apt-get install postgresql`),
/// made for one test in a private temporary folder and stopped after it:
/// `initdb`, then `pg_ctl start` with its Unix socket in that folder and no
/// TCP port, so tests running side by side never meet. PostgreSQL refuses
/// to run as root, and tests run as root in CI, so there the server runs as
/// `nobody`, in a folder that user owns.
public struct PostgresServer: Sendable {
    public let folder: String
    let binaries: String

    var data: String { folder + "/data" }
    /// The superuser `initdb` made, through the socket, into the default database.
    public var address: PostgresAddress {
        get throws { try address(database: "postgres") }
    }

    /// The superuser's address of another database on this server.
    public func address(database: String) throws -> PostgresAddress {
        try PostgresAddress(parsing: "postgres://wavelength@/\(database)?host=\(folder)")
    }

    /// The folder with `initdb` and `pg_ctl` (the newest version installed), or nil.
    public static let installed: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }()

    /// Room for the shared server's many small pools (each test's store has
    /// its own) and each test server's LISTEN connection: a PostgreSQL pass
    /// on two cores peaked at 399 connections, and 400 refused some.
    static let maxConnections = 1000

    public static let missing = "PostgreSQL is not installed (apt-get install postgresql): the PostgreSQL store's tests are SKIPPED"

    public struct Failed: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Runs `body` with a fresh server; stops it and removes its folder after.
    public static func with<T>(_ body: (PostgresServer) async throws -> T) async throws -> T {
        let server = try await make()
        defer { try? FileManager.default.removeItem(atPath: server.folder) }
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

    /// A new server's folder with `initdb` run in it, not yet started.
    static func make() async throws -> PostgresServer {
        guard let binaries = installed else { throw Failed(description: missing) }
        // As root the server runs as `nobody`, who must reach its folder:
        // under /tmp itself, not the test run's private temporary folder.
        let parent = getuid() == 0 ? "/tmp/" : NSTemporaryDirectory()
        let folder = parent + "wavelength-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        if getuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw Failed(description: "no user 'nobody' to run PostgreSQL as") }
            guard chown(folder, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0 else {
                throw Failed(description: "could not give \(folder) to nobody")
            }
        }
        let server = PostgresServer(folder: folder, binaries: binaries)
        try await server.run(
            "initdb", ["-D", server.data, "-U", "wavelength", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        return server
    }

    /// Starts the server (again, after `stop`), waiting until it takes connections.
    public func start() async throws {
        try await run(
            "pg_ctl",
            ["-D", data, "-l", folder + "/server.log", "-w", "-t", "120",
             "-o", "-k \(folder) -c listen_addresses='' -c max_connections=\(Self.maxConnections) -c fsync=off", "start"])
    }

    public func stop() async throws {
        try await run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "120", "stop"])
    }

    /// Runs SQL with `psql` as the superuser (statements like CREATE
    /// DATABASE, which run outside a transaction).
    public func sql(_ statement: String, database: String = "postgres") async throws {
        try await run("psql", ["-h", folder, "-U", "wavelength", "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-c", statement])
    }

    /// Stops the server from a process about to exit, without waiting for
    /// anything: SIGQUIT to the postmaster (its pid is the first line of
    /// `postmaster.pid`) is PostgreSQL's immediate shutdown. The folder
    /// goes too (a run's databases take gigabytes); a process still
    /// closing keeps the files it has open until it ends.
    func stopAtExit() {
        if let pidFile = try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8),
            let line = pidFile.split(separator: "\n").first, let pid = pid_t(line.trimmingCharacters(in: .whitespaces))
        {
            kill(pid, SIGQUIT)
        }
        try? FileManager.default.removeItem(atPath: folder)
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
