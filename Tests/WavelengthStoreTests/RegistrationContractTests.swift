import Testing
import WavelengthCore
import WavelengthStore

/// Who may sign up, kept alike in every store that keeps people: the
/// policy, sign-ups waiting for approval and server invites, each
/// administrator's change with its audit entry.
@Suite("Registration storage contract")
struct RegistrationContractTests {
    typealias Registry = PeopleRepository & OperatorRepository & RegistrationRepository & StationRepository
        & StationAccessRepository

    static func entry(_ action: String, at: EpochMillis) -> AuditEntry {
        AuditEntry(
            at: at, actorID: "admin", actorName: "Admin", action: action, subjectKind: "person", subjectID: "x",
            subjectName: "x", reason: "because")
    }

    static func invite(_ id: String, by maker: String, at: EpochMillis = 100, uses: Int = 2) -> ServerInviteRecord {
        ServerInviteRecord(
            id: id, codeHash: "hash-\(id)", createdBy: maker, createdByName: maker.uppercased(), createdAt: at,
            expiresAt: at + 1_000, maxUses: uses)
    }

    @Test(arguments: StoreKind.full)
    func thePolicyIsKeptWithItsEntry(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Registry)
            #expect(try await db.registrationPolicy() == nil)
            try await db.setRegistrationPolicy(RegistrationPolicy(mode: .invite, membersMayInvite: true), audit: Self.entry("set", at: 1))
            try await db.setRegistrationPolicy(RegistrationPolicy(mode: .closed), audit: Self.entry("set", at: 2))
            #expect(try await db.registrationPolicy() == RegistrationPolicy(mode: .closed))
            #expect(try await db.auditLog(before: nil, limit: 10).map(\.at) == [2, 1])
        }
    }

    /// A waiting sign-up holds its handle and may not sign in; approving it
    /// or declining it happens once, with its entry; the list is bounded.
    @Test(arguments: StoreKind.full)
    func waitingSignupsAreApprovedOrDeclinedOnce(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Registry)
            let ada = PeopleContractTests.user("u1", handle: "ada", name: "Ada")
            var grace = PeopleContractTests.user("u2", handle: "grace", name: "Grace")
            grace.createdAt = 20
            try await db.insertWaitingSignup(ada, limit: 2)
            try await db.insertWaitingSignup(grace, limit: 2)
            await #expect(throws: StorageError.handleTaken("ada")) {
                try await db.insertWaitingSignup(PeopleContractTests.user("u3", handle: "ada", name: "Other"), limit: 5)
            }
            await #expect(throws: StorageError.waitingListFull(2)) {
                try await db.insertWaitingSignup(PeopleContractTests.user("u4", handle: "linus", name: "Linus"), limit: 2)
            }
            #expect(try await db.waitingSignups(limit: 10).map(\.person.id) == ["u1", "u2"])
            #expect(try await db.waitingSignups(limit: 10).map(\.since) == [10, 20])
            #expect(try await db.standing(personID: "u1")?.awaitingApprovalSince == 10)

            #expect(try await db.approveSignup(personID: "u1", audit: Self.entry("approve", at: 30))?.handle == "ada")
            #expect(try await db.approveSignup(personID: "u1", audit: Self.entry("approve", at: 31)) == nil)
            #expect(try await db.standing(personID: "u1")?.isAwaitingApproval == false)
            // Declining someone who is in already does nothing.
            #expect(try await db.declineSignup(personID: "u1", audit: Self.entry("decline", at: 32)) == nil)
            #expect(try await db.person(id: "u1") != nil)
            #expect(try await db.declineSignup(personID: "u2", audit: Self.entry("decline", at: 33))?.handle == "grace")
            #expect(try await db.person(id: "u2") == nil)
            #expect(try await db.waitingSignups(limit: 10).isEmpty)
            #expect(try await db.auditLog(before: nil, limit: 10).map(\.action) == ["decline", "approve"])
            // The approved one gets their station as any sign-up (an upgrade of the row kept).
            _ = try await PeopleContractTests.signUp(db, ada, station: "home-u1", upgrading: true)
            #expect(try await db.stations(ownedBy: ["u1"]).map(\.id) == ["home-u1"])
            // The declined handle is free.
            try await db.insertWaitingSignup(PeopleContractTests.user("u5", handle: "grace", name: "Grace"), limit: 2)
        }
    }

    /// An invite's uses are taken one at a time, never past its count, and
    /// not once it expires or is withdrawn; a maker holds a bounded number.
    @Test(arguments: StoreKind.full)
    func invitesAreUsedAtMostAsOftenAsTheySay(_ kind: StoreKind) async throws {
        try await kind.withStore { store in
            let db = try #require(store as? any Registry)
            try await db.insertServerInvite(Self.invite("i1", by: "m1", uses: 3), limit: 2, audit: nil)
            try await db.insertServerInvite(Self.invite("i2", by: "m1"), limit: 2, audit: Self.entry("make-invite", at: 100))
            await #expect(throws: StorageError.inviteLimit(2)) {
                try await db.insertServerInvite(Self.invite("i3", by: "m1"), limit: 2, audit: nil)
            }
            try await db.insertServerInvite(Self.invite("i4", by: "m2"), limit: 2, audit: nil)
            #expect(try await db.serverInvites(createdBy: "m1", limit: 10).map(\.id).sorted() == ["i1", "i2"])
            #expect(try await db.serverInvites(createdBy: nil, limit: 10).count == 3)
            #expect(try await db.auditLog(before: nil, limit: 10).map(\.action) == ["make-invite"])

            // Ten take at once at three uses: three get one.
            let taken = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 { group.addTask { try await db.redeemServerInvite(codeHash: "hash-i1", at: 200) != nil } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(taken == 3)
            #expect(try await db.serverInvite(codeHash: "hash-i1")?.uses == 3)
            // A use given back can be taken again; a used-up invite no longer counts against its maker.
            try await db.returnServerInviteUse(id: "i1")
            #expect(try await db.redeemServerInvite(codeHash: "hash-i1", at: 200)?.uses == 3)
            try await db.insertServerInvite(Self.invite("i5", by: "m1"), limit: 2, audit: nil)
            // Expired, then withdrawn.
            #expect(try await db.redeemServerInvite(codeHash: "hash-i2", at: 1_100) == nil)
            #expect(try await db.revokeServerInvite(id: "i2", by: "m2", byAnyone: false, at: 300) == false)
            #expect(try await db.revokeServerInvite(id: "i2", by: "m1", byAnyone: false, at: 300))
            #expect(try await db.redeemServerInvite(codeHash: "hash-i2", at: 301) == nil)
            #expect(try await db.revokeServerInvite(id: "i4", by: "admin", byAnyone: true, at: 300))
            #expect(try await db.revokeServerInvite(id: "i4", by: "admin", byAnyone: true, at: 301) == false)
            #expect(try await db.redeemServerInvite(codeHash: "nope", at: 200) == nil)
        }
    }
}
