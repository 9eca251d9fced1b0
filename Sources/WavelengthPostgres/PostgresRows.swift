import Foundation
import PostgresNIO
import WavelengthCore
import WavelengthStore

/// Reading records from rows, by column name.
extension PostgresRandomAccessRow {
    func value<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self, context: .default)
    }
}

extension PostgresRowSequence {
    /// Every row, read with `make`.
    func all<T>(_ make: (PostgresRandomAccessRow) throws -> T) async throws -> [T] {
        var out: [T] = []
        for try await row in self { out.append(try make(row.makeRandomAccess())) }
        return out
    }

    /// The first row, read with `make`, or nil.
    func first<T>(_ make: (PostgresRandomAccessRow) throws -> T) async throws -> T? {
        for try await row in self { return try make(row.makeRandomAccess()) }
        return nil
    }
}

/// A statement's rows, read whole (the deadline covers the reading too).
struct Rows: Sendable {
    var rows: [PostgresRow]

    func all<T>(_ make: (PostgresRandomAccessRow) throws -> T) throws -> [T] {
        try rows.map { try make($0.makeRandomAccess()) }
    }

    func first<T>(_ make: (PostgresRandomAccessRow) throws -> T) throws -> T? {
        try rows.first.map { try make($0.makeRandomAccess()) }
    }
}

/// Values kept as JSON text (the party's queue, the lobby, request settings).
enum JSONColumn {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ text: String, as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}

enum StationRows {
    static let columns = """
        id, name, owner, owner_id, owner_key_hash, frequency, code_expires_at, access_code, visibility,
        max_listeners, personal, revision, quiet_since, created_at, paused_at, mode, request_settings
        """

    /// The same, named through the table, for joins.
    static let qualifiedColumns = columns.split(separator: ",")
        .map { "station." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")

    static func station(_ row: PostgresRandomAccessRow) throws -> StationRecord {
        var record = StationRecord(
            id: try row.value("id"), name: try row.value("name"), owner: try row.value("owner"),
            ownerID: try row.value("owner_id"), ownerKeyHash: try row.value("owner_key_hash"),
            frequency: try row.value("frequency"),
            visibility: StationVisibility(rawValue: try row.value("visibility")) ?? .public,
            personal: try row.value("personal"), revision: try row.value("revision"),
            quietSince: try row.value("quiet_since"), createdAt: try row.value("created_at"))
        record.codeExpiresAt = try row.value("code_expires_at")
        record.accessCode = try row.value("access_code")
        record.maxListeners = try row.value("max_listeners", as: Int64?.self).map { Int($0) }
        record.pausedAt = try row.value("paused_at")
        record.mode = ProgrammingMode(rawValue: try row.value("mode")) ?? .dj
        record.requestSettings = try row.value("request_settings", as: String?.self).map {
            try JSONColumn.decode($0, as: RequestSettings.self)
        }
        return record
    }

    static func entry(_ row: PostgresRandomAccessRow, id column: String) throws -> TimelineEntry {
        TimelineEntry(
            id: try row.value(column), trackID: try row.value("track_id"), start: try row.value("start_at"),
            duration: try row.value("duration"), offset: try row.value("start_offset"),
            source: EntrySource(rawValue: try row.value("source")) ?? .robot, why: try row.value("why"))
    }
}
