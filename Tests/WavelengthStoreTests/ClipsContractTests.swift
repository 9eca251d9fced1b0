import Testing
import WavelengthCore
import WavelengthStore

/// Voice clips' records in every store that keeps them (the same tests for
/// each): the quota and the waiting limit, racing uploads included.
@Suite("Clips storage contract")
struct ClipsContractTests {
    typealias Clips = StationRepository & ClipRepository

    static func withClips(_ kind: StoreKind, _ body: @escaping @Sendable (any Clips) async throws -> Void) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Clips)
            _ = try await db.insertStation(
                StationRecord(id: "s1", name: "One", owner: "me", frequency: nil, quietSince: nil, createdAt: 1),
                now: 1, band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil)
            for id in ["p1", "p2", "p3"] { try await kind.addPerson(id, to: db) }
            try await body(db)
        }
    }

    static func clip(_ id: String, by person: String, bytes: Int, status: VoiceClip.Status = .pending, at: EpochMillis = 1)
        -> VoiceClip
    {
        VoiceClip(
            id: id, stationID: "s1", personID: person, name: person.uppercased(), note: "hi \(id)", durationMs: 4_000,
            bytes: bytes, status: status, createdAt: at)
    }

    @Test(arguments: StoreKind.full)
    func clipsAreKeptApprovedAndDeleted(_ kind: StoreKind) async throws {
        try await Self.withClips(kind) { db in
            try await db.insertClip(Self.clip("a", by: "p1", bytes: 100, at: 1), quotaBytes: 10_000, pendingLimit: 3)
            try await db.insertClip(Self.clip("b", by: "p2", bytes: 200, at: 2), quotaBytes: 10_000, pendingLimit: 3)
            try await db.insertClip(Self.clip("c", by: "p1", bytes: 300, status: .approved, at: 3), quotaBytes: 10_000, pendingLimit: 3)
            #expect(try await db.clip(id: "b") == Self.clip("b", by: "p2", bytes: 200, at: 2))
            #expect(try await db.clips(stationID: "s1", personID: nil, limit: 10).map(\.id) == ["c", "b", "a"])
            #expect(try await db.clips(stationID: "s1", personID: "p1", limit: 1).map(\.id) == ["c"])
            #expect(try await db.clipBytes(stationID: "s1") == 600)
            #expect(try await db.approveClip(id: "a"))
            #expect(try await db.approveClip(id: "a") == false)
            #expect(try await db.clip(id: "a")?.status == .approved)
            #expect(try await db.deleteClip(id: "b")?.personID == "p2")
            #expect(try await db.deleteClip(id: "b") == nil)
            #expect(try await db.clipBytes(stationID: "s1") == 400)
        }
    }

    /// Twelve uploads at once against a quota with room for five (pending
    /// clips take at most half of it) and three waiting per person.
    @Test(arguments: StoreKind.full)
    func theQuotaAndTheWaitingLimitHoldUnderConcurrency(_ kind: StoreKind) async throws {
        try await Self.withClips(kind) { db in
            let kept = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<12 {
                    group.addTask {
                        do {
                            try await db.insertClip(
                                Self.clip("c\(n)", by: "p\(n % 3 + 1)", bytes: 100, at: EpochMillis(n)),
                                quotaBytes: 1_000, pendingLimit: 3)
                            return true
                        } catch StorageError.clipQuota, StorageError.pendingClips {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(kept == 5)
            #expect(try await db.clipBytes(stationID: "s1") == 500)
            let waiting = Dictionary(grouping: try await db.clips(stationID: "s1", personID: nil, limit: 50), by: \.personID)
            #expect(waiting.values.allSatisfy { $0.count <= 3 })
        }
    }
}
