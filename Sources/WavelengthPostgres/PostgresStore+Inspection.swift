import PostgresNIO

extension PostgresStore {
    /// The schema versions applied, in order.
    public func schemaVersions() async throws -> [Int] {
        var versions: [Int] = []
        for try await (version,) in try await client.query(
            "SELECT version FROM schema_migration ORDER BY version", logger: logger
        ).decode((Int,).self) {
            versions.append(version)
        }
        return versions
    }

    /// One integer a statement selects (tests look with it).
    func scalar(_ sql: String) async throws -> Int64? {
        for try await (value,) in try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode((Int64?,).self) {
            return value
        }
        return nil
    }

    /// Runs one statement that returns no rows (tests set the scene with it).
    func execute(_ sql: String) async throws {
        try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }
}
