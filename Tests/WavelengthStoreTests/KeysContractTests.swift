import Testing
import WavelengthCore
import WavelengthStore

/// Guessing lockouts, stream keys and link tokens in every store that
/// keeps them (the same tests for each).
@Suite("Keys and lockouts storage contract")
struct KeysContractTests {
    typealias Keys = StationRepository & AttemptRepository & StreamKeyRepository & LinkTokenRepository

    /// A store with one station and two people, for `body`.
    static func withKeys(_ kind: StoreKind, _ body: @escaping @Sendable (any Keys) async throws -> Void) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Keys)
            _ = try await db.insertStation(
                StationRecord(id: "s1", name: "One", owner: "me", frequency: nil, quietSince: nil, createdAt: 1),
                now: 1, band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil)
            for id in ["p1", "p2"] { try await kind.addPerson(id, to: db) }
            try await body(db)
        }
    }

    /// Lockouts survive a restart while they matter: in force, or an hour
    /// after they end (escalation is remembered); older ones are deleted.
    @Test(arguments: StoreKind.full)
    func lockoutsAreKeptWhileTheyMatter(_ kind: StoreKind) async throws {
        try await Self.withKeys(kind) { db in
            let hour: EpochMillis = 60 * 60 * 1000
            try await db.saveLockout(limiter: "code", .init(key: "10.0.0.1", lockedUntil: 1_000, level: 1, lastFailure: 900))
            try await db.saveLockout(limiter: "code", .init(key: "10.0.0.2", lockedUntil: 5_000, level: 2, lastFailure: 4_000))
            try await db.saveLockout(limiter: "login", .init(key: "10.0.0.1", lockedUntil: 3_000, level: 1, lastFailure: 2_000))
            // A second lockout of the same key replaces the first.
            try await db.saveLockout(limiter: "code", .init(key: "10.0.0.2", lockedUntil: 9_000, level: 3, lastFailure: 8_000))
            let kept = try await db.lockouts(activeAt: 2_500 + hour)
            #expect(
                Set(kept.map { "\($0.limiter)/\($0.lockout.key)/\($0.lockout.level)" })
                    == ["code/10.0.0.2/3", "login/10.0.0.1/1"])
            #expect(kept.first { $0.limiter == "code" }?.lockout.lockedUntil == 9_000)
            #expect(try await db.lockouts(activeAt: 9_001 + hour).isEmpty)
        }
    }

    @Test(arguments: StoreKind.full)
    func aPersonHoldsOneStreamKeyAtATime(_ kind: StoreKind) async throws {
        try await Self.withKeys(kind) { db in
            try await db.setStreamKey(personID: "p1", hash: "h1", at: 10)
            #expect(try await db.streamKeyHolder(hash: "h1") == "p1")
            #expect(try await db.streamKeyCreated(personID: "p1") == 10)
            try await db.setStreamKey(personID: "p1", hash: "h2", at: 20)
            #expect(try await db.streamKeyHolder(hash: "h1") == nil)
            #expect(try await db.streamKeyHolder(hash: "h2") == "p1")
            #expect(try await db.streamKeyCreated(personID: "p1") == 20)
            #expect(try await db.removeStreamKey(personID: "p1"))
            #expect(try await db.removeStreamKey(personID: "p1") == false)
            #expect(try await db.streamKeyHolder(hash: "h2") == nil)
            #expect(try await db.streamKeyCreated(personID: "p2") == nil)
        }
    }

    /// At most `keep` live tokens per person, purpose and station: a new
    /// one past that revokes the oldest; revoking takes them all.
    @Test(arguments: StoreKind.full)
    func linkTokensKeepTheNewestAndRevokeTogether(_ kind: StoreKind) async throws {
        try await Self.withKeys(kind) { db in
            for (n, hash) in ["a", "b", "c"].enumerated() {
                try await db.issueLinkToken(
                    hash: hash, purpose: .stream, stationID: "s1", personID: "p1", keep: 2, at: EpochMillis(n))
            }
            try await db.issueLinkToken(hash: "cal", purpose: .calendar, stationID: "s1", personID: "p1", keep: 2, at: 5)
            try await db.issueLinkToken(hash: "other", purpose: .stream, stationID: "s1", personID: "p2", keep: 2, at: 5)
            #expect(try await db.linkTokenHolder(hash: "a", purpose: .stream) == nil)
            #expect(try await db.linkTokenHolder(hash: "b", purpose: .stream).map { "\($0.stationID)/\($0.personID)" } == "s1/p1")
            #expect(try await db.linkTokenHolder(hash: "c", purpose: .stream) != nil)
            // A token opens only what it was made for.
            #expect(try await db.linkTokenHolder(hash: "cal", purpose: .stream) == nil)
            #expect(try await db.linkTokenHolder(hash: "cal", purpose: .calendar) != nil)
            #expect(try await db.revokeLinkTokens(purpose: .stream, stationID: "s1", personID: "p1") == 2)
            #expect(try await db.linkTokenHolder(hash: "c", purpose: .stream) == nil)
            #expect(try await db.linkTokenHolder(hash: "cal", purpose: .calendar) != nil)
            #expect(try await db.linkTokenHolder(hash: "other", purpose: .stream) != nil)
            #expect(try await db.revokeLinkTokens(purpose: .stream, stationID: "s1", personID: "p1") == 0)
        }
    }
}
