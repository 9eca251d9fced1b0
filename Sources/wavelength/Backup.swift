import ArgumentParser
import Foundation
import WavelengthSQLite
import WavelengthServer

/// `wavelength backup --to FILE`: a consistent copy of the embedded
/// database, made while the server runs, with the signing keys in it.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the database and the signing keys to one file, while the server runs (SQLite; PostgreSQL uses pg_dump).",
        discussion: """
            The copy is one instant of the database, made with SQLite's online backup: the server \
            goes on playing and saving meanwhile. The file (0600) holds password hashes and the \
            signing keys: keep it as private as the data folder. Voice clips (<data>/voice) are not \
            in it; they expire with the chat. Put it back with `wavelength restore`.
            """)

    @Option(help: "The backup file to write (it must not exist yet).")
    var to: String

    @OptionGroup var store: StoreOptions

    @Flag(help: "Leave the signing keys out (a restored server then signs everyone out and makes new keys).")
    var withoutKeys = false

    func run() async throws {
        guard !to.isEmpty, to.utf8.count <= 1024 else { throw ValidationError("--to needs a file path (at most 1024 bytes)") }
        let path = try store.sqlitePath(
            postgresAdvice: "A PostgreSQL community is backed up with pg_dump (deploy/README.md); copy <data>/keys beside it.")
        let keys = withoutKeys ? [:] : try KeyFiles.read(dataDirectory: store.data)
        let destination = to
        let started = Date()
        let summary = try await offThePool {
            do {
                return try DatabaseBackup.make(source: path, destination: destination, keyFiles: keys)
            } catch let failure as DatabaseBackup.Failure {
                throw ValidationError(failure.description)
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print(
            "Backed up \(summary.people) people, \(summary.stations) stations and \(summary.tracks) tracks"
                + (summary.keyFiles > 0 ? ", with the signing keys," : ", without the signing keys,")
                + " to \(destination) (\(String(format: "%.1f", Double(summary.bytes) / 1_048_576)) MB) in \(String(format: "%.2f", seconds)) s.")
    }
}

/// The files of `<data>/keys`, as a backup carries them.
enum KeyFiles {
    static func read(dataDirectory: String) throws -> [String: Data] {
        let folder = dataDirectory + "/keys"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [:] }
        var files: [String: Data] = [:]
        for name in names where DatabaseBackup.isKeyFileName(name) && !name.hasSuffix(".partial") {
            // Regular files only: a symlink in the keys folder is not followed.
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            guard Int(info.st_size) <= DatabaseBackup.maxKeyFileBytes else {
                throw ValidationError("\(folder)/\(name) is too large to be a key (over 1 MB).")
            }
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// Replaces `<data>/keys` with `files` (0700 folder, 0600 files); the
    /// folder that was there is moved aside, and its new name returned.
    static func write(_ files: [String: Data], dataDirectory: String, stamp: String) throws -> String? {
        let folder = dataDirectory + "/keys"
        var setAside: String?
        if FileManager.default.fileExists(atPath: folder) {
            let aside = folder + ".before-restore-" + stamp
            try FileManager.default.moveItem(atPath: folder, toPath: aside)
            setAside = aside
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for (name, contents) in files {
            guard FileManager.default.createFile(atPath: folder + "/" + name, contents: contents, attributes: [.posixPermissions: 0o600])
            else { throw ValidationError("Can't write \(folder)/\(name).") }
        }
        return setAside
    }
}
