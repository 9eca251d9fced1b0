import ArgumentParser
import Foundation
import Logging
import WavelengthPostgres
import WavelengthSQLite
import WavelengthServer

/// Copies a community from the embedded SQLite file to PostgreSQL, the
/// step from one node to several. Stop the server first: what it saved
/// after the copy began would not be copied.
struct MigrateDB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-db",
        abstract: "Copy a community from its SQLite file to an empty PostgreSQL database (stop the server first).")

    @Option(help: "The SQLite file: sqlite:PATH (default: the data folder's wavelength.sqlite).")
    var from: String?

    @Option(help: "The PostgreSQL database: postgres://user:password@host:5432/database (it must hold no community yet).")
    var to: String

    @Option(help: "Data folder holding the SQLite file (env WAVELENGTH_DATA).")
    var data: String = Environment.value("WAVELENGTH_DATA") ?? ServerConfiguration.defaultDataDirectory

    func run() async throws {
        var logger = Logger(label: "wavelength.migrate-db")
        logger.logLevel = .warning
        guard case .sqlite(let path) = try DatabaseChoice(from, defaultPath: data + "/wavelength.sqlite") else {
            throw ValidationError("--from must be sqlite:PATH")
        }
        guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("There is no SQLite file at \(path).") }
        guard case .postgres(let address) = try DatabaseChoice(to, defaultPath: "") else {
            throw ValidationError("--to must be a postgres:// address")
        }
        // Opening brings an older file's schema up to date first.
        let source = try AppDatabase.open(path: path)
        let target = PostgresStore(address: address, logger: logger, maximumConnections: 2)
        print("Copying \(path) to \(address.logDescription)…")
        let report = try await withThrowingTaskGroup(of: ImportReport?.self) { group in
            group.addTask {
                await target.run()
                return nil
            }
            defer { group.cancelAll() }
            target.deadline = .seconds(30)
            try await target.migrate()
            return try await target.importCommunity(from: source)
        }
        for table in report.tables where table.copied > 0 || table.dropped > 0 {
            let dropped = table.dropped > 0 ? " (\(table.dropped) revoked, not kept)" : ""
            print("  \(table.target): \(table.copied) rows\(dropped)")
        }
        print("Done: \(report.tables.reduce(0) { $0 + $1.copied }) rows, in one transaction. Start each node with --database and this address.")
    }
}
