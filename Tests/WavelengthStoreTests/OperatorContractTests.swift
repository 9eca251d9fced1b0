import Testing
import WavelengthCore
import WavelengthStore

/// Administrators, suspensions and the audit log, alike in every store that
/// keeps people: each change with its entry, in one transaction.
@Suite("Operator storage contract")
struct OperatorContractTests {
    typealias Operators = PeopleRepository & OperatorRepository & StationRepository & StationAccessRepository

    static func entry(_ action: String, _ subject: String, at: EpochMillis) -> AuditEntry {
        AuditEntry(
            at: at, actorID: nil, actorName: "the host's shell", action: action, subjectKind: "person", subjectID: subject,
            subjectName: subject, reason: "because")
    }

    @Test(arguments: StoreKind.full)
    func administratorsAreMadeByHandleAndEachChangeIsLogged(_ kind: StoreKind) async throws {
        try await kind.withStore(draw: .seeded(7)) { store in
            let db = try #require(store as? any Operators)
            try await PeopleContractTests.signUp(db, PeopleContractTests.user("u1", handle: "ada", name: "Ada"), station: "home-u1")
            try await db.insertGuest(PeopleContractTests.guest("g1", name: "Guest"))
            #expect(try await db.standing(personID: "u1") == PersonStanding())
            #expect(try await db.standing(personID: "nobody") == nil)

            #expect(try await db.setAdministrator(handle: "ADA", true, audit: Self.entry("grant-admin", "u1", at: 10))?.id == "u1")
            #expect(try await db.standing(personID: "u1")?.isAdministrator == true)
            // Again: nothing changes, and nothing more is logged.
            _ = try await db.setAdministrator(handle: "ada", true, audit: Self.entry("grant-admin", "u1", at: 11))
            #expect(try await db.auditLog(before: nil, limit: 10).map(\.at) == [10])
            #expect(try await db.administrators().map(\.id) == ["u1"])
            // Nobody by that handle, and a guest has none.
            #expect(try await db.setAdministrator(handle: "grace", true, audit: Self.entry("grant-admin", "x", at: 12)) == nil)

            #expect(try await db.setAdministrator(handle: "ada", false, audit: Self.entry("revoke-admin", "u1", at: 13)) != nil)
            #expect(try await db.administrators().isEmpty)
            let log = try await db.auditLog(before: nil, limit: 10)
            #expect(log.map(\.action) == ["revoke-admin", "grant-admin"])
            #expect(log[0].actorID == nil && log[0].actorName == "the host's shell" && log[0].reason == "because")
            // Paged: what comes before the newest.
            #expect(try await db.auditLog(before: log[0].id, limit: 10).map(\.action) == ["grant-admin"])
        }
    }

    /// An administrator hides a station from the listings; it still loads by id.
    @Test(arguments: StoreKind.full)
    func aHiddenStationLeavesTheListings(_ kind: StoreKind) async throws {
        try await kind.withStore(draw: .seeded(7)) { store in
            let db = try #require(store as? any Operators)
            try await PeopleContractTests.signUp(db, PeopleContractTests.user("u1", handle: "ada", name: "Ada"), station: "home-u1")
            #expect(try await db.listedStations(limit: 10).map(\.id) == ["home-u1"])
            #expect(try await db.setHiddenFromDial(stationID: "home-u1", true, audit: Self.entry("hide-station", "home-u1", at: 5)))
            #expect(try await db.listedStations(limit: 10).isEmpty)
            #expect(try await db.hiddenFromDial(["home-u1", "other"]) == ["home-u1"])
            #expect(try await db.station(id: "home-u1") != nil)
            #expect(try await db.setHiddenFromDial(stationID: "home-u1", false, audit: Self.entry("show-station", "home-u1", at: 6)))
            #expect(try await db.listedStations(limit: 10).map(\.id) == ["home-u1"])
            #expect(try await db.setHiddenFromDial(stationID: "nope", true, audit: Self.entry("hide-station", "nope", at: 7)) == false)
            #expect(try await db.auditLog(before: nil, limit: 10).map(\.action) == ["show-station", "hide-station"])
        }
    }

