import Crypto
import Foundation
import HummingbirdBcrypt
import JWTKit
import NIOPosix
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Passwords, sessions, access tokens and CSRF tokens.
///
/// Browsers hold a session secret in an HttpOnly cookie; SDKs hold a
/// refresh token and short-lived JWTs that name their session. Either way
/// the session row is checked on every request, so logging out or changing
/// the password cuts a session off at once.
struct AuthService: Sendable {
    static let accessTokenLifetime: Int64 = 15 * 60 * 1000
    static let sessionLifetime: Int64 = 30 * 24 * 3600 * 1000

    let people: any PeopleRepository & OperatorRepository
    let clock: any ServerClock
    let bcryptCost: UInt8
    private let keys: JWTKeyCollection
    /// The newest key, which signs; the others only verify.
    private let signingKeyID: JWKIdentifier
    private let csrfKey: SymmetricKey
    /// A real bcrypt hash to check against when the handle is unknown, so a
    /// wrong handle takes as long as a wrong password.
    private let decoyHash: String
    /// bcrypt's slots, shared fairly between addresses.
    private let passwordWork = PasswordWork()

    static func make(
        people: any PeopleRepository & OperatorRepository, signingKeys: SigningKeys, clock: any ServerClock, bcryptCost: UInt8
    ) async throws -> AuthService {
        let keys = JWTKeyCollection()
        // Oldest first: the first key added is also the one that checks a
        // token without a `kid` (one from before keys had ids).
        for key in signingKeys.jwt {
            await keys.add(
                hmac: HMACKey(key: SymmetricKey(data: key.secret)), digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.id))
        }
        let csrf = signingKeys.csrf
        let decoy = try await Self.runSlow { Bcrypt.hash(Secrets.token(), cost: bcryptCost) }
        return AuthService(
            people: people, clock: clock, bcryptCost: bcryptCost, keys: keys, signingKeyID: signingKeys.signing.id,
            csrfKey: SymmetricKey(data: csrf), decoyHash: decoy)
    }

    private init(
        people: any PeopleRepository & OperatorRepository, clock: any ServerClock, bcryptCost: UInt8, keys: JWTKeyCollection,
        signingKeyID: String, csrfKey: SymmetricKey, decoyHash: String
    ) {
        self.people = people
        self.clock = clock
        self.bcryptCost = bcryptCost
        self.keys = keys
        self.signingKeyID = JWKIdentifier(string: signingKeyID)
        self.csrfKey = csrfKey
        self.decoyHash = decoyHash
    }

    // MARK: Passwords

    /// Hashes a new password, in `address`'s turn for the bcrypt slots.
    func hashPassword(_ password: String, for address: String) async throws -> String {
        let cost = bcryptCost
        return try await passwordWork.run(for: address) { Bcrypt.hash(password, cost: cost) }
    }

    /// Checks a password; with no hash (unknown handle, or a guest) it still
    /// spends the time of one bcrypt check and answers false.
    func verifyPassword(_ password: String, hash: String?, for address: String) async throws -> Bool {
        let decoy = decoyHash
        return try await passwordWork.run(for: address) {
            let matches = Bcrypt.verify(password, hash: hash ?? decoy)
            return hash != nil && matches
        }
    }

    /// bcrypt is slow on purpose; keep it off the event loops and tasks.
    private static func runSlow<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(work)
    }

    // MARK: Sessions

    /// Opens a session and returns it with its secret (shown this once).
    func openSession(for person: PersonRecord, kind: SessionKind) async throws -> (SessionRecord, secret: String) {
        let secret = Secrets.token()
        let now = clock.now()
        let session = SessionRecord(
            id: Secrets.id("ses"), tokenHash: Secrets.hash(secret), personID: person.id, kind: kind, createdAt: now,
            expiresAt: now + Self.sessionLifetime)
        try await people.insertSession(session)
        return (session, secret)
    }

    func tokens(for session: SessionRecord, refreshToken: String) async throws -> TokenPair {
        let now = Date(timeIntervalSince1970: Double(clock.now()) / 1000)
        let claims = AccessClaims(
            sub: SubjectClaim(value: session.personID), sid: session.id, iat: IssuedAtClaim(value: now),
            exp: ExpirationClaim(value: now.addingTimeInterval(Double(Self.accessTokenLifetime) / 1000)))
        return TokenPair(
            accessToken: try await keys.sign(claims, kid: signingKeyID), refreshToken: refreshToken,
            expiresIn: Int(Self.accessTokenLifetime / 1000))
    }

    /// Swaps a refresh token for a new one and a fresh access token. The old
    /// refresh token stops working. One used again after its rotation was
    /// copied: whoever holds the newer one may be the thief, so the session
    /// ends, and every token of it with it (OAuth 2.0 Security BCP §4.14).
    func refresh(_ refreshToken: String) async throws -> TokenPair? {
        guard refreshToken.utf8.count <= PeopleLimits.maxTokenLength else { return nil }
        let hash = Secrets.hash(refreshToken)
        guard let session = try await people.session(tokenHash: hash) else {
            if let stolen = try await people.session(previousTokenHash: hash), stolen.isValid(at: clock.now()) {
                try await people.revokeSession(id: stolen.id, at: clock.now())
            }
            return nil
        }
        guard session.kind == .bearer, session.isValid(at: clock.now()) else { return nil }
        let next = Secrets.token()
        let now = clock.now()
        guard
            try await people.rotateSession(
                id: session.id, from: session.tokenHash, to: Secrets.hash(next), expiresAt: now + Self.sessionLifetime,
                at: now)
        else { return nil }
        return try await tokens(for: session, refreshToken: next)
    }

    // MARK: Who is asking

    // A token that doesn't verify, or a session that is gone, is nobody
    // (nil: 401 where one is needed). Storage failing to answer is thrown:
    // an outage is a 503 to try again, never a signed-out client.

    func caller(bearer token: String) async throws -> Caller? {
        guard token.utf8.count <= 4096, let claims = try? await keys.verify(token, as: AccessClaims.self) else {
            return nil
        }
        return try await caller(sessionID: claims.sid, personID: claims.sub.value, viaCookie: false)
    }

    func caller(cookie secret: String) async throws -> Caller? {
        guard secret.utf8.count <= PeopleLimits.maxTokenLength,
            let session = try await people.session(tokenHash: Secrets.hash(secret)), session.kind == .cookie
        else { return nil }
        return try await caller(sessionID: session.id, personID: session.personID, viaCookie: true, loaded: session)
    }

    private func caller(sessionID: String, personID: String, viaCookie: Bool, loaded: SessionRecord? = nil) async throws
        -> Caller?
    {
        var session = loaded
        if session == nil { session = try await people.session(id: sessionID) }
        guard let session, session.personID == personID, session.isValid(at: clock.now()),
            let person = try await people.person(id: personID)
        else { return nil }
        // A suspension revokes the sessions too; this also covers one made
        // in the moment between.
        let standing = try await people.standing(personID: personID)
        guard standing?.isSuspended != true else { return nil }
        return Caller(
            person: person, sessionID: session.id, viaCookie: viaCookie, isAdministrator: standing?.isAdministrator == true)
    }

    // MARK: CSRF

    /// The CSRF token of a cookie session: an HMAC of its id, so it needs no
    /// storage and can't be made without the server's key.
    func csrfToken(sessionID: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(("csrf:" + sessionID).utf8), using: csrfKey)
        return Data(mac).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    func checkCSRF(_ given: String?, sessionID: String) -> Bool {
        guard let given, given.utf8.count <= 128 else { return false }
        return ConstantTime.equal(given, csrfToken(sessionID: sessionID))
    }
}
