import Foundation
import GRDB
import WavelengthStore

extension AppDatabase: StorageExport {
    /// Tables that are SQLite's or GRDB's own, the search index (made from
    /// `track`), and the health probe's row.
    static let notExported: Set<String> = ["healthProbe", "grdb_migrations"]

    public func exportedTables() async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            ).filter { !Self.notExported.contains($0) && !$0.hasPrefix("track_search") }
        }
    }

    /// Pages in rowid order: the order rows were written, which is what
    /// orders chat, likes and history where no column does.
    public func exportPage(table: String, from start: Int64?, limit: Int) async throws -> TablePage {
        let tables = try await exportedTables()
        guard tables.contains(table) else { throw ExportError.noSuchTable(table) }
        return try await writer.read { db in
            let columns = try db.columns(in: table).map(\.name)
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let rows = try Row.fetchAll(
                db, sql: "SELECT rowid AS __rowid, \(list) FROM \"\(table)\" WHERE rowid >= ? ORDER BY rowid LIMIT ?",
                arguments: [start ?? Int64.min, limit + 1])
            let page = rows.prefix(limit).map { row in columns.map { Self.stored(row[$0] as DatabaseValue) } }
            let next: Int64? = rows.count > limit ? rows[limit]["__rowid"] : nil
            return TablePage(table: table, columns: columns, rows: Array(page), next: next)
        }
    }

    static func stored(_ value: DatabaseValue) -> StoredValue {
        switch value.storage {
        case .null: .null
        case .int64(let n): .integer(n)
        case .double(let d): .real(d)
        case .string(let s): .text(s)
        case .blob(let data): .blob([UInt8](data))
        }
    }

    public enum ExportError: Error, CustomStringConvertible {
        case noSuchTable(String)
        public var description: String {
            switch self {
            case .noSuchTable(let name): "The database has no table \(name) to copy."
            }
        }
    }
}
