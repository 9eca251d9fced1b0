import WavelengthCore

/// Limits on people's input; the server refuses anything outside them.
public enum PeopleLimits {
    public static let handleLength = 3...24
    public static let displayNameLength = 1...40
    /// bcrypt reads at most 72 bytes, so longer passwords are refused rather
    /// than silently cut.
    public static let passwordBytes = 8...72
    public static let maxTokenLength = 512
}

public struct PersonView: Sendable, Codable, Equatable {
    public var id: String
    public var kind: String
    public var handle: String?
    public var displayName: String
    public var stationID: StationID?
    /// The handle others @mention this person by in a chat: their
    /// account's, or a guest's room handle.
    public var mention: String?

    public init(id: String, kind: String, handle: String?, displayName: String, stationID: StationID?, mention: String? = nil) {
        self.id = id
        self.kind = kind
        self.handle = handle
        self.displayName = displayName
        self.stationID = stationID
        self.mention = mention ?? handle ?? (kind == "guest" ? ChatText.guestHandle(name: displayName, personID: id) : nil)
    }
}

/// A person named in a live message.
public struct PersonRef: Sendable, Codable, Equatable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

public struct ProfileView: Sendable, Codable, Equatable {
    public var person: PersonView
    public var followers: Int
    public var following: Int
    public var youFollow: Bool

    public init(person: PersonView, followers: Int, following: Int, youFollow: Bool) {
        self.person = person
        self.followers = followers
        self.following = following
        self.youFollow = youFollow
    }
}

public struct TokenPair: Sendable, Codable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    /// Seconds the access token lives.
    public var expiresIn: Int

    public init(accessToken: String, refreshToken: String, expiresIn: Int) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

public struct SignupRequest: Sendable, Codable, Equatable {
    public var handle: String
    public var displayName: String
    public var password: String
    public var tokens: Bool?
    /// A server invite's code, where sign-ups need one (or to skip the wait for approval).
    public var invite: String?

    public init(handle: String, displayName: String, password: String, tokens: Bool? = nil, invite: String? = nil) {
        self.handle = handle
        self.displayName = displayName
        self.password = password
        self.tokens = tokens
        self.invite = invite
    }
}

public struct LoginRequest: Sendable, Codable, Equatable {
    public var handle: String
    public var password: String
    public var tokens: Bool?

    public init(handle: String, password: String, tokens: Bool? = nil) {
        self.handle = handle
        self.password = password
        self.tokens = tokens
    }
}

public struct GuestRequest: Sendable, Codable, Equatable {
    public var displayName: String
    public var tokens: Bool?

    public init(displayName: String, tokens: Bool? = nil) {
        self.displayName = displayName
        self.tokens = tokens
    }
}

public struct RefreshRequest: Sendable, Codable, Equatable {
    public var refreshToken: String

    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }
}

public struct ChangePasswordRequest: Sendable, Codable, Equatable {
    public var currentPassword: String
    public var newPassword: String

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
}

public struct AuthResponse: Sendable, Codable, Equatable {
    public var person: PersonView
    public var station: StationView?
    public var csrfToken: String?
    public var tokens: TokenPair?

    public init(person: PersonView, station: StationView?, csrfToken: String?, tokens: TokenPair?) {
        self.person = person
        self.station = station
        self.csrfToken = csrfToken
        self.tokens = tokens
    }
}

public struct RefreshResponse: Sendable, Codable, Equatable {
    public var tokens: TokenPair

    public init(tokens: TokenPair) {
        self.tokens = tokens
    }
}

public struct MeResponse: Sendable, Codable, Equatable {
    public var person: PersonView?
    public var csrfToken: String?
    /// True for the server's administrators (absent otherwise): the web app
    /// shows them the way to the control room.
    public var isAdministrator: Bool?

    public init(person: PersonView?, csrfToken: String?, isAdministrator: Bool? = nil) {
        self.person = person
        self.csrfToken = csrfToken
        self.isAdministrator = isAdministrator
    }
}

public struct DialView: Sendable, Codable, Equatable {
    public struct Section: Sendable, Codable, Equatable {
        /// `own`, `codj` (stations you co-DJ), `following-live`, `following-quiet`, `discover` (public,
        /// on the air), `quiet` (public, off the air).
        public var kind: String
        public var stations: [StationView]

        public init(kind: String, stations: [StationView]) {
            self.kind = kind
            self.stations = stations
        }
    }