    /// A deleted person takes their stations, sessions, follows and clips
    /// with them, in one step with its entry; others' stations stay.
    @Test(arguments: StoreKind.full)
    func aDeletedPersonTakesWhatIsTheirs(_ kind: StoreKind) async throws {
        try await kind.withStore(draw: .seeded(7)) { store in
            let db = try #require(store as? any Operators & ClipRepository & ReportRepository & BlockRepository)
            try await PeopleContractTests.signUp(db, PeopleContractTests.user("u1", handle: "ada", name: "Ada"), station: "home-u1")
            try await PeopleContractTests.signUp(db, PeopleContractTests.user("u2", handle: "bo", name: "Bo"), station: "home-u2")
            try await db.follow("u2", "u1", at: 1)
            try await db.follow("u1", "u2", at: 1)
            try await db.insertSession(SessionRecord(id: "s1", tokenHash: "t1", personID: "u1", kind: .bearer, createdAt: 1, expiresAt: 1_000))
            try await db.block("u2", "u1", at: 2, limit: 10)
            for (clip, station) in [("v1", "home-u1"), ("v2", "home-u2")] {
                try await db.insertClip(
                    VoiceClip(id: clip, stationID: station, personID: "u1", name: "Ada", note: "", durationMs: 1_000, bytes: 10, status: .approved, createdAt: 3),
                    quotaBytes: 1 << 20, pendingLimit: 3)
            }
            let gone = try #require(try await db.deletePerson(id: "u1", audit: Self.entry("delete-person", "u1", at: 9)))
            #expect(gone.stations == ["home-u1"] && Set(gone.clips) == ["v1", "v2"])
            #expect(try await db.person(id: "u1") == nil)
            #expect(try await db.station(id: "home-u1") == nil)
            #expect(try await db.session(id: "s1") == nil)
            #expect(try await db.clip(id: "v2") == nil)
            let counts = try await db.followCounts(of: "u2")
            #expect(counts.followers == 0 && counts.following == 0)
            #expect(try await db.blockedIDs(by: "u2").isEmpty)
            #expect(try await db.station(id: "home-u2") != nil)
            #expect(try await db.deletePerson(id: "u1", audit: Self.entry("delete-person", "u1", at: 10)) == nil)
            #expect(try await db.auditLog(before: nil, limit: 10).first?.action == "delete-person")
        }
    }

    @Test(arguments: StoreKind.full)
    func aSuspensionEndsEverySessionAndIsLifted(_ kind: StoreKind) async throws {
        try await kind.withStore(draw: .seeded(7)) { store in
            let db = try #require(store as? any Operators)
            try await PeopleContractTests.signUp(db, PeopleContractTests.user("u1", handle: "ada", name: "Ada"), station: "home-u1")
            for n in 1...2 {
                try await db.insertSession(
                    SessionRecord(id: "s\(n)", tokenHash: "t\(n)", personID: "u1", kind: .bearer, createdAt: 1, expiresAt: 1_000))
            }
            #expect(try await db.suspend(personID: "u1", reason: "spam in chat", audit: Self.entry("suspend", "u1", at: 50)))
            let standing = try #require(try await db.standing(personID: "u1"))
            #expect(standing.suspendedAt == 50 && standing.suspensionReason == "spam in chat")
            for n in 1...2 { #expect(try await db.session(id: "s\(n)")?.revokedAt == 50) }
            #expect(try await db.suspend(personID: "nobody", reason: "x", audit: Self.entry("suspend", "nobody", at: 51)) == false)

            #expect(try await db.unsuspend(personID: "u1", audit: Self.entry("unsuspend", "u1", at: 60)))
            #expect(try await db.standing(personID: "u1") == PersonStanding())
            // The sessions stay ended: a lifted suspension doesn't sign anyone back in.
            #expect(try await db.session(id: "s1")?.revokedAt == 50)
            #expect(try await db.auditLog(before: nil, limit: 10).map(\.action) == ["unsuspend", "suspend"])
        }
    }
}
