import Foundation
import NIOSSL
import PostgresNIO

/// Where the PostgreSQL store is, from the address an operator writes
/// (`wavelength serve --database postgres://…`), in libpq's URL form:
///
/// - `postgres://user:password@host:5432/database` over TCP (TLS if the
///   server offers it, unless `?sslmode=disable`);
/// - `postgres://user@/database?host=/run/postgresql` through the Unix
///   socket in that folder (`.s.PGSQL.5432`, or the port given).
public struct PostgresAddress: Sendable, Equatable {
    public enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case socket(path: String)
    }

    public var endpoint: Endpoint
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// libpq's `sslmode`, as far as the client goes: off, if offered, or always.
    public enum TLSMode: Sendable, Equatable {
        case disable, prefer, require
    }

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Longer than any real address: a limit on what the parser reads.
    static let maxLength = 1024

    public init(parsing text: String) throws {
        guard text.utf8.count <= Self.maxLength else { throw Invalid(description: "the database address is too long") }
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw Invalid(description: "the database address must look like postgres://user:password@host:5432/database")
        }
        let database = String(parts.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw Invalid(description: "the database address names no database (postgres://…/NAME)")
        }
        guard let user = parts.user, !user.isEmpty else {
            throw Invalid(description: "the database address names no user (postgres://USER@…)")
        }
        let query = Dictionary((parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let port = parts.port ?? 5432
        guard (1...65535).contains(port) else { throw Invalid(description: "the database port must be 1…65535") }
        if let folder = query["host"], folder.hasPrefix("/") {
            endpoint = .socket(path: folder + "/.s.PGSQL.\(port)")
        } else if let host = parts.host, !host.isEmpty {
            endpoint = .tcp(host: host, port: port)
        } else {
            throw Invalid(description: "the database address names no host (postgres://…@HOST/… or ?host=/socket/folder)")
        }
        username = user
        password = parts.password
        self.database = database
        switch query["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "allow", "prefer": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        default: throw Invalid(description: "sslmode must be disable, prefer or require")
        }
    }

    /// One connection of its own, outside the pool (the node's LISTEN
    /// connection), named so `pg_stat_activity` shows what it is.
    func connectionConfiguration(applicationName: String) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case .socket(let path):
            configuration = PostgresConnection.Configuration(
                unixSocketPath: path, username: username, password: password, database: database)
        case .tcp(let host, let port):
            let mode: PostgresConnection.Configuration.TLS
            switch tls {
            case .disable: mode = .disable
            case .prefer: mode = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: mode = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            configuration = PostgresConnection.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: mode)
        }
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    var configuration: PostgresClient.Configuration {
        switch endpoint {
        case .socket(let path):
            return PostgresClient.Configuration(
                unixSocketPath: path, username: username, password: password, database: database)
        case .tcp(let host, let port):
            let mode: PostgresClient.Configuration.TLS
            switch tls {
            case .disable: mode = .disable
            case .prefer: mode = .prefer(.makeClientConfiguration())
            case .require: mode = .require(.makeClientConfiguration())
            }
            return PostgresClient.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: mode)
        }
    }
}
