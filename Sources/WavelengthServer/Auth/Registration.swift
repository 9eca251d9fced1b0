import Foundation
import Logging
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Who may sign up here: the stored policy (or the default for where the
/// server listens), read on every sign-up so every node sees a change at
/// once, and the server invites that open the door.
struct Registration: Sendable {
    let store: any RegistrationRepository & OperatorRepository
    /// When nobody has set a mode.
    let fallback: RegistrationPolicy
    let clock: any ServerClock

    /// Applies `--registration` (stored, and audited as the host's shell,
    /// when it changes something) and says in the log who may sign up.
    static func start(
        _ configuration: ServerConfiguration, store: any RegistrationRepository & OperatorRepository, clock: any ServerClock,
        logger: Logger
    ) async throws -> Registration {
        let registration = Registration(store: store, fallback: configuration.defaultRegistration, clock: clock)
        if let mode = configuration.registration {
            let stored = try await store.registrationPolicy()
            if stored?.mode != mode {
                let policy = RegistrationPolicy(mode: mode, membersMayInvite: stored?.membersMayInvite ?? false)
                try await store.setRegistrationPolicy(
                    policy,
                    audit: AuditEntry(
                        at: clock.now(), actorID: nil, actorName: "the host's shell", action: "set-registration",
                        subjectKind: "server", subjectID: "registration", subjectName: "sign-ups",
                        reason: "wavelength serve --registration \(mode.rawValue)"))
            }
        }
        let (policy, isDefault) = try await registration.current()
        let why =
            isDefault
            ? (policy.mode == .approval
                ? " (the default for a server that listens beyond this machine: --host \(configuration.host))" : " (the default)")
            : ""
        logger.notice(
            "Sign-ups: \(policy.mode.rawValue)\(why); change it with --registration or in the control room")
        return registration
    }

    /// The policy in force, and whether it is the default (nobody set one).
    func current() async throws -> (policy: RegistrationPolicy, isDefault: Bool) {
        if let stored = try await store.registrationPolicy() { return (stored, false) }
        return (fallback, true)
    }

    /// What the sign-up page says.
    static func message(for policy: RegistrationPolicy) -> String {
        switch policy.mode {
        case .open: "Anyone can make an account here."
        case .approval:
            "This server's administrators approve each new account: sign up, and you can sign in once they have."
        case .invite: "Accounts here are by invitation: you need an invite link from a member or an administrator."
        case .closed: "This server isn't taking new accounts. You can still listen as a guest where a station lets guests in."
        }
    }

    /// A usable invite with this code, without taking a use (the page's check).
    func usableInvite(code: String) async throws -> ServerInviteRecord? {
        guard let hash = Self.hash(code), let invite = try await store.serverInvite(codeHash: hash),
            invite.isUsable(at: clock.now())
        else { return nil }
        return invite
    }

    /// Takes one use of the invite, or answers 403 with why it can't.
    func redeem(code: String) async throws -> ServerInviteRecord {
        guard let hash = Self.hash(code), let invite = try await store.redeemServerInvite(codeHash: hash, at: clock.now()) else {
            throw APIError(
                .forbidden, code: .invalidInvite,
                "This invite link has expired, been used up or withdrawn: ask whoever sent it for a new one.")
        }
        return invite
    }

    private static func hash(_ code: String) -> String? {
        let code = code.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty, code.utf8.count <= RegistrationLimits.inviteCodeBytes else { return nil }
        return Secrets.hash(code)
    }
}
