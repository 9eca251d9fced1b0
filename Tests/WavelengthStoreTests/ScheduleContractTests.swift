import Testing
import WavelengthCore
import WavelengthStore

/// Shows and reminders in every store that keeps them (the same tests for
/// each), racing editors included.
@Suite("Schedule storage contract")
struct ScheduleContractTests {
    typealias Schedule = StationRepository & ScheduleRepository

    struct Refused: Error {}

    static func withSchedule(_ kind: StoreKind, _ body: @escaping @Sendable (any Schedule) async throws -> Void) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Schedule)
            _ = try await db.insertStation(
                StationRecord(id: "s1", name: "One", owner: "me", frequency: nil, quietSince: nil, createdAt: 1),
                now: 1, band: FrequencyBand(tiers: [["101.1"]]), ownerLimit: nil)
            for id in ["p1", "p2"] { try await kind.addPerson(id, to: db) }
            try await body(db)
        }
    }

    static func show(_ id: String, at time: String = "09:00", updatedAt: EpochMillis = 1) -> Show {
        Show(
            id: id, stationID: "s1", name: "Show \(id)", timeZone: "Europe/Oslo", startTime: LocalTime(time)!,
            durationMinutes: 60, repeats: .weekly(interval: 2, weekdays: [.tuesday], weekStart: .monday),
            seasonStart: LocalDate("2026-09-01")!, updatedAt: updatedAt)
    }

    @Test(arguments: StoreKind.full)
    func showsAreSavedReplacedAndDeletedWithTheirReminders(_ kind: StoreKind) async throws {
        try await Self.withSchedule(kind) { db in
            try await db.saveShow(Self.show("b"), check: { _ in })
            try await db.saveShow(Self.show("a", at: "18:00"), check: { #expect($0.map(\.id) == ["b"]) })
            #expect(try await db.shows(stationID: "s1").map(\.id) == ["a", "b"])
            #expect(try await db.show(id: "a") == Self.show("a", at: "18:00"))
            #expect(try await db.shows(ids: ["b", "zz"]).map(\.id) == ["b"])
            #expect(try await db.shows(ids: []).isEmpty)
            // The same id replaces the show.
            try await db.saveShow(Self.show("a", at: "20:00", updatedAt: 2), check: { _ in })
            #expect(try await db.show(id: "a")?.startTime == LocalTime("20:00"))
            // A refused check saves nothing.
            await #expect(throws: Refused.self) { try await db.saveShow(Self.show("c"), check: { _ in throw Refused() }) }
            #expect(try await db.show(id: "c") == nil)

            try await db.setReminder(ShowReminder(personID: "p1", showID: "a", leadMinutes: 10, createdAt: 5), limit: 5)
            try await db.setReminder(ShowReminder(personID: "p1", showID: "b", leadMinutes: 15, createdAt: 6), limit: 5)
            try await db.setReminder(ShowReminder(personID: "p1", showID: "a", leadMinutes: 30, createdAt: 7), limit: 5)
            #expect(try await db.reminders(personID: "p1").map { "\($0.showID):\($0.leadMinutes)" } == ["a:30", "b:15"])
            #expect(try await db.deleteShow(id: "a"))
            #expect(try await db.deleteShow(id: "a") == false)
            #expect(try await db.reminders(personID: "p1").map(\.showID) == ["b"])
            #expect(try await db.removeReminder(personID: "p1", showID: "b"))
            #expect(try await db.removeReminder(personID: "p1", showID: "b") == false)
        }
    }

    /// Ten editors at once, with a rule that allows three shows: the rule
    /// sees the others' shows, so exactly three are saved.
    @Test(arguments: StoreKind.full)
    func racingEditorsCannotAllPassTheCheck(_ kind: StoreKind) async throws {
        try await Self.withSchedule(kind) { db in
            let saved = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<10 {
                    group.addTask {
                        do {
                            try await db.saveShow(Self.show("s\(n)"), check: { if $0.count >= 3 { throw Refused() } })
                            return true
                        } catch is Refused {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(saved == 3)
            #expect(try await db.shows(stationID: "s1").count == 3)
        }
    }

    /// A person's reminders stop at the limit, however many are asked for at once.
    @Test(arguments: StoreKind.full)
    func theReminderLimitHoldsUnderConcurrency(_ kind: StoreKind) async throws {
        try await Self.withSchedule(kind) { db in
            for n in 0..<10 { try await db.saveShow(Self.show("s\(n)"), check: { _ in }) }
            let set = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<10 {
                    group.addTask {
                        do {
                            try await db.setReminder(
                                ShowReminder(personID: "p2", showID: "s\(n)", leadMinutes: 5, createdAt: EpochMillis(n)),
                                limit: 4)
                            return true
                        } catch StorageError.reminderLimit(4) {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(set == 4)
            #expect(try await db.reminders(personID: "p2").count == 4)
        }
    }
}
