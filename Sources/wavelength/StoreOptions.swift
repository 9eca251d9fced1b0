import ArgumentParser
import Foundation
import Logging
import WavelengthPostgres
import WavelengthSQLite
import WavelengthServer

/// Where the store is, as `serve` is told.
struct StoreOptions: ParsableArguments {
    @Option(help: "Data folder (env WAVELENGTH_DATA).")
    var data: String = Environment.value("WAVELENGTH_DATA") ?? ServerConfiguration.defaultDataDirectory

    @Option(help: "The database, if not the data folder's: sqlite:PATH or postgres://… (env WAVELENGTH_DATABASE).")
    var database: String?

    /// The embedded store's file; a PostgreSQL address is refused with
    /// `postgresAdvice` (what to use instead).
    func sqlitePath(postgresAdvice: String) throws -> String {
        switch try DatabaseChoice(database ?? Environment.value("WAVELENGTH_DATABASE"), defaultPath: data + "/wavelength.sqlite") {
        case .sqlite(let path): return path
        case .postgres: throw ValidationError(postgresAdvice)
        }
    }

    /// Runs `body` with the store open (and its schema up to date).
    func withStore<T: Sendable>(_ body: @escaping @Sendable (any OperatorRepository) async throws -> T) async throws -> T {
        var logger = Logger(label: "wavelength.admin")
        logger.logLevel = .warning
        switch try DatabaseChoice(database ?? Environment.value("WAVELENGTH_DATABASE"), defaultPath: data + "/wavelength.sqlite") {
        case .sqlite(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                throw ValidationError("There is no database at \(path): start the server once first.")
            }
            return try await body(try AppDatabase.open(path: path))
        case .postgres(let address):
            let store = PostgresStore(address: address, logger: logger, maximumConnections: 2)
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    await store.run()
                    return nil
                }
                defer { group.cancelAll() }
                try await store.migrate()
                return try await body(store)
            }
        }
    }
}
