import WavelengthStore
import Foundation
import GRDB
import WavelengthCore

/// The one SQLite database of a Wavelength server.
///
/// Follows GRDB's `AppDatabase` pattern: a single writer, migrations applied
/// on open, and intention-revealing methods that each run in one transaction.
public struct AppDatabase: Sendable {
    let writer: any DatabaseWriter
    /// Where a new station's frequency is drawn from: the system's
    /// generator, or a seeded one in a test that wants the same codes twice.
    public var frequencyDraw = FrequencyDraw.system

    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Opens (or creates) the database file in WAL mode.
    ///
    /// `synchronous = FULL` makes every committed transaction durable before
    /// the server acknowledges it, so a `kill -9` (or power loss) never loses
    /// an acknowledged write.
    public static func open(path: String) throws -> AppDatabase {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: path, configuration: configuration)
        return try AppDatabase(pool)
    }

    /// A private in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue())
    }

    public var reader: any DatabaseReader { writer }
}
