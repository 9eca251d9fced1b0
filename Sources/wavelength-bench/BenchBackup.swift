import ArgumentParser
import Foundation
import Subprocess
import SystemPackage
import WavelengthCore
import WavelengthSQLite

/// A community of N people, each with a station, in a real SQLite file;
/// then `wavelength backup` and `wavelength restore` (the shipped binary
/// beside this one) are timed on it, as an operator runs them.
struct BenchBackup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Backup and restore time for a database of many stations.")

    @Option(help: "How many people, each with a personal station.")
    var stations: Int = 100_000

    func validate() throws {
        guard (1...1_000_000).contains(stations) else { throw ValidationError("--stations must be 1…1000000") }
    }

    func run() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-bench-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = folder + "/data", restored = folder + "/restored"
        for path in [data, restored] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let seeding = Date()
        try await seed(AppDatabase.open(path: data + "/wavelength.sqlite"))
        print("seeded \(stations) people and stations in \(String(format: "%.1f", Date().timeIntervalSince(seeding))) s")

        let backup = folder + "/community.backup"
        try await time("backup ", ["backup", "--to", backup, "--data", data])
        try await time("restore", ["restore", "--from", backup, "--data", restored])
    }

    /// Every account as a signup makes it (a person and their station, the
    /// frequency drawn, in one transaction), each station quiet a second
    /// after the one before so a full band has one to take a code from.
    private func seed(_ database: AppDatabase) async throws {
        let hash = String(repeating: "x", count: 60)  // the length of a bcrypt hash; nobody signs in here
        for n in 0..<stations {
            let now = EpochMillis(n) * 1000
            let person = PersonRecord(
                id: "u\(n)", kind: .user, handle: "listener\(n)", displayName: "Listener \(n)", passwordHash: hash, createdAt: now)
            let station = StationRecord(
                id: "s\(n)", name: "Listener \(n)'s station", owner: person.displayName, ownerID: person.id,
                frequency: nil, personal: true, quietSince: now, createdAt: now)
            _ = try await database.createAccount(person, station: station, upgrading: false, now: now, band: .fm)
        }
    }

    private func time(_ label: String, _ arguments: [String]) async throws {
        let started = Date()
        let result = try await Subprocess.run(
            .path(FilePath(try Self.wavelength())), arguments: Arguments(arguments),
            output: .string(limit: 1 << 16), error: .string(limit: 1 << 16))
        let seconds = Date().timeIntervalSince(started)
        guard result.terminationStatus.isSuccess else {
            throw BenchError("wavelength \(arguments[0]) failed: \(result.standardError ?? "")")
        }
        print("\(label): \(String(format: "%.2f", seconds)) s — \((result.standardOutput ?? "").split(separator: "\n").first ?? "")")
    }

    /// The `wavelength` built beside this benchmark binary.
    private static func wavelength() throws -> String {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("wavelength").path
    }
}
