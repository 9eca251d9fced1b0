import Foundation
import Logging
import PostgresNIO
import WavelengthCore
import WavelengthStore

/// What `importCommunity` copied, table by table.
public struct ImportReport: Sendable {
    public struct Table: Sendable {
        public var source: String
        public var target: String
        public var copied: Int
        /// Rows the target keeps no form of (revoked link tokens, which it deletes).
        public var dropped: Int
    }

    public var tables: [Table]
}

public enum ImportError: Error, Equatable, CustomStringConvertible {
    case targetNotEmpty
    case unknownTable(String)
    case unknownColumn(table: String, column: String)
    case legacySecrets
    case value(table: String, column: String, String)

    public var description: String {
        switch self {
        case .targetNotEmpty:
            "The PostgreSQL database already holds a community (people, stations or tracks): copy into an empty one."
        case .unknownTable(let name):
            "The SQLite file has a table this version can't copy (\(name)): is it from a newer Wavelength?"
        case .unknownColumn(let table, let column):
            "The SQLite file's \(table) has a column this version can't copy (\(column)): is it from a newer Wavelength?"
        case .legacySecrets:
            "The SQLite file still holds the server's old keys: start `wavelength serve` on it once (it moves them to the data folder), stop it, and copy again."
        case .value(let table, let column, let why):
            "A value in \(table).\(column) can't be copied: \(why)."
        }
    }
}

extension PostgresStore {
    /// Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table.
    static let importBatch = 500

    /// Copies a whole community from `source` (the embedded store) into this
    /// database, which must be migrated and hold no community yet. One
    /// transaction: a copy that fails leaves the database as it was. No
    /// deadline: a large community takes as long as it takes.
    public func importCommunity(
        from source: any StorageExport, progress: @escaping @Sendable (String, Int) -> Void = { _, _ in }
    ) async throws -> ImportReport {
        let tables = try await source.exportedTables()
        let logger = logger
        return try await withoutDeadline {
            try await client.withTransaction(logger: logger) { connection in
                try await Self.importTables(tables, from: source, into: connection, progress: progress, logger: logger)
            }
        }
    }

