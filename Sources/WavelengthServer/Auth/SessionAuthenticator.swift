import WavelengthWire
import Hummingbird
import HummingbirdAuth
import HTTPTypes

/// Finds the caller from `Authorization: Bearer <jwt>` or the session
/// cookie, and holds cookie sessions to the CSRF rule: a state-changing
/// request must echo the session's CSRF token in `X-CSRF-Token`.
struct SessionAuthenticator: AuthenticatorMiddleware {
    typealias Context = AppRequestContext
    static let sessionCookie = "wl_session"
    static let csrfCookie = "wl_csrf"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!

    let auth: AuthService

    func authenticate(request: Request, context: Context) async throws -> Caller? {
        // A scraper's bearer is the metrics token, which `/metrics` checks;
        // it is nobody's session.
        if request.uri.path == "/metrics" { return nil }
        if let bearer = request.headers.bearer {
            guard let caller = try await auth.caller(bearer: bearer.token) else {
                throw APIError(.unauthorized, code: .invalidToken, "The access token is invalid or has expired.")
            }
            return caller
        }
        guard let secret = request.cookies[Self.sessionCookie]?.value, !secret.isEmpty,
            let caller = try await auth.caller(cookie: secret), let sessionID = caller.sessionID
        else { return nil }
        if Self.changesState(request.method), !auth.checkCSRF(request.headers[Self.csrfHeader], sessionID: sessionID) {
            throw APIError(.forbidden, code: .csrf, "This request needs the X-CSRF-Token header of your session.")
        }
        if request.headers[.upgrade] != nil, !Self.sameOrigin(request) {
            // Cross-site WebSocket hijacking: another site's page can open a
            // socket with our cookie attached, but not with our identity.
            return nil
        }
        return caller
    }

    static func changesState(_ method: HTTPRequest.Method) -> Bool {
        switch method {
        case .get, .head, .options: false
        default: true
        }
    }

    /// Whether a browser request's Origin is this server.
    static func sameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        guard let host = request.head.authority else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}
