import Testing
import WavelengthCore
import WavelengthStore

/// Accounts, sessions, follows and who may do what on a station, in every
/// store that keeps people (the same tests for each), races included.
@Suite("People and station access storage contract")
struct PeopleContractTests {
    typealias People = StationRepository & PeopleRepository & StationAccessRepository

    static let band = FrequencyBand(tiers: [["101.1", "101.3", "101.5", "101.7"]])

    static func withPeople(_ kind: StoreKind, _ body: @escaping @Sendable (any People) async throws -> Void) async throws {
        try await kind.withStore(draw: .seeded(7)) { store in
            try await body(try #require(store as? any People))
        }
    }

    static func user(_ id: String, handle: String, name: String) -> PersonRecord {
        PersonRecord(id: id, kind: .user, handle: handle, displayName: name, passwordHash: "hash-\(id)", createdAt: 10)
    }

    static func guest(_ id: String, name: String) -> PersonRecord {
        PersonRecord(id: id, kind: .guest, handle: nil, displayName: name, passwordHash: nil, createdAt: 5)
    }

    static func home(_ id: String, of ownerID: String) -> StationRecord {
        StationRecord(
            id: id, name: "Home", owner: ownerID, ownerID: ownerID, frequency: nil, personal: true, quietSince: 1,
            createdAt: 10)
    }

    @discardableResult
    static func signUp(_ db: any People, _ person: PersonRecord, station: String, upgrading: Bool = false) async throws
        -> FrequencyAssignment
    {
        try await db.createAccount(person, station: home(station, of: person.id), upgrading: upgrading, now: 10, band: band)
    }

    /// A sign-up saves the person and their station with a free code; a
    /// taken handle saves neither; a guest who signs up keeps their id.
    @Test(arguments: StoreKind.full)
    func accountsComeWithAStationAndAUniqueHandle(_ kind: StoreKind) async throws {
        try await Self.withPeople(kind) { db in
            let made = try await Self.signUp(db, Self.user("u1", handle: "ada", name: "Ada Lovelace"), station: "home-u1")
            #expect(made.record.frequency != nil)
            #expect(try await db.station(id: "home-u1")?.frequency == made.record.frequency)
            #expect(try await db.person(handle: "ADA")?.id == "u1")

            await #expect(throws: StorageError.handleTaken("ada")) {
                try await Self.signUp(db, Self.user("u2", handle: "ada", name: "Other"), station: "home-u2")
            }
            #expect(try await db.person(id: "u2") == nil)
            #expect(try await db.station(id: "home-u2") == nil)

            try await db.insertGuest(Self.guest("g1", name: "Guest"))
            try await db.join(stationID: "home-u1", personID: "g1", at: 20)
            try await Self.signUp(db, Self.user("g1", handle: "grace", name: "Grace Hopper"), station: "home-g1", upgrading: true)
            #expect(try await db.person(id: "g1")?.kind == .user)
            #expect(try await db.person(handle: "grace")?.displayName == "Grace Hopper")
            #expect(try await db.access(stationID: "home-u1", personID: "g1", ownerID: "u1").memberRole == .listener)
            #expect(Set(try await db.stations(ownedBy: ["u1", "g1"]).map(\.id)) == ["home-u1", "home-g1"])
        }
    }

