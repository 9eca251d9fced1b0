import Foundation
import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Password reset links: an administrator makes one for a user who lost
/// their password (there is no e-mail here; they send it however they
/// reach the person), and the person sets a new password with it, once,
/// within a day. Every session of theirs ends with the old password.
struct PasswordResetController {
    static let lifetime: Int64 = 24 * 3_600_000
    static let maxTokenBytes = 128

    let auth: AuthService
    let people: any PeopleRepository
    let resets: any PasswordResetRepository
    let clock: any ServerClock
    /// `--public-url`, so a copied link names the server.
    let publicURL: String?

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/api/admin/people/{id}/password-reset", use: issue)
        router.get("/api/auth/password-reset/{token}", use: lookup)
        router.post("/api/auth/password-reset", use: reset)
    }

    @Sendable func issue(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<PasswordResetLink> {
        let admin = try AdminController.administrator(context)
        let id = try context.id("id")
        let reason = try await request.decodeIfPresent(as: AdminActionRequest.self, context: context)?.reason
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard (reason ?? "").utf8.count <= AdminLimits.reasonBytes.upperBound else {
            throw APIError.badRequest("Say why in at most \(AdminLimits.reasonBytes.upperBound) bytes.")
        }
        guard let person = try await people.person(id: id), person.kind == .user else {
            throw APIError.notFound("No user with id \(id): guests have no password.")
        }
        let token = Secrets.token()
        let now = clock.now()
        let entry = AuditEntry(
            at: now, actorID: admin.id, actorName: admin.displayName, action: "password-reset", subjectKind: "person",
            subjectID: person.id, subjectName: person.handle.map { "@\($0)" } ?? person.displayName,
            reason: (reason?.isEmpty ?? true) ? "Password reset link" : reason!)
        guard try await resets.issuePasswordReset(
            tokenHash: Secrets.hash(token), personID: person.id, expiresAt: now + Self.lifetime, audit: entry)
        else { throw APIError.notFound("No user with id \(id).") }
        let base = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        return JSONResponse(
            status: .created, value: PasswordResetLink(url: base + "/#/reset/\(token)", expiresAt: now + Self.lifetime))
    }

    @Sendable func lookup(_ request: Request, context: AppRequestContext) async throws -> PasswordResetLookup {
        let person = try await holder(context.parameters.get("token") ?? "")
        return PasswordResetLookup(handle: person.handle ?? "", displayName: person.displayName)
    }

    @Sendable func reset(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decode(as: PasswordResetRequest.self, context: context)
        let password = try Validation.password(body.newPassword)
        // Checked before bcrypt runs: a made-up token costs a lookup, not a hash.
        _ = try await holder(body.token)
        let hash = try await auth.hashPassword(password, for: context.remoteAddress)
        guard try await resets.redeemPasswordReset(tokenHash: Secrets.hash(body.token), newPasswordHash: hash, at: clock.now()) != nil
        else { throw Self.dead }
        return Response(status: .noContent)
    }

    private func holder(_ token: String) async throws -> PersonRecord {
        guard !token.isEmpty, token.utf8.count <= Self.maxTokenBytes,
            let person = try await resets.passwordResetHolder(tokenHash: Secrets.hash(token), at: clock.now())
        else { throw Self.dead }
        return person
    }

    static let dead = APIError(
        .notFound, code: .invalidToken,
        "This reset link has expired or was used already: ask an administrator for a new one.")
}
