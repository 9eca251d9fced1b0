import ArgumentParser
import Foundation
import WavelengthSQLite
import WavelengthServer

/// `wavelength restore --from FILE`: puts a backup back, with the server
/// stopped. Nothing is deleted: the database and keys that were there are
/// moved aside.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put a backup made by `wavelength backup` back in place (stop the server first).",
        discussion: """
            The backup is checked first (whole, a Wavelength database, not from a newer release). \
            The database and the keys folder that were there are moved aside with a \
            .before-restore-TIME suffix, never deleted.
            """)

    @Option(help: "The backup file.")
    var from: String

    @OptionGroup var store: StoreOptions

    func run() async throws {
        guard !from.isEmpty, from.utf8.count <= 1024 else { throw ValidationError("--from needs a file path (at most 1024 bytes)") }
        let path = try store.sqlitePath(
            postgresAdvice: "A PostgreSQL community is restored with pg_restore or psql (deploy/README.md).")
        let data = store.data
        try DataFolder.secure(data)
        let lock: DatabaseLock
        do {
            lock = try DatabaseLock(databasePath: path)
        } catch let held as DatabaseLock.Held {
            throw ValidationError(held.description)
        }
        let backup = from, dataDirectory = data
        let (summary, databaseAside, keysAside, keyFiles) = try await offThePool {
            try withExtendedLifetime(lock) {
                do {
                    let summary = try DatabaseBackup.summary(of: backup)
                    let (keys, databaseAside) = try DatabaseBackup.restore(backup: backup, database: path)
                    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
                    let keysAside = keys.isEmpty ? nil : try KeyFiles.write(keys, dataDirectory: dataDirectory, stamp: stamp)
                    return (summary, databaseAside, keysAside, keys.count)
                } catch let failure as DatabaseBackup.Failure {
                    throw ValidationError(failure.description)
                }
            }
        }
        print("Restored \(summary.people) people, \(summary.stations) stations and \(summary.tracks) tracks to \(path).")
        if let databaseAside { print("The database that was there is at \(databaseAside).") }
        if keyFiles > 0 {
            print("The signing keys came back too" + (keysAside.map { "; the ones that were there are at \($0)." } ?? "."))
        } else {
            print("The backup has no signing keys: the server makes new ones, and everyone signs in again.")
        }
        print("Start the server to go on the air.")
    }
}
