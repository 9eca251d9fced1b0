import Foundation
import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Who may sign up: what the sign-up page reads, the control room's
/// registration card (the mode, sign-ups waiting for approval) and server
/// invite links, made by administrators or, when they allow it, members.
struct RegistrationController {
    let registration: Registration
    let people: any PeopleRepository
    let directory: StationDirectory
    let clock: any ServerClock
    /// `--public-url`, so a copied invite link names the server.
    let publicURL: String?

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/auth/registration", use: registrationForSignup)
        router.get("/api/admin/registration", use: adminView)
        router.put("/api/admin/registration", use: setPolicy)
        router.post("/api/admin/people/{id}/approve", use: approve)
        router.post("/api/admin/people/{id}/decline", use: decline)
        router.get("/api/server-invites", use: myInvites)
        router.post("/api/server-invites", use: createInvite)
        router.delete("/api/server-invites/{id}", use: revokeInvite)
    }

    // MARK: The sign-up page

    @Sendable func registrationForSignup(_ request: Request, context: AppRequestContext) async throws -> RegistrationView {
        let policy = try await registration.current().policy
        var check: InviteCheck?
        if let code = try request.stringQuery("invite", maxLength: RegistrationLimits.inviteCodeBytes), !code.isEmpty {
            if let invite = try await registration.usableInvite(code: code) {
                check = InviteCheck(
                    valid: true, from: invite.createdByName, message: "\(invite.createdByName) invited you to this server.")
            } else {
                check = InviteCheck(
                    valid: false, from: nil,
                    message: "This invite link has expired, been used up or withdrawn: ask whoever sent it for a new one.")
            }
        }
        return RegistrationView(
            mode: policy.mode.rawValue, membersMayInvite: policy.membersMayInvite,
            message: Registration.message(for: policy), invite: check)
    }

    // MARK: The control room

    @Sendable func adminView(_ request: Request, context: AppRequestContext) async throws -> AdminRegistrationView {
        _ = try AdminController.administrator(context)
        return try await adminRegistration()
    }

    @Sendable func setPolicy(_ request: Request, context: AppRequestContext) async throws -> AdminRegistrationView {
        let admin = try AdminController.administrator(context)
        let body = try await request.decode(as: RegistrationSettingsRequest.self, context: context)
        guard let mode = RegistrationMode(rawValue: body.mode) else {
            throw APIError.badRequest("mode must be one of \(RegistrationMode.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let current = try await registration.current().policy
        let policy = RegistrationPolicy(mode: mode, membersMayInvite: body.membersMayInvite ?? current.membersMayInvite)
        let reason = try Self.reason(body.reason, otherwise: "Sign-ups: \(mode.rawValue)")
        try await registration.store.setRegistrationPolicy(
            policy,
            audit: AuditEntry(
                at: clock.now(), actorID: admin.id, actorName: admin.displayName, action: "set-registration",
                subjectKind: "server", subjectID: "registration",
                subjectName: "sign-ups: \(mode.rawValue)\(policy.membersMayInvite ? ", members invite" : "")", reason: reason))
        return try await adminRegistration()
    }

    /// Lets a waiting sign-up in: the approval and its audit entry in one
    /// transaction, then the person's station (which `login` also makes,
    /// should the server stop in between).
    @Sendable func approve(_ request: Request, context: AppRequestContext) async throws -> AdminRegistrationView {
        let person = try await decide(request, context, action: "approve-signup", otherwise: "Approved") { store, id, entry in
            try await store.approveSignup(personID: id, audit: entry)
        }
        _ = try await directory.createAccount(person, upgrading: true, people: people)
        return try await adminRegistration()
    }

    /// Turns a waiting sign-up away: the person is deleted (they never had a
    /// session or a station), so the handle is free again.
    @Sendable func decline(_ request: Request, context: AppRequestContext) async throws -> AdminRegistrationView {
        _ = try await decide(request, context, action: "decline-signup", otherwise: "Declined") { store, id, entry in
            try await store.declineSignup(personID: id, audit: entry)
        }
        return try await adminRegistration()
    }

    /// An administrator's decision on the waiting person named in the path,
    /// with its audit entry (the reason is optional); 404 when they aren't waiting.
    private func decide(
        _ request: Request, _ context: AppRequestContext, action: String, otherwise: String,
        _ apply: (any RegistrationRepository, String, AuditEntry) async throws -> PersonRecord?
    ) async throws -> PersonRecord {
        let admin = try AdminController.administrator(context)
        let id = try context.id("id")
        let reason = try Self.reason(try await Self.optionalReason(request, context), otherwise: otherwise)
        let entry = AuditEntry(
            at: clock.now(), actorID: admin.id, actorName: admin.displayName, action: action, subjectKind: "person",
            subjectID: id, subjectName: try await name(of: id), reason: reason)
        guard let person = try await apply(registration.store, id, entry) else {
            throw APIError.notFound("Nobody with id \(id) is waiting for approval.")
        }
        return person
    }

    private func adminRegistration() async throws -> AdminRegistrationView {
        let (policy, isDefault) = try await registration.current()
        let waiting = try await registration.store.waitingSignups(limit: 100).map {
            WaitingSignupView(id: $0.person.id, handle: $0.person.handle ?? "", displayName: $0.person.displayName, since: $0.since)
        }
        let invites = try await registration.store.serverInvites(createdBy: nil, limit: 100).map { view(of: $0) }
        return AdminRegistrationView(
            mode: policy.mode.rawValue, membersMayInvite: policy.membersMayInvite, isDefault: isDefault, waiting: waiting,
            invites: invites)
    }

    // MARK: Server invites

    @Sendable func myInvites(_ request: Request, context: AppRequestContext) async throws -> ServerInvitesResponse {
        let person = try Self.member(context)
        let policy = try await registration.current().policy
        return ServerInvitesResponse(
            mayInvite: policy.mayInvite(isAdministrator: context.caller.isAdministrator),
            invites: try await registration.store.serverInvites(createdBy: person.id, limit: 50).map { view(of: $0) })
    }

    @Sendable func createInvite(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ServerInviteView> {
        let person = try Self.member(context)
        let isAdministrator = context.caller.isAdministrator
        let policy = try await registration.current().policy
        guard policy.mayInvite(isAdministrator: isAdministrator) else {
            throw APIError(
                .forbidden, code: .forbidden,
                policy.mode == .closed
                    ? "This server isn't taking new accounts, so invites wouldn't let anyone in."
                    : "Only the server's administrators make invite links here.")
        }
        let body = try await request.decode(as: NewServerInviteRequest.self, context: context)
        guard RegistrationLimits.inviteUses.contains(body.maxUses) else {
            throw APIError.badRequest("maxUses must be in \(RegistrationLimits.inviteUses).", code: .invalidLimit)
        }
        guard RegistrationLimits.inviteHours.contains(body.expiresInHours) else {
            throw APIError.badRequest("expiresInHours must be in \(RegistrationLimits.inviteHours).", code: .invalidExpiry)
        }
        let code = Secrets.token()
        let now = clock.now()
        let invite = ServerInviteRecord(
            id: Secrets.id("sinv"), codeHash: Secrets.hash(code), createdBy: person.id, createdByName: person.displayName,
            createdAt: now, expiresAt: now + Int64(body.expiresInHours) * 3_600_000, maxUses: body.maxUses)
        let limit = isAdministrator ? RegistrationLimits.invitesPerAdministrator : RegistrationLimits.invitesPerMember
        let audit =
            isAdministrator
            ? AuditEntry(
                at: now, actorID: person.id, actorName: person.displayName, action: "make-invite", subjectKind: "invite",
                subjectID: invite.id, subjectName: "an invite for \(body.maxUses) (\(body.expiresInHours) h)",
                reason: "Invite link") : nil
        do {
            try await registration.store.insertServerInvite(invite, limit: limit, audit: audit)
        } catch StorageError.inviteLimit(let limit) {
            throw APIError(
                .tooManyRequests, code: .inviteLimit,
                "You hold \(limit) invite links that still work; withdraw one or wait for one to run out.")
        }
        var view = view(of: invite)
        view.code = code
        view.url = (publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "") + "/#/signup?invite=\(code)"
        return JSONResponse(status: .created, value: view)
    }

    @Sendable func revokeInvite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let person = try Self.member(context)
        let id = try context.id("id")
        guard
            try await registration.store.revokeServerInvite(
                id: id, by: person.id, byAnyone: context.caller.isAdministrator, at: clock.now())
        else { throw APIError.notFound("No invite link of yours with id \(id) still works.") }
        return Response(status: .noContent)
    }

    // MARK: Helpers

    private static func member(_ context: AppRequestContext) throws -> PersonRecord {
        guard let person = context.caller.person, person.kind == .user else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to make invite links.")
        }
        return person
    }

    private func view(of invite: ServerInviteRecord) -> ServerInviteView {
        ServerInviteView(
            id: invite.id, createdByName: invite.createdByName, createdAt: invite.createdAt, expiresAt: invite.expiresAt,
            maxUses: invite.maxUses, uses: invite.uses, revoked: invite.revokedAt != nil)
    }

    private func name(of id: String) async throws -> String {
        guard let person = try await people.person(id: id) else { return id }
        return person.handle.map { "@\($0)" } ?? person.displayName
    }

    private static func optionalReason(_ request: Request, _ context: AppRequestContext) async throws -> String? {
        try await request.decodeIfPresent(as: AdminActionRequest.self, context: context)?.reason
    }

    private static func reason(_ given: String?, otherwise: String) throws -> String {
        let reason = (given ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard reason.utf8.count <= AdminLimits.reasonBytes.upperBound else {
            throw APIError.badRequest("Say why in at most \(AdminLimits.reasonBytes.upperBound) bytes.")
        }
        return reason.isEmpty ? otherwise : reason
    }
}
