import ArgumentParser
import WavelengthPostgres

/// Where a node keeps what it saves: the embedded SQLite file (the default,
/// one node) or a PostgreSQL that several nodes share.
enum DatabaseChoice: Equatable {
    case sqlite(path: String)
    case postgres(PostgresAddress)

    /// `sqlite:PATH`, `postgres://…` or `postgresql://…`; nil (or
    /// `sqlite`) is the data folder's own file, `defaultPath`.
    init(_ text: String?, defaultPath: String) throws {
        guard let text, !text.isEmpty, text != "sqlite" else {
            self = .sqlite(path: defaultPath)
            return
        }
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty, path.utf8.count <= 1024 else {
                throw ValidationError("--database sqlite:PATH needs a path (at most 1024 bytes)")
            }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            do {
                self = .postgres(try PostgresAddress(parsing: text))
            } catch let error as PostgresAddress.Invalid {
                throw ValidationError("--database: \(error.description)")
            }
        } else {
            throw ValidationError("--database must be sqlite:PATH or postgres://user:password@host:5432/database")
        }
    }
}

extension PostgresAddress {
    /// Where it points, for the log: never the password.
    var logDescription: String {
        switch endpoint {
        case .tcp(let host, let port): "postgres://\(username)@\(host):\(port)/\(database)"
        case .socket(let path): "postgres://\(username)@/\(database) through \(path)"
        }
    }
}