    /// Search by the start of a handle or of any word of the name; guests
    /// only when asked (the control room), and LIKE's wildcards are only letters.
    @Test(arguments: StoreKind.full)
    func peopleAreFoundByTheStartOfAHandleOrAName(_ kind: StoreKind) async throws {
        try await Self.withPeople(kind) { db in
            try await Self.signUp(db, Self.user("u1", handle: "ada", name: "Ada Lovelace"), station: "h1")
            try await Self.signUp(db, Self.user("u2", handle: "lovebot", name: "Bot"), station: "h2")
            try await Self.signUp(db, Self.user("u3", handle: "x_y", name: "Percent 100%"), station: "h3")
            try await db.insertGuest(Self.guest("g1", name: "Love Guest"))
            // The handle match ranks first, then the name's word.
            #expect(try await db.searchPeople(prefix: "Lov", limit: 10).map(\.id) == ["u2", "u1"])
            #expect(try await db.searchPeople(prefix: "lov", limit: 1).map(\.id) == ["u2"])
            #expect(try await db.searchPeople(prefix: "x_", limit: 10).map(\.id) == ["u3"])
            #expect(try await db.searchPeople(prefix: "_", limit: 10).isEmpty)
            #expect(try await db.searchPeople(prefix: "%", limit: 10).isEmpty)
            #expect(try await db.searchPeople(prefix: "100%", limit: 10).map(\.id) == ["u3"])
            // The control room finds guests too, by name or by id.
            #expect(try await db.searchPeople(prefix: "Lov", limit: 10, guests: true).map(\.id) == ["u2", "u1", "g1"])
            #expect(try await db.searchPeople(prefix: "g1", limit: 10, guests: true).map(\.id) == ["g1"])
            #expect(try await db.searchPeople(prefix: "g1", limit: 10).isEmpty)
        }
    }

