/// A value as a store keeps it (SQLite's storage classes), for copying a
/// community from one store to another (`wavelength migrate-db`).
public enum StoredValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// Some rows of one table, in the order they were written.
public struct TablePage: Sendable {
    public var table: String
    public var columns: [String]
    public var rows: [[StoredValue]]
    /// Where the next page starts (nil: this was the last).
    public var next: Int64?

    public init(table: String, columns: [String], rows: [[StoredValue]], next: Int64?) {
        self.table = table
        self.columns = columns
        self.rows = rows
        self.next = next
    }
}

/// A store whose every row can be read out, table by table: the source of
/// a copy to another store. It names its own tables and columns; the
/// store that imports them knows how they map to its own.
public protocol StorageExport: Sendable {
    /// The tables that hold a community (not the store's own bookkeeping).
    func exportedTables() async throws -> [String]
    /// Up to `limit` rows of `table`, from `start` (nil: the first) on.
    func exportPage(table: String, from start: Int64?, limit: Int) async throws -> TablePage
}
