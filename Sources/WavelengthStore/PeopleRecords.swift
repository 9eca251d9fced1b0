import WavelengthCore

public enum PersonKind: String, Sendable, Codable {
    case user, guest
}

/// A user (handle and password) or a guest (a display name only). A guest
/// who signs up keeps the same id, so memberships carry over.
public struct PersonRecord: Sendable, Equatable, Codable {
    public var id: String
    public var kind: PersonKind
    public var handle: String?
    public var displayName: String
    /// A bcrypt hash; nil for guests.
    public var passwordHash: String?
    public var createdAt: EpochMillis

    public init(
        id: String, kind: PersonKind, handle: String?, displayName: String, passwordHash: String?,
        createdAt: EpochMillis
    ) {
        self.id = id
        self.kind = kind
        self.handle = handle
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}

public enum SessionKind: String, Sendable, Codable {
    /// A browser's HttpOnly cookie.
    case cookie
    /// An SDK's refresh token; its access tokens are short-lived JWTs.
    case bearer
}

/// A signed-in (or guest) session. Only the SHA-256 of its secret is stored.
public struct SessionRecord: Sendable, Equatable, Codable {
    public var id: String
    public var tokenHash: String
    public var personID: String
    public var kind: SessionKind
    public var createdAt: EpochMillis
    public var expiresAt: EpochMillis
    public var revokedAt: EpochMillis?

    public init(
        id: String, tokenHash: String, personID: String, kind: SessionKind, createdAt: EpochMillis,
        expiresAt: EpochMillis, revokedAt: EpochMillis? = nil
    ) {
        self.id = id
        self.tokenHash = tokenHash
        self.personID = personID
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    public func isValid(at now: EpochMillis) -> Bool {
        revokedAt == nil && expiresAt > now
    }
}

/// A link that lets whoever holds it join a station. Only the token's hash is stored.
public struct InviteRecord: Sendable, Equatable, Codable {
    public var id: String
    public var stationID: StationID
    public var tokenHash: String
    public var createdBy: String
    public var createdAt: EpochMillis
    public var expiresAt: EpochMillis?
    public var revokedAt: EpochMillis?
    public var uses: Int

    public init(
        id: String, stationID: StationID, tokenHash: String, createdBy: String, createdAt: EpochMillis,
        expiresAt: EpochMillis?, revokedAt: EpochMillis? = nil, uses: Int = 0
    ) {
        self.id = id
        self.stationID = stationID
        self.tokenHash = tokenHash
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.uses = uses
    }

    public func isUsable(at now: EpochMillis) -> Bool {
        revokedAt == nil && (expiresAt.map { $0 > now } ?? true)
    }
}

/// Someone's standing on a station beyond what its visibility gives everyone.
public struct Membership: Sendable, Equatable {
    public var person: PersonRecord
    public var role: StationRole?
    public var banned: Bool

    public init(person: PersonRecord, role: StationRole?, banned: Bool) {
        self.person = person
        self.role = role
        self.banned = banned
    }
}

/// What storage knows about one person on one station, for `ListenPolicy`.
public struct StoredAccess: Sendable, Equatable {
    public var memberRole: StationRole?
    public var banned: Bool
    public var followsOwner: Bool

    public init(memberRole: StationRole?, banned: Bool, followsOwner: Bool) {
        self.memberRole = memberRole
        self.banned = banned
        self.followsOwner = followsOwner
    }
}
