import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WavelengthWire

/// Signs a person in for the SDK and keeps a fresh access token.
///
/// Access tokens live 15 minutes; `accessToken()` swaps the refresh token
/// for a new pair shortly before that, so a `StationClient` given
/// `{ await account.accessToken() }` reconnects with a valid one.
public actor AccountClient {
    public enum Failure: Error, Sendable, Equatable {
        /// The server refused: its error code and message.
        case refused(status: Int, code: String, message: String)
        case signedOut
        /// The sign-up was kept, and waits for the server's administrators:
        /// sign in once they have approved it.
        case awaitingApproval(message: String)
    }

    public let serverURL: String
    public private(set) var person: PersonView?
    public private(set) var station: StationView?
    private var tokens: TokenPair?
    private var expiresAt: Date = .distantPast
    private let http: HTTPClient
    /// Refresh this long before the access token expires.
    private let margin: TimeInterval = 60

    public init(serverURL: String, http: HTTPClient = .shared) {
        self.serverURL = serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL
        self.http = http
    }

    @discardableResult
    public func signUp(handle: String, displayName: String, password: String, invite: String? = nil) async throws -> PersonView {
        let answer: SignupAnswer = try await post(
            "/api/auth/signup",
            SignupRequest(handle: handle, displayName: displayName, password: password, tokens: true, invite: invite),
            token: nil)
        switch answer {
        case .waiting(let waiting): throw Failure.awaitingApproval(message: waiting.message)
        case .account(let account): return try adopt(account)
        }
    }

    /// A sign-up's answer: an account (201) or a place on the waiting list (202).
    private enum SignupAnswer: Decodable {
        case account(AuthResponse)
        case waiting(SignupWaitingResponse)

        init(from decoder: any Decoder) throws {
            if let waiting = try? SignupWaitingResponse(from: decoder), waiting.awaitingApproval {
                self = .waiting(waiting)
            } else {
                self = .account(try AuthResponse(from: decoder))
            }
        }
    }

    @discardableResult
    public func logIn(handle: String, password: String) async throws -> PersonView {
        try await start("/api/auth/login", LoginRequest(handle: handle, password: password, tokens: true))
    }

    @discardableResult
    public func joinAsGuest(displayName: String) async throws -> PersonView {
        try await start("/api/auth/guest", GuestRequest(displayName: displayName, tokens: true))
    }

    /// A valid access token, refreshed when it is about to expire; nil when signed out.
    public func accessToken() async -> String? {
        guard let tokens else { return nil }
        if Date().addingTimeInterval(margin) < expiresAt { return tokens.accessToken }
        do {
            let refreshed: RefreshResponse = try await post(
                "/api/auth/refresh", RefreshRequest(refreshToken: tokens.refreshToken), token: nil)
            accept(refreshed.tokens)
            return refreshed.tokens.accessToken
        } catch {
            self.tokens = nil
            return nil
        }
    }

    /// Ends the session on the server; its tokens stop working at once.
    public func logOut() async throws {
        guard let token = tokens?.accessToken else { return }
        var request = HTTPClientRequest(url: serverURL + "/api/auth/logout")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        _ = try await http.execute(request, timeout: .seconds(30))
        tokens = nil
        person = nil
    }

    // MARK: Plumbing

    private func start(_ path: String, _ body: some Encodable & Sendable) async throws -> PersonView {
        try adopt(try await post(path, body, token: nil))
    }

    private func adopt(_ answer: AuthResponse) throws -> PersonView {
        guard let pair = answer.tokens else { throw Failure.signedOut }
        accept(pair)
        person = answer.person
        station = answer.station
        return answer.person
    }

    private func accept(_ pair: TokenPair) {
        tokens = pair
        expiresAt = Date().addingTimeInterval(TimeInterval(pair.expiresIn))
    }

    /// Any API call as this person (signed out: as nobody): `GET` without a
    /// body, or `POST`, `PUT`, `PATCH` with one; answers the decoded JSON or
    /// throws `Failure.refused` with the server's code and message.
    public func call<Answer: Decodable>(_ method: String, _ path: String, body: (some Encodable & Sendable)? = nil as String?)
        async throws -> Answer
    {
        try await send(HTTPMethod(rawValue: method), path, body, token: await accessToken())
    }

    private func post<Answer: Decodable>(_ path: String, _ body: some Encodable & Sendable, token: String?) async throws
        -> Answer
    {
        try await send(.POST, path, body, token: token)
    }

    private func send<Answer: Decodable>(
        _ method: HTTPMethod, _ path: String, _ body: (some Encodable & Sendable)?, token: String?
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: serverURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        let data = Data(buffer.readableBytesView)
        guard (200..<300).contains(Int(response.status.code)) else {
            let error = try? JSONDecoder().decode(ErrorBody.self, from: data)
            throw Failure.refused(
                status: Int(response.status.code), code: error?.error.code ?? "http_\(response.status.code)",
                message: error?.error.message ?? "The server answered \(response.status.code).")
        }
        return try JSONDecoder().decode(Answer.self, from: data)
    }
}
