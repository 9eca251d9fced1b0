import WavelengthCore

/// A link that lets someone make an account on this server, made by an
/// administrator or (when the server allows it) a member. Only the code's
/// hash is kept; the code is shown once, when it is made.
public struct ServerInviteRecord: Sendable, Equatable, Codable {
    public var id: String
    public var codeHash: String
    public var createdBy: String
    /// As it was when the invite was made, so the list reads the same after a rename.
    public var createdByName: String
    public var createdAt: EpochMillis
    public var expiresAt: EpochMillis
    public var maxUses: Int
    public var uses: Int
    public var revokedAt: EpochMillis?

    public init(
        id: String, codeHash: String, createdBy: String, createdByName: String, createdAt: EpochMillis,
        expiresAt: EpochMillis, maxUses: Int, uses: Int = 0, revokedAt: EpochMillis? = nil
    ) {
        self.id = id
        self.codeHash = codeHash
        self.createdBy = createdBy
        self.createdByName = createdByName
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.maxUses = maxUses
        self.uses = uses
        self.revokedAt = revokedAt
    }

    /// Whether a sign-up may use it at `now`.
    public func isUsable(at now: EpochMillis) -> Bool {
        revokedAt == nil && now < expiresAt && uses < maxUses
    }
}

/// A sign-up waiting for an administrator.
public struct WaitingSignup: Sendable, Equatable {
    public var person: PersonRecord
    public var since: EpochMillis

    public init(person: PersonRecord, since: EpochMillis) {
        self.person = person
        self.since = since
    }
}

/// Who may sign up: the registration policy, sign-ups waiting for approval
/// and server invites. Each administrator's change is written with its
/// audit entry in one transaction, as in `OperatorRepository`.
public protocol RegistrationRepository: Sendable {
    /// Nil until an administrator (or `serve --registration`) sets one.
    func registrationPolicy() async throws -> RegistrationPolicy?
    func setRegistrationPolicy(_ policy: RegistrationPolicy, audit: AuditEntry) async throws

    /// Keeps a user who may not sign in until approved, with no station
    /// yet (a waiting list can't hold frequencies). Throws
    /// `StorageError.handleTaken`, or `.waitingListFull` when `limit` wait already.
    func insertWaitingSignup(_ person: PersonRecord, limit: Int) async throws
    /// Oldest first.
    func waitingSignups(limit: Int) async throws -> [WaitingSignup]
    /// Lets a waiting person in (they get their station next, from the
    /// server). Nil when they aren't waiting (approved or declined already).
    func approveSignup(personID: String, audit: AuditEntry) async throws -> PersonRecord?
    /// Deletes a waiting person, which frees the handle. Nil when they aren't waiting.
    func declineSignup(personID: String, audit: AuditEntry) async throws -> PersonRecord?

    /// Throws `StorageError.inviteLimit` when the maker holds `limit`
    /// usable invites already. `audit` is written with it (an administrator's).
    func insertServerInvite(_ invite: ServerInviteRecord, limit: Int, audit: AuditEntry?) async throws
    func serverInvite(codeHash: String) async throws -> ServerInviteRecord?
    /// Newest first; nil `createdBy`: everyone's.
    func serverInvites(createdBy: String?, limit: Int) async throws -> [ServerInviteRecord]
    /// Counts one use, if the invite is still usable at `now`: the use is
    /// taken in one step, so two sign-ups can't both take the last one.
    func redeemServerInvite(codeHash: String, at now: EpochMillis) async throws -> ServerInviteRecord?
    /// Gives back a use taken for a sign-up that then failed.
    func returnServerInviteUse(id: String) async throws
    /// Only the maker's own, unless `byAnyone` (an administrator). False when none was revoked.
    func revokeServerInvite(id: String, by personID: String, byAnyone: Bool, at now: EpochMillis) async throws -> Bool
}
