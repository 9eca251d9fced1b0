import Foundation
import GRDB

/// A consistent copy of the embedded database, made while the server runs,
/// and put back while it doesn't (`wavelength backup` and `restore`).
///
/// The copy is SQLite's online backup (through GRDB) inside one read
/// transaction: a snapshot of one instant, while the server goes on
/// writing (WAL lets readers and the writer pass each other). It is one
/// self-contained file (rollback journal, not WAL), 0600. The server's
/// signing keys go in it too, in a table of their own, so a restored
/// server still accepts the sessions and links it had handed out; a
/// restore writes them back to files and drops that table, so the live
/// database never holds a key.
///
/// Synchronous throughout: callers run it on a thread of their own.
public enum DatabaseBackup {
    /// The table in a backup file that carries the keys' files.
    static let keysTable = "wavelengthBackupKey"
    /// A keys file larger than this is not a key.
    public static let maxKeyFileBytes = 1 << 20

    public struct Summary: Sendable, Equatable {
        public var people: Int
        public var stations: Int
        public var tracks: Int
        public var keyFiles: Int
        public var bytes: Int64
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Copies the database at `source` to a new file at `destination`, with
    /// `keyFiles` (file name → contents). Writes a temporary file beside the
    /// destination and renames it into place only once it is whole and
    /// checked, so a failed or interrupted backup leaves nothing at
    /// `destination`.
    public static func make(source: String, destination: String, keyFiles: [String: Data]) throws -> Summary {
        guard FileManager.default.fileExists(atPath: source) else { throw Failure("There is no database at \(source).") }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw Failure("\(destination) already exists; a backup never overwrites a file. Choose a new name.")
        }
        // Opened without the server's migrations: a backup must not change
        // the database under a running server.
        let from = try DatabaseQueue(path: source)
        try from.read { db in
            guard try db.tableExists("grdb_migrations"), try db.tableExists("station") else {
                throw Failure("\(source) is not a Wavelength database.")
            }
        }
        let partial = destination + ".partial-\(UUID().uuidString.prefix(8))"
        // Made first with 0600: SQLite opens it as it is, and its journal
        // takes the same mode.
        guard FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw Failure("Can't create \(partial): is the folder there, and may this user write to it?")
        }
        var renamed = false
        defer { if !renamed { try? FileManager.default.removeItem(atPath: partial) } }
        do {
            let to = try DatabaseQueue(path: partial)
            try from.backup(to: to)
            try to.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
            }
            try to.write { db in
                try db.execute(sql: "CREATE TABLE \(keysTable) (name TEXT PRIMARY KEY NOT NULL, contents BLOB NOT NULL)")
                for (name, contents) in keyFiles.sorted(by: { $0.key < $1.key }) {
                    try db.execute(sql: "INSERT INTO \(keysTable) (name, contents) VALUES (?, ?)", arguments: [name, contents])
                }
            }
            try check(to, path: destination)
            try to.close()
        }
        try from.close()
        guard rename(partial, destination) == 0 else {
            throw Failure("Can't rename the finished backup to \(destination): \(String(cString: strerror(errno))).")
        }
        renamed = true
        return try summary(of: destination)
    }

    /// What a backup file holds, after checking it is whole and is a
    /// Wavelength database this build can run: a newer release's schema is
    /// refused.
    public static func summary(of backup: String) throws -> Summary {
        let queue = try openBackup(backup)
        defer { try? queue.close() }
        try check(queue, path: backup)
        return try queue.read { db in
            if try AppDatabase.migrator.hasBeenSuperseded(db) {
                throw Failure("\(backup) was made by a newer Wavelength; restore it with that release.")
            }
            return Summary(
                people: try Int.fetchOne(db, sql: "SELECT count(*) FROM person") ?? 0,
                stations: try Int.fetchOne(db, sql: "SELECT count(*) FROM station") ?? 0,
                tracks: try Int.fetchOne(db, sql: "SELECT count(*) FROM track") ?? 0,
                keyFiles: try Int.fetchOne(db, sql: "SELECT count(*) FROM \(keysTable)") ?? 0,
                bytes: Int64((try? FileManager.default.attributesOfItem(atPath: backup)[.size] as? Int) ?? 0))
        }
    }

    /// Puts `backup` in place as the database at `database`, with the server
    /// stopped (the caller holds its `DatabaseLock`). The database that was
    /// there, with its WAL files, is moved aside, never deleted; its path is
    /// returned. Answers the keys' files the backup carries.
    public static func restore(backup: String, database: String) throws -> (keyFiles: [String: Data], setAside: String?) {
        _ = try summary(of: backup)
        let from = try openBackup(backup)
        defer { try? from.close() }
        let keyFiles = try from.read { db in
            var files: [String: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, contents FROM \(keysTable)") {
                let name: String = row["name"], contents: Data = row["contents"]
                guard isKeyFileName(name), contents.count <= maxKeyFileBytes else {
                    throw Failure("\(backup) carries a keys file named \(name.debugDescription), which isn't one.")
                }
                files[name] = contents
            }
            return files
        }
        let partial = database + ".restoring-\(UUID().uuidString.prefix(8))"
        guard FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw Failure("Can't create \(partial) beside the database.")
        }
        var placed = false
        defer { if !placed { try? FileManager.default.removeItem(atPath: partial) } }
        do {
            let to = try DatabaseQueue(path: partial)
            try from.backup(to: to)
            try to.write { db in try db.execute(sql: "DROP TABLE \(keysTable)") }
            try to.close()
        }
        var setAside: String?
        if FileManager.default.fileExists(atPath: database) {
            let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
            let aside = database + ".before-restore-" + stamp
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: database + suffix) {
                guard rename(database + suffix, aside + suffix) == 0 else {
                    throw Failure("Can't move \(database + suffix) aside: \(String(cString: strerror(errno))).")
                }
            }
            setAside = aside
        }
        guard rename(partial, database) == 0 else {
            throw Failure("Can't put the restored database at \(database): \(String(cString: strerror(errno))).")
        }
        placed = true
        return (keyFiles, setAside)
    }

    /// A keys file's name: a plain name, never a path.
    public static func isKeyFileName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 100 && name != "." && name != ".."
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    private static func openBackup(_ path: String) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else { throw Failure("There is no backup at \(path).") }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let isBackup = try queue.read { db in
                try db.tableExists(keysTable) && db.tableExists("grdb_migrations") && db.tableExists("station")
            }
            guard isBackup else { throw Failure("\(path) is not a Wavelength backup (made by `wavelength backup`).") }
            return queue
        } catch let error as DatabaseError {
            throw Failure("\(path) is not a Wavelength backup: \(error.message ?? "SQLite can't read it").")
        }
    }

    /// SQLite's own check of every page and index.
    private static func check(_ queue: DatabaseQueue, path: String) throws {
        let verdict = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        guard verdict == ["ok"] else {
            throw Failure("\(path) is damaged (SQLite's integrity check: \(verdict.prefix(3).joined(separator: "; "))).")
        }
    }
}