    /// A refresh secret is rotated once, even by racing refreshes; the old
    /// one is remembered (reuse is theft); a new password ends every other session.
    @Test(arguments: StoreKind.full)
    func sessionsRotateOnceAndEndWithAPasswordChange(_ kind: StoreKind) async throws {
        try await Self.withPeople(kind) { db in
            try await Self.signUp(db, Self.user("u1", handle: "ada", name: "Ada"), station: "h1")
            for n in 1...3 {
                try await db.insertSession(
                    SessionRecord(id: "s\(n)", tokenHash: "t\(n)", personID: "u1", kind: .bearer, createdAt: 1, expiresAt: 1_000))
            }
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<12 {
                    group.addTask { try await db.rotateSession(id: "s1", from: "t1", to: "n\(n)", expiresAt: 2_000, at: 5) }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
            let rotated = try #require(try await db.session(id: "s1"))
            #expect(rotated.tokenHash.hasPrefix("n") && rotated.expiresAt == 2_000)
            #expect(try await db.session(tokenHash: "t1") == nil)
            #expect(try await db.session(previousTokenHash: "t1")?.id == "s1")
            // An expired session doesn't rotate.
            #expect(try await db.rotateSession(id: "s2", from: "t2", to: "x", expiresAt: 3_000, at: 1_000) == false)

            try await db.changePassword(personID: "u1", hash: "new", keepingSession: "s2", at: 50)
            #expect(try await db.person(id: "u1")?.passwordHash == "new")
            #expect(try await db.session(id: "s1")?.revokedAt == 50)
            #expect(try await db.session(id: "s2")?.revokedAt == nil)
            #expect(try await db.session(id: "s3")?.revokedAt == 50)
            try await db.revokeSession(id: "s2", at: 60)
            try await db.revokeSession(id: "s2", at: 70)
            #expect(try await db.session(tokenHash: "t2")?.revokedAt == 60)
            #expect(try await db.session(tokenHash: "t2")?.isValid(at: 61) == false)
            #expect(try await db.takeServerSecrets().isEmpty)
        }
    }

    @Test(arguments: StoreKind.full)
    func followsAreCountedOnceAndListedNewestFirst(_ kind: StoreKind) async throws {
        try await Self.withPeople(kind) { db in
            for (n, id) in ["a", "b", "c"].enumerated() {
                try await Self.signUp(db, Self.user(id, handle: id, name: id.uppercased()), station: "h\(n)")
            }
            try await db.follow("a", "c", at: 1)
            try await db.follow("b", "c", at: 2)
            try await db.follow("b", "c", at: 3)
            try await db.follow("c", "a", at: 4)
            #expect(try await db.followers(of: "c", limit: 10).map(\.id) == ["b", "a"])
            #expect(try await db.followers(of: "c", limit: 1).map(\.id) == ["b"])
            #expect(try await db.following(of: "c", limit: 10).map(\.id) == ["a"])
            #expect(try await db.followCounts(of: "c") == (followers: 2, following: 1))
            #expect(try await db.isFollowing("a", "c"))
            #expect(try await db.isFollowing("c", "b") == false)
            #expect(try await db.followeeIDs(of: "b") == ["c"])
            #expect(try await db.access(stationID: "h2", personID: "a", ownerID: "c").followsOwner)
            try await db.unfollow("a", "c")
            #expect(try await db.followCounts(of: "c") == (followers: 1, following: 1))
            #expect(try await db.access(stationID: "h2", personID: "a", ownerID: "c").followsOwner == false)
            #expect(try await db.access(stationID: "h2", personID: "a", ownerID: nil).followsOwner == false)
        }
    }

    /// Members, co-DJs and bans: a ban ends membership, a revoked co-DJ
    /// listens again, a stranger is never made a member by a revoke, and
    /// the owner's end of session drops listeners and keeps co-DJs.
    @Test(arguments: StoreKind.full)
    func membershipsRolesAndBansKeepTheirRules(_ kind: StoreKind) async throws {
        try await Self.withPeople(kind) { db in
            try await Self.signUp(db, Self.user("own", handle: "own", name: "Owner"), station: "st")
            for id in ["l1", "l2", "dj", "bad", "stranger"] { try await db.insertGuest(Self.guest(id, name: "N-\(id)")) }
            try await db.join(stationID: "st", personID: "l1", at: 1)
            try await db.join(stationID: "st", personID: "l2", at: 1)
            try await db.setMemberRole(stationID: "st", personID: "dj", role: .codj, at: 2)
            try await db.join(stationID: "st", personID: "dj", at: 3)
            #expect(try await db.access(stationID: "st", personID: "dj", ownerID: "own").memberRole == .codj)
            try await db.join(stationID: "st", personID: "bad", at: 3)
            try await db.ban(stationID: "st", personID: "bad", at: 4)
            try await db.ban(stationID: "st", personID: "bad", at: 5)
            let bad = try await db.access(stationID: "st", personID: "bad", ownerID: "own")
            #expect(bad.banned && bad.memberRole == nil)
            try await db.revokeCoDJ(stationID: "st", personID: "stranger")
            #expect(try await db.access(stationID: "st", personID: "stranger", ownerID: "own").memberRole == nil)
            #expect(try await db.stations(coDJ: "dj").map(\.id) == ["st"])

            let listed = try await db.memberships(stationID: "st")
            #expect(listed.map { "\($0.person.id):\($0.role?.rawValue ?? "-"):\($0.banned)" }
                == ["bad:-:true", "dj:codj:false", "l1:listener:false", "l2:listener:false"])

            try await db.dropListeners(stationID: "st")
            #expect(try await db.memberships(stationID: "st").map(\.person.id) == ["bad", "dj"])
            // "dj" was no member before the grant: revoked, no member again.
            try await db.revokeCoDJ(stationID: "st", personID: "dj")
            #expect(try await db.access(stationID: "st", personID: "dj", ownerID: nil).memberRole == nil)
            #expect(try await db.stations(coDJ: "dj").isEmpty)
            // A listening member granted (twice) and revoked listens again.
            try await db.join(stationID: "st", personID: "l1", at: 6)
            try await db.setMemberRole(stationID: "st", personID: "l1", role: .codj, at: 7)
            try await db.setMemberRole(stationID: "st", personID: "l1", role: .codj, at: 8)
            try await db.revokeCoDJ(stationID: "st", personID: "l1")
            #expect(try await db.access(stationID: "st", personID: "l1", ownerID: nil).memberRole == .listener)
            try await db.revokeCoDJ(stationID: "st", personID: "l1")
            #expect(try await db.access(stationID: "st", personID: "l1", ownerID: nil).memberRole == .listener)
            try await db.leave(stationID: "st", personID: "l1")
            try await db.leave(stationID: "st", personID: "dj")
            try await db.unban(stationID: "st", personID: "bad")
            #expect(try await db.memberships(stationID: "st").isEmpty)
            #expect(try await db.people(ids: ["l1", "l1", "nobody"]).keys.sorted() == ["l1"])
            #expect(try await db.people(ids: []).isEmpty)
        }
    }

