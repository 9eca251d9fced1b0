/// Who may make an account on this server (Owncast's and Mastodon's
/// registration modes). Guests need no account, so no mode touches them:
/// a party never needs sign-ups open.
public enum RegistrationMode: String, Sendable, Codable, CaseIterable {
    /// Anyone may sign up (with the per-address limits).
    case open
    /// A sign-up waits until an administrator approves it.
    case approval
    /// A sign-up needs a server invite link.
    case invite
    /// Nobody may sign up.
    case closed
}

/// The registration mode with what goes with it.
public struct RegistrationPolicy: Sendable, Equatable, Codable {
    public var mode: RegistrationMode
    /// Whether members (not only administrators) may make invite links.
    public var membersMayInvite: Bool

    public init(mode: RegistrationMode, membersMayInvite: Bool = false) {
        self.mode = mode
        self.membersMayInvite = membersMayInvite
    }

    /// The mode of a server nobody has set one on: a server reachable only
    /// from this machine is someone trying it out, and is open; one that
    /// listens beyond it could be found by anyone, and waits for approval.
    public static func byDefault(listensBeyondThisMachine: Bool) -> RegistrationPolicy {
        RegistrationPolicy(mode: listensBeyondThisMachine ? .approval : .open)
    }

    /// What a sign-up becomes, from what it brings: an account now, one that
    /// waits, or a refusal that says why.
    public func decide(hasValidInvite: Bool) -> SignupDecision {
        switch mode {
        case .open: .createAccount
        case .approval: hasValidInvite ? .createAccount : .awaitApproval
        case .invite: hasValidInvite ? .createAccount : .refuse(.inviteRequired)
        case .closed: .refuse(.closed)
        }
    }

    /// Whether `isAdministrator` (or a member, when they may) can make
    /// invite links. Invites only mean something where sign-ups need them
    /// or would wait; an admin may make them in any mode but closed.
    public func mayInvite(isAdministrator: Bool) -> Bool {
        guard mode != .closed else { return false }
        return isAdministrator || membersMayInvite
    }
}

/// What happens to one sign-up.
public enum SignupDecision: Sendable, Equatable {
    case createAccount
    case awaitApproval
    case refuse(Refusal)

    public enum Refusal: Sendable, Equatable {
        case inviteRequired
        case closed
    }
}

/// Whether a listening address reaches beyond this machine: anything but
/// the loopback names and addresses does (`0.0.0.0` and `::` listen on
/// every interface).
public enum ListeningAddress {
    public static func isLoopback(_ host: String) -> Bool {
        var host = Substring(host.lowercased())
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
