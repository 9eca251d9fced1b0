import WavelengthCore

/// Limits on what registration settings and server invites accept.
public enum RegistrationLimits {
    /// Uses of one invite link.
    public static let inviteUses = 1...100
    /// How long an invite lasts, in hours (up to 30 days).
    public static let inviteHours = 1...720
    /// Usable invites one member holds at once; an administrator holds more.
    public static let invitesPerMember = 10
    public static let invitesPerAdministrator = 200
    /// Sign-ups that may wait for approval at once: past it, new ones are
    /// told to come back later, so a flood can't bury the real ones.
    public static let waitingList = 500
    /// The longest invite code accepted (a code is 43 characters).
    public static let inviteCodeBytes = 128
}

/// Who may sign up, as the sign-up page reads it (`GET /api/auth/registration`).
public struct RegistrationView: Sendable, Codable, Equatable {
    /// `open`, `approval`, `invite` or `closed`.
    public var mode: String
    /// Whether members may make invite links (and the caller is a member who may).
    public var membersMayInvite: Bool
    /// What the page says about it, in a sentence.
    public var message: String
    /// When the page came with `?invite=`: whether that invite still works.
    public var invite: InviteCheck?

    public init(mode: String, membersMayInvite: Bool, message: String, invite: InviteCheck? = nil) {
        self.mode = mode
        self.membersMayInvite = membersMayInvite
        self.message = message
        self.invite = invite
    }
}

public struct InviteCheck: Sendable, Codable, Equatable {
    public var valid: Bool
    /// Who made it, when valid (their display name as it was).
    public var from: String?
    public var message: String

    public init(valid: Bool, from: String?, message: String) {
        self.valid = valid
        self.from = from
        self.message = message
    }
}

/// A sign-up that waits for an administrator (202): no session is started.
public struct SignupWaitingResponse: Sendable, Codable, Equatable {
    public var awaitingApproval: Bool
    public var handle: String
    public var message: String

    public init(handle: String, message: String) {
        self.awaitingApproval = true
        self.handle = handle
        self.message = message
    }
}

/// An administrator sets who may sign up.
public struct RegistrationSettingsRequest: Sendable, Codable, Equatable {
    public var mode: String
    public var membersMayInvite: Bool?
    public var reason: String?

    public init(mode: String, membersMayInvite: Bool? = nil, reason: String? = nil) {
        self.mode = mode
        self.membersMayInvite = membersMayInvite
        self.reason = reason
    }
}

/// A sign-up waiting for approval, as the control room lists it.
public struct WaitingSignupView: Sendable, Codable, Equatable {
    public var id: String
    public var handle: String
    public var displayName: String
    public var since: EpochMillis

    public init(id: String, handle: String, displayName: String, since: EpochMillis) {
        self.id = id
        self.handle = handle
        self.displayName = displayName
        self.since = since
    }
}

/// A server invite link. `code` and `url` are there only in the answer
/// that made it: the server keeps the code's hash alone.
public struct ServerInviteView: Sendable, Codable, Equatable {
    public var id: String
    public var createdByName: String
    public var createdAt: EpochMillis
    public var expiresAt: EpochMillis
    public var maxUses: Int
    public var uses: Int
    public var revoked: Bool
    public var code: String?
    public var url: String?

    public init(
        id: String, createdByName: String, createdAt: EpochMillis, expiresAt: EpochMillis, maxUses: Int, uses: Int,
        revoked: Bool, code: String? = nil, url: String? = nil
    ) {
        self.id = id
        self.createdByName = createdByName
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.maxUses = maxUses
        self.uses = uses
        self.revoked = revoked
        self.code = code
        self.url = url
    }
}

public struct NewServerInviteRequest: Sendable, Codable, Equatable {
    public var maxUses: Int
    public var expiresInHours: Int

    public init(maxUses: Int, expiresInHours: Int) {
        self.maxUses = maxUses
        self.expiresInHours = expiresInHours
    }
}

/// The control room's registration card: the mode, whether it is the
/// default (nobody set one), who waits, and the invites.
public struct AdminRegistrationView: Sendable, Codable, Equatable {
    public var mode: String
    public var membersMayInvite: Bool
    public var isDefault: Bool
    public var waiting: [WaitingSignupView]
    public var invites: [ServerInviteView]

    public init(mode: String, membersMayInvite: Bool, isDefault: Bool, waiting: [WaitingSignupView], invites: [ServerInviteView]) {
        self.mode = mode
        self.membersMayInvite = membersMayInvite
        self.isDefault = isDefault
        self.waiting = waiting
        self.invites = invites
    }
}

/// A member's own invites (`GET /api/server-invites`).
public struct ServerInvitesResponse: Sendable, Codable, Equatable {
    public var mayInvite: Bool
    public var invites: [ServerInviteView]

    public init(mayInvite: Bool, invites: [ServerInviteView]) {
        self.mayInvite = mayInvite
        self.invites = invites
    }
}
