import Foundation
import Testing
import WavelengthCore
@testable import WavelengthPostgres
import WavelengthSQLite
import WavelengthStore
import WavelengthTestSupport

/// The stores a contract test runs against: every implementation of the
/// repository protocols must pass the same tests.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case memory
    case postgres

    var testDescription: String { rawValue }

    /// The stores this machine can run: PostgreSQL only where it is
    /// installed (CI installs it; elsewhere its cases are left out, loudly).
    static let available: [StoreKind] = {
        if PostgresServer.installed != nil { return allCases }
        FileHandle.standardError.write(Data("⚠️  \(PostgresServer.missing)\n".utf8))
        return allCases.filter { $0 != .postgres }
    }()

    /// The stores that keep everything a server keeps (the in-memory one
    /// keeps stations and tracks only).
    static var full: [StoreKind] { available.filter { $0 != .memory } }

    /// Runs `body` with a fresh, empty store of this kind (a database of its
    /// own on the shared PostgreSQL, migrated, for `.postgres`).
    func withStore<T: Sendable>(
        draw: FrequencyDraw = .system, _ body: @escaping @Sendable (any StationRepository) async throws -> T
    ) async throws -> T {
        switch self {
        case .sqlite:
            var db = try AppDatabase.inMemory()
            db.frequencyDraw = draw
            return try await body(db)
        case .memory:
            return try await body(InMemoryStore(frequencyDraw: draw))
        case .postgres:
            return try await PostgresStore.onSharedServer { store in
                var store = store
                store.frequencyDraw = draw
                try await store.migrate()
                return try await body(store)
            }
        }
    }

    /// A person to own stations (SQLite checks that an owner exists; the
    /// other stores keep no people yet).
    func addPerson(_ id: String, to store: any StationRepository) async throws {
        guard let people = store as? any PeopleRepository else { return }
        try await people.insertGuest(
            PersonRecord(id: id, kind: .guest, handle: nil, displayName: id.uppercased(), passwordHash: nil, createdAt: 0))
    }
}
