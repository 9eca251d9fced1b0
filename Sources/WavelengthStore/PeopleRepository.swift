import WavelengthCore

/// Accounts, guests, sessions and the follow graph.
public protocol PeopleRepository: Sendable {
    /// Saves a new user (or upgrades the guest with `person.id` in place) and
    /// creates their own station with a free frequency, in one transaction.
    /// Throws `StorageError.handleTaken` when the handle is in use.
    func createAccount(
        _ person: PersonRecord, station: StationRecord, upgrading: Bool, now: EpochMillis, band: FrequencyBand
    ) async throws -> FrequencyAssignment
    func insertGuest(_ person: PersonRecord) async throws
    func person(id: String) async throws -> PersonRecord?
    func person(handle: String) async throws -> PersonRecord?
    /// Users whose handle or display name starts with `prefix`; with
    /// `guests`, guests by their name too, and anyone whose id it is (the
    /// control room finds anyone).
    func searchPeople(prefix: String, limit: Int, guests: Bool) async throws -> [PersonRecord]
    /// Sets a new password hash and revokes every other session of the person.
    func changePassword(personID: String, hash: String, keepingSession: String?, at: EpochMillis) async throws

    func insertSession(_ session: SessionRecord) async throws
    func session(tokenHash: String) async throws -> SessionRecord?
    func session(id: String) async throws -> SessionRecord?
    func revokeSession(id: String, at: EpochMillis) async throws
    /// The session whose secret `previousTokenHash` was until its last
    /// rotation: a refresh token used twice.
    func session(previousTokenHash: String) async throws -> SessionRecord?
    /// Replaces a session's secret (refresh-token rotation), remembering the
    /// one it replaced; false when the old secret no longer matches a live session.
    func rotateSession(id: String, from oldHash: String, to newHash: String, expiresAt: EpochMillis, at: EpochMillis)
        async throws -> Bool

    func follow(_ followerID: String, _ followeeID: String, at: EpochMillis) async throws
    func unfollow(_ followerID: String, _ followeeID: String) async throws
    func followers(of personID: String, limit: Int) async throws -> [PersonRecord]
    func following(of personID: String, limit: Int) async throws -> [PersonRecord]
    func followCounts(of personID: String) async throws -> (followers: Int, following: Int)
    func isFollowing(_ followerID: String, _ followeeID: String) async throws -> Bool
    /// The ids of everyone `personID` follows.
    func followeeIDs(of personID: String) async throws -> Set<String>

    /// Secrets an older version kept in storage (the JWT and CSRF keys),
    /// removed as they are read; the server keeps its keys in a file.
    func takeServerSecrets() async throws -> [String: [UInt8]]
}

/// Who may do what on a station: members, co-DJs, bans, invites, codes.
public protocol StationAccessRepository: Sendable {
    func access(stationID: StationID, personID: String, ownerID: String?) async throws -> StoredAccess
    /// Adds a listener membership; an existing co-DJ stays a co-DJ.
    func join(stationID: StationID, personID: String, at: EpochMillis) async throws
    func setMemberRole(stationID: StationID, personID: String, role: StationRole, at: EpochMillis) async throws
    /// A co-DJ goes back to what they were before the grant: a listening
    /// member, or no member at all; anyone who isn't a co-DJ (a stranger
    /// above all) is left as they are, never made a member.
    func revokeCoDJ(stationID: StationID, personID: String) async throws
    func leave(stationID: StationID, personID: String) async throws
    /// Drops every listener membership (co-DJs stay), when the owner ends the session.
    func dropListeners(stationID: StationID) async throws
    func ban(stationID: StationID, personID: String, at: EpochMillis) async throws
    func unban(stationID: StationID, personID: String) async throws
    /// Members, co-DJs and banned people, with their person rows.
    func memberships(stationID: StationID) async throws -> [Membership]
    func people(ids: [String]) async throws -> [String: PersonRecord]

    func stations(ownedBy personIDs: Set<String>) async throws -> [StationRecord]
    /// The stations where the person is a co-DJ, oldest first.
    func stations(coDJ personID: String) async throws -> [StationRecord]
    func updateStation(id: StationID, name: String, visibility: StationVisibility, maxListeners: Int?) async throws
        -> StationRecord?
    /// Gives the station a free frequency (and a new access code), in one
    /// transaction. Returns the new record and the station whose code was
    /// taken back to make room, if any.
    func assignCode(
        stationID: StationID, accessCode: String?, expiresAt: EpochMillis?, now: EpochMillis, band: FrequencyBand
    ) async throws -> FrequencyAssignment
    func releaseCode(stationID: StationID) async throws
    /// Sets only the access code, keeping the frequency: a station that
    /// turns code-protected keeps the frequency its guests already know.
    func setAccessCode(stationID: StationID, accessCode: String) async throws -> StationRecord?
    /// Makes `ownerID` the owner when `keyHash` matches; voids the key.
    func claim(stationID: StationID, keyHash: String, ownerID: String, ownerName: String) async throws
        -> StationRecord?

    func insertInvite(_ invite: InviteRecord) async throws
    func invite(tokenHash: String) async throws -> InviteRecord?
    func invites(stationID: StationID) async throws -> [InviteRecord]
    func revokeInvite(id: String, stationID: StationID, at: EpochMillis) async throws -> Bool
    func countInviteUse(id: String) async throws
}

extension PeopleRepository {
    /// Users whose handle or display name starts with `prefix`.
    public func searchPeople(prefix: String, limit: Int) async throws -> [PersonRecord] {
        try await searchPeople(prefix: prefix, limit: limit, guests: false)
    }
}
