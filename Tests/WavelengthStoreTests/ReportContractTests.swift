import Testing
import WavelengthCore
import WavelengthStore

/// Reports and blocks, kept alike in every store that keeps people: a
/// reporter's limits hold under concurrency, a second report of the same
/// thing files nothing, a report is closed once, and its snapshot stays.
@Suite("Reports storage contract")
struct ReportContractTests {
    typealias Moderation = PeopleRepository & OperatorRepository & ReportRepository & BlockRepository

    static func report(_ id: String, by reporter: String = "r1", about subjectID: String = "m1", at: EpochMillis = 1_000)
        -> ReportRecord
    {
        ReportRecord(
            id: id, subject: .chat, subjectID: subjectID, reason: .harassment, note: "not nice", reporterID: reporter,
            reporterName: reporter.uppercased(), stationID: "s1", stationName: "Night Owls", reportedPersonID: "u9",
            reportedName: "Troll", content: "you are awful", contentAt: at - 10, createdAt: at)
    }

    @Test(arguments: StoreKind.full)
    func aReportIsKeptWithItsSnapshotAndClosedOnce(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Moderation)
            let kept = try await db.fileReport(Self.report("a"), limits: ReportLimits())
            #expect(kept == Self.report("a"))
            // The same reporter about the same message, while it waits: the first one.
            #expect(try await db.fileReport(Self.report("b"), limits: ReportLimits()).id == "a")
            #expect(try await db.report(id: "a") == Self.report("a"))
            #expect(try await db.openReportCount() == 1)

            let entry = AuditEntry(
                at: 2_000, actorID: "admin", actorName: "Admin", action: "report-delete", subjectKind: "report", subjectID: "a",
                subjectName: "chat", reason: "gone")
            let closing = ReportClosing(action: .delete, byName: "Admin", note: "gone", at: 2_000)
            let closed = try #require(try await db.closeReport(id: "a", closing, audit: entry))
            #expect(closed.status == .actioned && closed.action == .delete && closed.closedByName == "Admin")
            #expect(closed.content == "you are awful")
            #expect(try await db.closeReport(id: "a", ReportClosing(action: .dismiss, byName: "Other", note: "", at: 3_000), audit: nil) == nil)
            #expect(try await db.auditLog(before: nil, limit: 5).map(\.action) == ["report-delete"])
            #expect(try await db.openReportCount() == 0)
            // Closed, the same message may be reported again.
            #expect(try await db.fileReport(Self.report("c"), limits: ReportLimits()).id == "c")
        }
    }

    @Test(arguments: StoreKind.full)
    func queuesFilterByStatusAndRoomNewestFirst(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Moderation)
            var person = Self.report("p", about: "u9", at: 1_001)
            person.subject = .person
            _ = try await db.fileReport(Self.report("a", about: "m1", at: 1_000), limits: ReportLimits())
            _ = try await db.fileReport(person, limits: ReportLimits())
            var elsewhere = Self.report("e", about: "m2", at: 1_002)
            elsewhere.stationID = "s2"
            _ = try await db.fileReport(elsewhere, limits: ReportLimits())
            #expect(try await db.reports(ReportFilter(), limit: 10).map(\.id) == ["e", "p", "a"])
            // A station's room sees its chat and clips, not reports about people.
            #expect(try await db.reports(ReportFilter(roomOf: "s1"), limit: 10).map(\.id) == ["a"])
            #expect(try await db.reports(ReportFilter(before: (1_002, "e")), limit: 10).map(\.id) == ["p", "a"])
            _ = try await db.closeReport(id: "a", ReportClosing(action: .dismiss, byName: "X", note: "", at: 5), audit: nil)
            #expect(try await db.reports(ReportFilter(status: .dismissed), limit: 10).map(\.id) == ["a"])
            #expect(try await db.reports(ReportFilter(status: nil), limit: 2).map(\.id) == ["e", "p"])
        }
    }

    /// Twenty reports at once from one reporter with room for five: five kept, never more.
    @Test(arguments: StoreKind.full)
    func aReportersLimitHoldsUnderConcurrency(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Moderation)
            let limits = ReportLimits(perHour: 5, openPerReporter: 100, openOnServer: 100)
            let kept = await withTaskGroup(of: Bool.self) { group in
                for n in 0..<20 {
                    group.addTask { (try? await db.fileReport(Self.report("r\(n)", about: "m\(n)"), limits: limits)) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(kept == 5)
            await #expect(throws: StorageError.self) {
                try await db.fileReport(Self.report("late", about: "m99"), limits: limits)
            }
            // An hour on, room again.
            #expect(try await db.fileReport(Self.report("next", about: "m98", at: 1_000 + 3_600_001), limits: limits).id == "next")
            let full = ReportLimits(perHour: 100, openPerReporter: 100, openOnServer: 6)
            await #expect(throws: StorageError.self) {
                try await db.fileReport(Self.report("server", by: "r2", about: "m97", at: 9_000_000), limits: full)
            }
        }
    }

    @Test(arguments: StoreKind.full)
    func blocksAreKeptPerPersonWithALimit(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Moderation)
            for (id, handle) in [("u1", "ada"), ("u2", "bob"), ("u3", "cy"), ("u4", "di")] {
                try await db.insertGuest(PeopleContractTests.user(id, handle: handle, name: handle.uppercased()))
            }
            try await db.block("u1", "u2", at: 1, limit: 2)
            try await db.block("u1", "u2", at: 2, limit: 2)
            try await db.block("u1", "u3", at: 3, limit: 2)
            await #expect(throws: StorageError.blockLimit(2)) { try await db.block("u1", "u4", at: 4, limit: 2) }
            #expect(try await db.blocked(by: "u1").map(\.id) == ["u3", "u2"])
            #expect(try await db.blockedIDs(by: "u1") == ["u2", "u3"])
            #expect(try await db.blockedIDs(by: "u2").isEmpty)
            try await db.unblock("u1", "u3")
            #expect(try await db.blockedIDs(by: "u1") == ["u2"])
            // Either way: whom one blocks and who blocks them.
            try await db.block("u4", "u1", at: 5, limit: 2)
            #expect(try await db.blockedEitherWay("u1") == ["u2", "u4"])
            #expect(try await db.blockedEitherWay("u2") == ["u1"])
            #expect(try await db.blockStands(between: "u4", and: "u1"))
            #expect(try await !db.blockStands(between: "u2", and: "u3"))
        }
    }
}

