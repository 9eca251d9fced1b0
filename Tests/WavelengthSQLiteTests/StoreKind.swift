import Testing
import WavelengthCore
import WavelengthSQLite
import WavelengthStore
import WavelengthTestSupport

/// The stores a contract test runs against: every implementation of the
/// repository protocols must pass the same tests (PostgreSQL joins here).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case memory

    var testDescription: String { rawValue }

    func make(draw: FrequencyDraw = .system) throws -> any StationRepository {
        switch self {
        case .sqlite:
            var db = try AppDatabase.inMemory()
            db.frequencyDraw = draw
            return db
        case .memory:
            return InMemoryStore(frequencyDraw: draw)
        }
    }

    /// A person to own stations (SQLite checks that an owner exists; the
    /// in-memory store keeps no people).
    func addPerson(_ id: String, to store: any StationRepository) async throws {
        guard let people = store as? any PeopleRepository else { return }
        try await people.insertGuest(
            PersonRecord(id: id, kind: .guest, handle: nil, displayName: id.uppercased(), passwordHash: nil, createdAt: 0))
    }
}
