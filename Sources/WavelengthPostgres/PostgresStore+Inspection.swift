import PostgresNIO

extension PostgresStore {
    /// The schema versions applied, in order.
    public func schemaVersions() async throws -> [Int] {
        try await query("SELECT version FROM schema_migration ORDER BY version")
            .all { Int(try $0.value("version", as: Int32.self)) }
    }

    /// One integer a statement selects (tests look with it).
    func scalar(_ sql: String) async throws -> Int64? {
        try await query(PostgresQuery(unsafeSQL: sql)).first { try $0[0].decode(Int64?.self, context: .default) } ?? nil
    }

    /// Runs one statement that returns no rows (tests set the scene with it).
    func execute(_ sql: String) async throws {
        try await query(PostgresQuery(unsafeSQL: sql))
    }
}