/// A person's own messages and clips, found across stations for "Download my data".
@Suite("Personal data storage contract")
struct PersonalDataContractTests {
    @Test(arguments: StoreKind.full)
    func aPersonsMessagesAndClipsAreFoundAcrossStations(_ kind: StoreKind) async throws {
        try await kind.withStore(draw: .seeded(3)) { store in
            let db = try #require(store as? any PeopleRepository & PersonalDataRepository & ChatRepository & ClipRepository & StationAccessRepository & StationRepository)
            try await PeopleContractTests.signUp(db, PeopleContractTests.user("u1", handle: "ada", name: "Ada"), station: "h1")
            try await PeopleContractTests.signUp(db, PeopleContractTests.user("u2", handle: "bo", name: "Bo"), station: "h2")
            for (n, (author, station)) in [("u1", "h1"), ("u2", "h1"), ("u1", "h2")].enumerated() {
                try await db.saveChat(
                    stationID: station,
                    .post(ChatMessage(id: "m\(n)", personID: author, name: author, handle: nil, text: "text \(n)", sentAt: 100 + Int64(n)), purgeBefore: 0))
            }
            try await db.insertClip(
                VoiceClip(id: "v1", stationID: "h2", personID: "u1", name: "Ada", note: "", durationMs: 1_000, bytes: 10, status: .approved, createdAt: 5),
                quotaBytes: 1 << 20, pendingLimit: 3)
            let mine = try await db.chatMessages(by: "u1", limit: 10)
            #expect(mine.map(\.message.id) == ["m2", "m0"] && mine.map(\.stationID) == ["h2", "h1"])
            #expect(try await db.chatMessages(by: "u1", limit: 1).map(\.message.id) == ["m2"])
            #expect(try await db.clips(by: "u1", limit: 10).map(\.id) == ["v1"])
            #expect(try await db.clips(by: "u2", limit: 10).isEmpty)
        }
    }
}
