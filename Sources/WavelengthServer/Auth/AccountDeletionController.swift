import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// "Delete my account": a user deletes themselves, with their password
/// (a stolen session alone can't), through the same `PersonDeletion` an
/// administrator's uses. The browser's cookies go with it.
struct AccountDeletionController {
    let auth: AuthService
    let deletion: PersonDeletion
    let secureCookies: Bool

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/api/auth/delete-account", use: deleteAccount)
    }

    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let person = context.caller.person, person.kind == .user else {
            throw APIError(.unauthorized, code: .signInRequired, "Log in to delete your account.")
        }
        let body = try await request.decode(as: DeleteAccountRequest.self, context: context)
        guard body.password.utf8.count <= 1024,
            try await auth.verifyPassword(body.password, hash: person.passwordHash, for: context.remoteAddress)
        else {
            throw APIError(.forbidden, code: .wrongPassword, "That password is not right.")
        }
        let entry = AuditEntry(
            at: auth.clock.now(), actorID: person.id, actorName: person.displayName, action: "delete-account",
            subjectKind: "person", subjectID: person.id, subjectName: person.handle.map { "@\($0)" } ?? person.displayName,
            reason: "Deleted their own account")
        _ = try await deletion.delete(person, audit: entry)
        var response = Response(status: .noContent)
        AuthController.clearCookies(&response, secure: secureCookies)
        return response
    }
}
