import Foundation
import GRDB
import Testing
import WavelengthCore
import WavelengthLibrary
@testable import WavelengthSQLite

@Suite("Storage")
struct AppDatabaseTests {
    /// A new code for a code-protected station (the store contract covers
    /// how codes are drawn and reclaimed): an expired code is free again,
    /// and the rotation hands out another.
    @Test func aRotatedCodeIsAFreshOneThatExpires() async throws {
        let db = try AppDatabase.inMemory()
        let dial = FrequencyBand(tiers: [["90.1", "90.3"]])
        let party = StationRecord(
            id: "party", name: "party", owner: "me", frequency: nil, visibility: .code, quietSince: 5, createdAt: 1)
        let first = try await db.insertStation(party, now: 100, band: dial, ownerLimit: nil)
        let rotated = try await db.assignCode(
            stationID: "party", accessCode: "123456", expiresAt: 150, now: 100, band: dial)
        #expect(rotated.record.frequency != first.record.frequency)
        #expect(rotated.record.accessCode == "123456")
        #expect(rotated.record.liveFrequency(at: 149) != nil)
        #expect(rotated.record.liveFrequency(at: 150) == nil)
    }

    @Test func theDatabaseFileUsesWAL() async throws {
        let folder = NSTemporaryDirectory() + "wavelength-storage-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let db = try AppDatabase.open(path: folder + "/test.sqlite")
        let mode = try await db.reader.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let synchronous = try await db.reader.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(synchronous == 2)  // FULL
    }
}
