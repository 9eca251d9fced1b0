import Foundation
import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Sign up, log in, guests, tokens, log out and passwords.
///
/// Every answer that starts a session either sets the HttpOnly session
/// cookie (browsers) or, when the body asks for `"tokens": true`, returns
/// a bearer token pair (SDKs) and sets no cookie.
struct AuthController {
    let auth: AuthService
    let people: any PeopleRepository & OperatorRepository
    let access: any StationAccessRepository
    let directory: StationDirectory
    let attempts: AttemptGuard
    let registration: Registration
    let secureCookies: Bool

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("/api/auth/signup", use: signup)
        router.post("/api/auth/login", use: login)
        router.post("/api/auth/guest", use: guest)
        router.post("/api/auth/refresh", use: refresh)
        router.post("/api/auth/logout", use: logout)
        router.post("/api/auth/password", use: changePassword)
        router.get("/api/auth/me", use: me)
    }

    @Sendable func signup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decode(as: SignupRequest.self, context: context)
        let handle = try Validation.handle(body.handle)
        let name = try Validation.displayName(body.displayName)
        let password = try Validation.password(body.password)
        if context.caller.isUser {
            throw APIError(.conflict, code: .alreadySignedIn, "You are signed in already; log out first.")
        }
        // Who may sign up, read now: an administrator's change counts at once, on every node.
        let policy = try await registration.current().policy
        // An invite only matters where sign-ups need one or would wait; its
        // use is taken before the account is made (two sign-ups can't
        // share the last one) and given back if the account isn't made.
        var invite: ServerInviteRecord?
        if let code = body.invite, !code.isEmpty, policy.mode == .approval || policy.mode == .invite {
            invite = try await registration.redeem(code: code)
        }
        do {
            switch policy.decide(hasValidInvite: invite != nil) {
            case .refuse(.closed):
                throw APIError(.forbidden, code: .registrationClosed, Registration.message(for: policy))
            case .refuse(.inviteRequired):
                throw APIError(.forbidden, code: .inviteRequired, Registration.message(for: policy))
            case .awaitApproval:
                return try await signUpToWait(
                    handle: handle, name: name, password: password, request: request, context: context)
            case .createAccount:
                return try await signUpNow(
                    handle: handle, name: name, password: password, tokens: body.tokens == true, request: request,
                    context: context)
            }
        } catch {
            if let invite { try? await registration.store.returnServerInviteUse(id: invite.id) }
            throw error
        }
    }

    /// An account at once, with its station and a session.
    private func signUpNow(
        handle: String, name: String, password: String, tokens: Bool, request: Request, context: AppRequestContext
    ) async throws -> Response {
        // A guest who signs up keeps their id, so memberships carry over.
        let guest = context.caller.person?.kind == .guest ? context.caller.person : nil
        let address = context.remoteAddress
        let (auth, directory, people) = (self.auth, self.directory, self.people)
        // Every signup counts against the address, reserved before bcrypt runs.
        let (person, hub) = try await attempts.attempt(.signup(address: address), isFailure: { _ in true }) {
            let person = PersonRecord(
                id: guest?.id ?? Secrets.id("u"), kind: .user, handle: handle, displayName: name,
                passwordHash: try await auth.hashPassword(password, for: address),
                createdAt: guest?.createdAt ?? auth.clock.now())
            do {
                return (person, try await directory.createAccount(person, upgrading: guest != nil, people: people))
            } catch StorageError.handleTaken {
                throw Self.handleTaken(handle)
            }
        }
        if guest != nil, let old = context.caller.sessionID {
            try await people.revokeSession(id: old, at: auth.clock.now())
        }
        let station = try await hub.view().seen(as: .owner)
        return try await startSession(
            for: person, station: station, tokens: tokens, status: .created, request: request, context: context)
    }

    /// An account that waits for an administrator: no station and no
    /// session until it is approved (202). A guest stays a guest meanwhile.
    private func signUpToWait(
        handle: String, name: String, password: String, request: Request, context: AppRequestContext
    ) async throws -> Response {
        let address = context.remoteAddress
        let (auth, registration) = (self.auth, self.registration)
        try await attempts.attempt(.signup(address: address), isFailure: { _ in true }) {
            let person = PersonRecord(
                id: Secrets.id("u"), kind: .user, handle: handle, displayName: name,
                passwordHash: try await auth.hashPassword(password, for: address), createdAt: auth.clock.now())
            do {
                try await registration.store.insertWaitingSignup(person, limit: RegistrationLimits.waitingList)
            } catch StorageError.handleTaken {
                throw Self.handleTaken(handle)
            } catch StorageError.waitingListFull {
                throw APIError(
                    .serviceUnavailable, code: .waitingListFull,
                    "Many sign-ups are waiting for the administrators already; try again in a day or two.")
            }
        }
        let body = SignupWaitingResponse(
            handle: handle,
            message: "Thanks, @\(handle): an administrator will look at your sign-up. Sign in once it is approved.")
        return try JSONResponse(status: .accepted, value: body).response(from: request, context: context)
    }

    private static func handleTaken(_ handle: String) -> APIError {
        APIError(.conflict, code: .handleTaken, "The handle \(handle) is taken; try another.")
    }

    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decode(as: LoginRequest.self, context: context)
        // Bounded before anything touches them; the answer never says which was wrong.
        let handle = String(body.handle.trimmingCharacters(in: .whitespaces).lowercased().prefix(64))
        guard body.password.utf8.count <= 1024 else { throw Self.invalidCredentials }
        let address = context.remoteAddress
        let (people, auth, password) = (self.people, self.auth, body.password)
        // Reserved before bcrypt runs: concurrent guesses count as they start.
        let person = try await attempts.attempt(
            .login(handle: handle, address: address), isFailure: { ($0 as? APIError)?.code == .invalidCredentials }
        ) {
            let person = try await people.person(handle: handle)
            let valid = try await auth.verifyPassword(password, hash: person?.passwordHash, for: address)
            guard valid, let person, person.kind == .user else { throw Self.invalidCredentials }
            return person
        }
        await attempts.loginSucceeded(handle: handle, address: address)
        let standing = try await people.standing(personID: person.id) ?? PersonStanding()
        if standing.isSuspended {
            throw APIError(
                .forbidden, code: .suspended,
                "This account is suspended by the server's administrators"
                    + (standing.suspensionReason.map { ": \($0)" } ?? "."))
        }
        if standing.isAwaitingApproval {
            throw APIError(
                .forbidden, code: .awaitingApproval,
                "Your sign-up is waiting for the server's administrators to approve it; try again once they have.")
        }
        return try await startSession(
            for: person, station: try await ownStation(of: person), tokens: body.tokens == true, status: .ok,
            request: request, context: context)
    }

    @Sendable func guest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decode(as: GuestRequest.self, context: context)
        let name = try Validation.displayName(body.displayName)
        let person = PersonRecord(
            id: Secrets.id("g"), kind: .guest, handle: nil, displayName: name, passwordHash: nil,
            createdAt: auth.clock.now())
        let people = self.people
        try await attempts.attempt(.guest(address: context.remoteAddress), isFailure: { _ in true }) {
            try await people.insertGuest(person)
        }
        return try await startSession(
            for: person, station: nil, tokens: body.tokens == true, status: .created, request: request,
            context: context)
    }

    @Sendable func refresh(_ request: Request, context: AppRequestContext) async throws -> RefreshResponse {
        let body = try await request.decode(as: RefreshRequest.self, context: context)
        guard let tokens = try await auth.refresh(body.refreshToken) else {
            throw APIError(.unauthorized, code: .invalidToken, "The refresh token is invalid, used or expired; log in again.")
        }
        return RefreshResponse(tokens: tokens)
    }

    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let session = context.caller.sessionID {
            try await people.revokeSession(id: session, at: auth.clock.now())
        }
        var response = Response(status: .noContent)
        clearCookies(&response)
        return response
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let person = context.caller.person, person.kind == .user else {
            throw APIError(.unauthorized, code: .signInRequired, "Log in to change your password.")
        }
        let body = try await request.decode(as: ChangePasswordRequest.self, context: context)
        let password = try Validation.password(body.newPassword)
        guard body.currentPassword.utf8.count <= 1024,
            try await auth.verifyPassword(body.currentPassword, hash: person.passwordHash, for: context.remoteAddress)
        else {
            throw APIError(.forbidden, code: .wrongPassword, "Your current password is not right.")
        }
        try await people.changePassword(
            personID: person.id, hash: try await auth.hashPassword(password, for: context.remoteAddress), keepingSession: context.caller.sessionID,
            at: auth.clock.now())
        return Response(status: .noContent)
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> MeResponse {
        guard let person = context.caller.person else { return MeResponse(person: nil, csrfToken: nil) }
        let csrf = context.caller.viaCookie ? context.caller.sessionID.map(auth.csrfToken(sessionID:)) : nil
        return MeResponse(
            person: try await view(of: person), csrfToken: csrf, isAdministrator: context.caller.isAdministrator ? true : nil)
    }

    // MARK: Helpers

    static let invalidCredentials = APIError(
        .unauthorized, code: .invalidCredentials, "That handle and password don't match an account.")

    private func startSession(
        for person: PersonRecord, station: StationView?, tokens: Bool, status: HTTPResponse.Status, request: Request,
        context: AppRequestContext
    ) async throws -> Response {
        let (session, secret) = try await auth.openSession(for: person, kind: tokens ? .bearer : .cookie)
        let personView = try await view(of: person, stationID: station?.id)
        if tokens {
            let body = AuthResponse(
                person: personView, station: station, csrfToken: nil,
                tokens: try await auth.tokens(for: session, refreshToken: secret))
            return try JSONResponse(status: status, value: body).response(from: request, context: context)
        }
        let csrf = auth.csrfToken(sessionID: session.id)
        let body = AuthResponse(person: personView, station: station, csrfToken: csrf, tokens: nil)
        var response = try JSONResponse(status: status, value: body).response(from: request, context: context)
        let maxAge = Int(AuthService.sessionLifetime / 1000)
        response.setCookie(
            Cookie(
                name: SessionAuthenticator.sessionCookie, value: secret, maxAge: maxAge, path: "/",
                secure: secureCookies, httpOnly: true, sameSite: .lax))
        // Readable by the page, which echoes it in X-CSRF-Token.
        response.setCookie(
            Cookie(
                name: SessionAuthenticator.csrfCookie, value: csrf, maxAge: maxAge, path: "/", secure: secureCookies,
                httpOnly: false, sameSite: .lax))
        return response
    }

    private func clearCookies(_ response: inout Response) {
        Self.clearCookies(&response, secure: secureCookies)
    }

    /// Ends the browser's session cookies (signing out, an account deleted).
    static func clearCookies(_ response: inout Response, secure secureCookies: Bool) {
        for name in [SessionAuthenticator.sessionCookie, SessionAuthenticator.csrfCookie] {
            response.setCookie(
                Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secureCookies, httpOnly: true, sameSite: .lax))
        }
    }

    /// A user's own station; one approved but stopped before it was made
    /// (a crash between the approval and the station) gets it now.
    private func ownStation(of person: PersonRecord) async throws -> StationView? {
        guard let record = try await access.stations(ownedBy: [person.id]).first(where: \.personal) else {
            guard person.kind == .user else { return nil }
            return try await directory.createAccount(person, upgrading: true, people: people).view().seen(as: .owner)
        }
        return try await directory.views(of: [record]).first?.seen(as: .owner)
    }

    func view(of person: PersonRecord, stationID: StationID? = nil) async throws -> PersonView {
        var station = stationID
        if station == nil, person.kind == .user {
            station = try await access.stations(ownedBy: [person.id]).first(where: \.personal)?.id
        }
        return PersonView(person, stationID: station)
    }
}

extension PersonView {
    init(_ person: PersonRecord, stationID: StationID?) {
        self.init(
            id: person.id, kind: person.kind.rawValue, handle: person.handle, displayName: person.displayName,
            stationID: stationID)
    }
}
