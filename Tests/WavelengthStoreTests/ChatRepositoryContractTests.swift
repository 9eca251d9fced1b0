import Testing
import WavelengthCore
import WavelengthSQLite
import WavelengthStore

/// The chat in every store (the same tests for each): each change one
/// step, the retention kept as messages come in and at start, and what a
/// restarted hub reads back.
@Suite("Chat storage contract")
struct ChatRepositoryContractTests {
    /// A station with two people in it, for `body`.
    static func inRoom(_ kind: StoreKind, _ body: @escaping @Sendable (any StationRepository) async throws -> Void)
        async throws
    {
        try await kind.withStore { db in
            try await setUp(kind, db)
            try await body(db)
        }
    }

    static func setUp(_ kind: StoreKind, _ db: any StationRepository) async throws {
        _ = try await db.insertStation(
            StationRecord(id: "s1", name: "One", owner: "me", ownerKeyHash: "h", frequency: "101.1", quietSince: nil, createdAt: 5),
            now: 5, band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil)
        for id in ["p1", "p2"] {
            try await kind.addPerson(id, to: db)
        }
    }

    static func message(_ id: String, by person: String, at sentAt: EpochMillis) -> ChatMessage {
        ChatMessage(id: id, personID: person, name: person.uppercased(), handle: nil, text: "text \(id)", sentAt: sentAt)
    }

    @Test(arguments: StoreKind.available)
    func messagesMutesAndSlowModeComeBackAfterARestart(_ kind: StoreKind) async throws {
        try await Self.inRoom(kind) { db in
            for (index, id) in ["a", "b", "c"].enumerated() {
                try await db.saveChat(stationID: "s1", .post(Self.message(id, by: index == 1 ? "p2" : "p1", at: 100 + Int64(index)), purgeBefore: 0))
            }
            try await db.saveChat(stationID: "s1", .mute(personID: "p2", until: 5_000))
            try await db.saveChat(stationID: "s1", .slowMode(seconds: 30))
            let loaded = try #require(try await db.loadStation(id: "s1")).chat
            #expect(loaded.recent.map(\.id) == ["a", "b", "c"])
            #expect(loaded.recent[1] == Self.message("b", by: "p2", at: 101))
            #expect(loaded.mutes == ["p2": 5_000])
            #expect(loaded.slowModeSeconds == 30)
            // A mute that ended is not read back as running.
            #expect(try await db.chatRoom(stationID: "s1", limit: 50, now: 5_000).mutes.isEmpty)

            try await db.saveChat(stationID: "s1", .deleteAllBy(personID: "p1"))
            #expect(try await db.chatRoom(stationID: "s1", limit: 50, now: 0).recent.map(\.id) == ["b"])
            try await db.saveChat(stationID: "s1", .clear)
            #expect(try await db.chatRoom(stationID: "s1", limit: 50, now: 0).recent.isEmpty)
        }
    }

    @Test(arguments: StoreKind.available)
    func theRetentionDropsOldMessages(_ kind: StoreKind) async throws {
        try await Self.inRoom(kind) { db in
            try await db.saveChat(stationID: "s1", .post(Self.message("old", by: "p1", at: 10), purgeBefore: 0))
            try await db.saveChat(stationID: "s1", .post(Self.message("mid", by: "p1", at: 500), purgeBefore: 0))
            // A new message takes the station's expired ones with it.
            try await db.saveChat(stationID: "s1", .post(Self.message("new", by: "p2", at: 1_000), purgeBefore: 100))
            #expect(try await db.chatRoom(stationID: "s1", limit: 50, now: 0).recent.map(\.id) == ["mid", "new"])
            // At start, every station's.
            #expect(try await db.purgeChat(before: 600) >= 1)
            #expect(try await db.chatRoom(stationID: "s1", limit: 50, now: 0).recent.map(\.id) == ["new"])
        }
    }

    @Test(arguments: StoreKind.available)
    func aStationKeepsAtMostItsShareOfMessages(_ kind: StoreKind) async throws {
        try await Self.inRoom(kind) { db in
            for index in 0..<25 {
                try await db.saveChat(
                    stationID: "s1", .post(Self.message("m\(index)", by: "p1", at: 1_000 + Int64(index)), purgeBefore: 0, keep: 20))
            }
            let kept = try await db.chatRoom(stationID: "s1", limit: 50, now: 0).recent
            #expect(kept.map(\.id) == (5..<25).map { "m\($0)" })
        }
    }

    @Test(arguments: StoreKind.available)
    func reactionsAddUpPerPlay(_ kind: StoreKind) async throws {
        try await Self.inRoom(kind) { db in
            try await db.recordReactions(stationID: "s1", Reactions.Burst(entryID: "e1", trackID: "t1", burst: ["🔥": 2], totals: ["🔥": 2]))
            try await db.recordReactions(
                stationID: "s1", Reactions.Burst(entryID: "e1", trackID: "t1", burst: ["🔥": 1, "😂": 1], totals: ["🔥": 3, "😂": 1]))
            #expect(try await db.reactions(stationID: "s1", entryID: "e1") == ["🔥": 3, "😂": 1])
            #expect(try await db.reactions(stationID: "s1", entryID: "e2") == [:])
        }
    }
}
