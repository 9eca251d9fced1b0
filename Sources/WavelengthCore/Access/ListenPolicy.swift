/// What the server knows about one person and one station; no I/O.
///
/// The server looks these up (session, station row, memberships, bans,
/// follows) and the policy below decides from them alone, so every rule can be
/// tested without a database.
public struct AccessFacts: Sendable, Equatable {
    /// Signed in, or holding a guest session.
    public var hasIdentity: Bool
    public var isOwner: Bool
    public var isCoDJ: Bool
    /// Joined by code or invite (or earlier, before the station changed visibility).
    public var isMember: Bool
    public var isBanned: Bool
    public var followsOwner: Bool

    public init(
        hasIdentity: Bool = false, isOwner: Bool = false, isCoDJ: Bool = false, isMember: Bool = false,
        isBanned: Bool = false, followsOwner: Bool = false
    ) {
        self.hasIdentity = hasIdentity
        self.isOwner = isOwner
        self.isCoDJ = isCoDJ
        self.isMember = isMember
        self.isBanned = isBanned
        self.followsOwner = followsOwner
    }
}

/// Whether someone may tune in, and if not, what they could do about it.
public enum ListenDecision: Sendable, Equatable {
    case allowed
    /// Anonymous on a station that needs membership or a follow: signing in might help.
    case signInRequired
    /// Signed in, but not admitted: they need the code, an invite or a follow.
    case notAMember
    case banned
}

/// Who may listen to a station, and with which role.
public enum ListenPolicy {
    /// The caller's role on the station: owner, codj, listener (may listen),
    /// or none (banned, or may not listen).
    public static func role(_ facts: AccessFacts, visibility: StationVisibility) -> StationRole {
        if facts.isOwner { return .owner }
        // A ban outranks a co-DJ grant that was never revoked.
        if facts.isBanned { return .none }
        if facts.isCoDJ { return .codj }
        return decide(facts, visibility: visibility) == .allowed ? .listener : .none
    }

    /// public/unlisted: anyone; code and invite: members; followers: followers
    /// and members; the owner and co-DJs always; the banned never (a ban wins
    /// over everything except being the owner, even on a public station).
    public static func decide(_ facts: AccessFacts, visibility: StationVisibility) -> ListenDecision {
        if facts.isOwner { return .allowed }
        if facts.isBanned { return .banned }
        if facts.isCoDJ { return .allowed }
        let admitted =
            switch visibility {
            case .public, .unlisted: true
            case .code, .invite: facts.isMember
            case .followers: facts.followsOwner || facts.isMember
            }
        if admitted { return .allowed }
        // Without an identity there is no membership or follow to find, so the
        // useful answer is "sign in", not "you're not a member".
        return facts.hasIdentity ? .notAMember : .signInRequired
    }
}