    private func withoutDeadline<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PostgresTransactionError {
            if let inner = error.closureError, error.rollbackError == nil { throw inner }
            throw error
        }
    }

    private static func importTables(
        _ tables: [String], from source: any StorageExport, into connection: PostgresConnection,
        progress: @Sendable (String, Int) -> Void, logger: Logger
    ) async throws -> ImportReport {
        let held = try await connection.query(
            "SELECT (SELECT count(*) FROM person) + (SELECT count(*) FROM station) + (SELECT count(*) FROM track) AS n",
            logger: logger
        ).first { try $0.value("n", as: Int64.self) } ?? 0
        guard held == 0 else { throw ImportError.targetNotEmpty }
        let types = try await columnTypes(connection, logger: logger)

        if tables.contains("serverSecret") {
            let secrets = try await source.exportPage(table: "serverSecret", from: nil, limit: 1)
            guard secrets.rows.isEmpty else { throw ImportError.legacySecrets }
        }
        // Parents before children: the references are checked row by row.
        let first = ["person", "station", "track", "show"]
        let ordered = first.filter(tables.contains) + tables.filter { !first.contains($0) }.sorted()
        var report = ImportReport(tables: [])
        for table in ordered where !EmbeddedNames.skipped.contains(table) {
            let target = EmbeddedNames.table(table)
            guard let targetTypes = types[target] else { throw ImportError.unknownTable(table) }
            var copied = 0
            var dropped = 0
            var start: Int64?
            repeat {
                let page = try await source.exportPage(table: table, from: start, limit: importBatch)
                let (columns, rows, gone) = try shape(page, targetTypes: targetTypes)
                dropped += gone
                if !rows.isEmpty {
                    try await connection.query(try insert(into: target, columns: columns, rows: rows, types: targetTypes), logger: logger)
                }
                copied += rows.count
                progress(table, copied)
                start = page.next
            } while start != nil
            report.tables.append(.init(source: table, target: target, copied: copied, dropped: dropped))
        }
        // Serial columns go on from the highest copied value.
        for (table, column) in try await serialColumns(connection, logger: logger) {
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'),
                            COALESCE((SELECT max(\(column)) FROM \(table)), 0) + 1, false)
                        """), logger: logger)
        }
        return report
    }

    /// A page's columns and rows as the target table takes them: renamed,
    /// rows the target doesn't keep left out, derived columns added.
    private static func shape(_ page: TablePage, targetTypes: [String: String]) throws
        -> (columns: [String], rows: [[StoredValue]], dropped: Int)
    {
        var columns = page.columns.map(EmbeddedNames.column)
        for (source, target) in zip(page.columns, columns) where targetTypes[target] == nil {
            // A revoked link token is kept in SQLite and deleted here.
            if page.table == "streamToken" && source == "revokedAt" { continue }
            throw ImportError.unknownColumn(table: page.table, column: source)
        }
        var rows = page.rows
        var dropped = 0
        if page.table == "streamToken", let revoked = columns.firstIndex(of: "revoked_at") {
            let live = rows.filter { $0[revoked] == .null }
            dropped = rows.count - live.count
            rows = live.map { row in var row = row; row.remove(at: revoked); return row }
            columns.remove(at: revoked)
        }
        if page.table == "track" {
            // Find-as-you-type reads each field's folded words.
            let fields = ["title", "artist", "album", "album_artist"]
            let indexes = fields.compactMap { columns.firstIndex(of: $0) }
            guard indexes.count == fields.count else { throw ImportError.unknownColumn(table: "track", column: "title") }
            rows = rows.map { row in
                row + indexes.map { index in
                    guard case .text(let text) = row[index] else { return .text("") }
                    return .text(words(text))
                }
            }
            columns += fields.map { "words_" + $0 }
        }
        return (columns, rows, dropped)
    }

    private static func insert(into table: String, columns: [String], rows: [[StoredValue]], types: [String: String])
        throws -> PostgresQuery
    {
        var bindings = PostgresBindings(capacity: columns.count * rows.count)
        var tuples: [String] = []
        var parameter = 0
        for row in rows {
            var places: [String] = []
            for (column, value) in zip(columns, row) {
                try bind(value, as: types[column] ?? "text", into: &bindings, table: table, column: column)
                parameter += 1
                places.append("$\(parameter)")
            }
            tuples.append("(" + places.joined(separator: ", ") + ")")
        }
        let sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES " + tuples.joined(separator: ", ")
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// SQLite's value as the column's PostgreSQL type (SQLite keeps
    /// booleans as integers, and any column may hold any class).
    private static func bind(
        _ value: StoredValue, as type: String, into bindings: inout PostgresBindings, table: String, column: String
    ) throws {
        func refuse(_ why: String) -> ImportError { .value(table: table, column: column, why) }
        if value == .null {
            bindings.appendNull()
            return
        }
        switch (type, value) {
        case ("bigint", .integer(let n)): try bindings.append(n)
        case ("bigint", .real(let d)) where d.rounded() == d && abs(d) < 9e18: try bindings.append(Int64(d))
        case ("integer", .integer(let n)) where Int32(exactly: n) != nil: try bindings.append(Int32(n))
        case ("boolean", .integer(let n)): try bindings.append(n != 0)
        case ("double precision", .real(let d)): try bindings.append(d)
        case ("double precision", .integer(let n)): try bindings.append(Double(n))
        case ("text", .text(let s)): try bindings.append(s)
        case ("text", .integer(let n)): try bindings.append(String(n))
        case ("text", .real(let d)): try bindings.append(String(d))
        case ("bytea", .blob(let bytes)): try bindings.append(ByteBuffer(bytes: bytes))
        case ("bytea", .text(let s)): try bindings.append(ByteBuffer(string: s))
        default: throw refuse("\(value) is not a \(type)")
        }
    }

    private static func columnTypes(_ connection: PostgresConnection, logger: Logger) async throws
        -> [String: [String: String]]
    {
        let rows = try await connection.query(
            """
            SELECT table_name::text AS t, column_name::text AS c, data_type::text AS d FROM information_schema.columns
            WHERE table_schema = current_schema()
            """, logger: logger
        ).all { (try $0.value("t", as: String.self), try $0.value("c", as: String.self), try $0.value("d", as: String.self)) }
        var types: [String: [String: String]] = [:]
        for (table, column, type) in rows { types[table, default: [:]][column] = type }
        return types
    }

    private static func serialColumns(_ connection: PostgresConnection, logger: Logger) async throws -> [(String, String)] {
        try await connection.query(
            """
            SELECT table_name::text AS t, column_name::text AS c FROM information_schema.columns
            WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'
            """, logger: logger
        ).all { (try $0.value("t", as: String.self), try $0.value("c", as: String.self)) }
    }
}
