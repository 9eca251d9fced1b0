import JWTKit

/// The claims of a bearer access token. It names the session it belongs to,
/// so revoking the session voids its tokens at once.
struct AccessClaims: JWTPayload {
    var sub: SubjectClaim
    var sid: String
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