    /// A new code is drawn while the old one is held, so it changes; the
    /// access code alone keeps the frequency; releasing lets both go.
    @Test(arguments: StoreKind.full)
    func codesAreReassignedKeptAndReleased(_ kind: StoreKind) async throws {
        try await Self.withPeople(kind) { db in
            let first = try await Self.signUp(db, Self.user("own", handle: "own", name: "Owner"), station: "st")
            let old = try #require(first.record.frequency)
            let moved = try await db.assignCode(stationID: "st", accessCode: "1234", expiresAt: 99, now: 20, band: Self.band)
            #expect(moved.record.frequency != old && moved.record.frequency != nil)
            #expect(moved.record.accessCode == "1234" && moved.record.codeExpiresAt == 99)
            #expect(moved.reclaimedFrom == nil)
            let kept = try #require(try await db.setAccessCode(stationID: "st", accessCode: "9999"))
            #expect(kept.frequency == moved.record.frequency && kept.accessCode == "9999")
            try await db.releaseCode(stationID: "st")
            let released = try #require(try await db.station(id: "st"))
            #expect(released.frequency == nil && released.accessCode == nil && released.codeExpiresAt == nil)
            await #expect(throws: StorageError.noSuchStation) {
                try await db.assignCode(stationID: "none", accessCode: nil, expiresAt: nil, now: 20, band: Self.band)
            }
            let updated = try #require(
                try await db.updateStation(id: "st", name: "Renamed", visibility: .code, maxListeners: 12))
            #expect(updated.name == "Renamed" && updated.visibility == .code && updated.maxListeners == 12)
            #expect(try await db.updateStation(id: "none", name: "X", visibility: .public, maxListeners: nil) == nil)
        }
    }

    /// A station made before accounts is claimed with its key once, by one
    /// of many racing claimants; a wrong key claims nothing.
    @Test(arguments: StoreKind.full)
    func anOwnerKeyClaimsOnceAgainstRacers(_ kind: StoreKind) async throws {
        try await Self.withPeople(kind) { db in
            _ = try await db.insertStation(
                StationRecord(id: "old", name: "Old", owner: "Anon", ownerKeyHash: "key", frequency: nil, quietSince: 1, createdAt: 1),
                now: 1, band: Self.band, ownerLimit: nil)
            for n in 0..<8 { try await db.insertGuest(Self.guest("p\(n)", name: "P\(n)")) }
            #expect(try await db.claim(stationID: "old", keyHash: "wrong", ownerID: "p0", ownerName: "P0") == nil)
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                for n in 0..<8 {
                    group.addTask {
                        try await db.claim(stationID: "old", keyHash: "key", ownerID: "p\(n)", ownerName: "P\(n)")?.ownerID
                    }
                }
                return try await group.compactMap { $0 }.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(winners.count == 1)
            let claimed = try #require(try await db.station(id: "old"))
            #expect(claimed.ownerID == winners.first && claimed.ownerKeyHash == nil)
        }
    }

    @Test(arguments: StoreKind.full)
    func invitesAreListedRevokedOnceAndCounted(_ kind: StoreKind) async throws {
        try await Self.withPeople(kind) { db in
            try await Self.signUp(db, Self.user("own", handle: "own", name: "Owner"), station: "st")
            for n in 1...3 {
                try await db.insertInvite(
                    InviteRecord(
                        id: "i\(n)", stationID: "st", tokenHash: "h\(n)", createdBy: "own", createdAt: EpochMillis(n),
                        expiresAt: n == 3 ? 50 : nil))
            }
            #expect(try await db.invites(stationID: "st").map(\.id) == ["i3", "i2", "i1"])
            #expect(try await db.invite(tokenHash: "h3")?.isUsable(at: 60) == false)
            #expect(try await db.revokeInvite(id: "i1", stationID: "other", at: 5) == false)
            #expect(try await db.revokeInvite(id: "i1", stationID: "st", at: 5))
            #expect(try await db.revokeInvite(id: "i1", stationID: "st", at: 6) == false)
            #expect(try await db.invite(tokenHash: "h1")?.revokedAt == 5)
            try await db.countInviteUse(id: "i2")
            try await db.countInviteUse(id: "i2")
            #expect(try await db.invite(tokenHash: "h2")?.uses == 2)
            #expect(try await db.invite(tokenHash: "nope") == nil)
        }
    }
}