    public var sections: [Section]

    public init(sections: [Section]) {
        self.sections = sections
    }
}

public struct StationSettingsPatch: Sendable, Codable, Equatable {
    public var name: String?
    public var visibility: StationVisibility?
    /// Present and null clears the limit; absent leaves it.
    public var maxListeners: Int??

    public init(name: String? = nil, visibility: StationVisibility? = nil, maxListeners: Int?? = nil) {
        self.name = name
        self.visibility = visibility
        self.maxListeners = maxListeners
    }

    private enum Keys: String, CodingKey { case name, visibility, maxListeners }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        visibility = try c.decodeIfPresent(StationVisibility.self, forKey: .visibility)
        if c.contains(.maxListeners) {
            maxListeners = .some(try c.decodeNil(forKey: .maxListeners) ? nil : try c.decode(Int.self, forKey: .maxListeners))
        } else {
            maxListeners = .none
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(visibility, forKey: .visibility)
        if let maxListeners {
            if let value = maxListeners { try c.encode(value, forKey: .maxListeners) } else { try c.encodeNil(forKey: .maxListeners) }
        }
    }
}

public struct CodeView: Sendable, Codable, Equatable {
    public var frequency: String?
    public var accessCode: String?
    public var expiresAt: EpochMillis?

    public init(frequency: String?, accessCode: String?, expiresAt: EpochMillis?) {
        self.frequency = frequency
        self.accessCode = accessCode
        self.expiresAt = expiresAt
    }
}

public struct RotateCodeRequest: Sendable, Codable, Equatable {
    public var expiresInMinutes: Int?

    public init(expiresInMinutes: Int? = nil) {
        self.expiresInMinutes = expiresInMinutes
    }
}

public struct JoinRequest: Sendable, Codable, Equatable {
    public var accessCode: String?

    public init(accessCode: String? = nil) {
        self.accessCode = accessCode
    }
}

public struct JoinResponse: Sendable, Codable, Equatable {
    public var station: StationView

    public init(station: StationView) {
        self.station = station
    }
}

public struct MemberView: Sendable, Codable, Equatable {
    public var person: PersonView
    public var role: StationRole
    public var connected: Bool
    public var banned: Bool

    public init(person: PersonView, role: StationRole, connected: Bool, banned: Bool) {
        self.person = person
        self.role = role
        self.connected = connected
        self.banned = banned
    }
}

public struct PersonIDRequest: Sendable, Codable, Equatable {
    public var personID: String

    public init(personID: String) {
        self.personID = personID
    }
}

/// `POST /api/stations/{id}/codjs`: make someone a co-DJ by their handle.
public struct CoDJRequest: Sendable, Codable, Equatable {
    public var handle: String

    public init(handle: String) {
        self.handle = handle
    }
}

public struct ClaimRequest: Sendable, Codable, Equatable {
    public var key: String

    public init(key: String) {
        self.key = key
    }
}

public struct CreateInviteRequest: Sendable, Codable, Equatable {
    public var expiresInMinutes: Int?

    public init(expiresInMinutes: Int? = nil) {
        self.expiresInMinutes = expiresInMinutes
    }
}

public struct InviteCreated: Sendable, Codable, Equatable {
    public var id: String
    public var token: String
    public var url: String
    public var expiresAt: EpochMillis?

    public init(id: String, token: String, url: String, expiresAt: EpochMillis?) {
        self.id = id
        self.token = token
        self.url = url
        self.expiresAt = expiresAt
    }
}

public struct InviteView: Sendable, Codable, Equatable {
    public var id: String
    public var createdAt: EpochMillis
    public var expiresAt: EpochMillis?
    public var revoked: Bool
    public var uses: Int

    public init(id: String, createdAt: EpochMillis, expiresAt: EpochMillis?, revoked: Bool, uses: Int) {
        self.id = id
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revoked = revoked
        self.uses = uses
    }
}

public struct InviteLookup: Sendable, Codable, Equatable {
    public var station: StationView
    public var expiresAt: EpochMillis?

    public init(station: StationView, expiresAt: EpochMillis?) {
        self.station = station
        self.expiresAt = expiresAt
    }
}

/// "Delete my account": the password again, so a session alone can't.
public struct DeleteAccountRequest: Sendable, Codable, Equatable {
    public var password: String

    public init(password: String) {
        self.password = password
    }
}
