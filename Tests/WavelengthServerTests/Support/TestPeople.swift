import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import WavelengthWire

/// A person the tests act as: a user with their own station, or a guest.
struct TestAccount: Sendable {
    var person: PersonView
    /// The user's own station ("" for guests).
    var stationID: String
    /// A bearer access token.
    var token: String
    var refreshToken: String

    var id: String { person.id }
}

/// Handles unique within a test run.
enum TestHandles {
    private static let counter = Atomic<Int>(0)

    static func next(_ prefix: String = "t") -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return "\(prefix)\(n)_\(UUID().uuidString.prefix(6).lowercased())"
    }
}

extension TestClientProtocol {
    /// Signs up over the API with bearer tokens.
    func signUp(
        _ handle: String = TestHandles.next(), name: String? = nil, password: String = "correct horse", invite: String? = nil
    ) async throws -> TestAccount {
        let request = SignupRequest(
            handle: handle, displayName: name ?? handle, password: password, tokens: true, invite: invite)
        let response = try await send("/api/auth/signup", .post, body: request)
        guard response.status == .created else { throw TestFailure("signup answered \(response.status)") }
        let auth = try response.decode(AuthResponse.self)
        return TestAccount(
            person: auth.person, stationID: auth.station?.id ?? "", token: auth.tokens?.accessToken ?? "",
            refreshToken: auth.tokens?.refreshToken ?? "")
    }

    /// A guest session with bearer tokens.
    func guest(_ name: String) async throws -> TestAccount {
        let response = try await send("/api/auth/guest", .post, body: GuestRequest(displayName: name, tokens: true))
        guard response.status == .created else { throw TestFailure("guest answered \(response.status)") }
        let auth = try response.decode(AuthResponse.self)
        return TestAccount(
            person: auth.person, stationID: "", token: auth.tokens?.accessToken ?? "",
            refreshToken: auth.tokens?.refreshToken ?? "")
    }

    /// A request as `account` (or anonymous), with an optional JSON body.
    @discardableResult
    func send(
        _ uri: String, _ method: HTTPRequest.Method, as account: TestAccount? = nil, body: (any Encodable)? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let account { headers[.authorization] = "Bearer \(account.token)" }
        var buffer: ByteBuffer?
        if let body {
            headers[.contentType] = "application/json"
            buffer = ByteBuffer(bytes: try jsonEncoder.encode(body))
        }
        return try await execute(uri: uri, method: method, headers: headers, body: buffer)
    }

    /// Sends raw bytes (an upload) as `account`.
    func upload(_ uri: String, as account: TestAccount?, bytes: Data, type: String = "audio/webm") async throws
        -> TestResponse
    {
        var headers: HTTPFields = [.contentType: type]
        if let account { headers[.authorization] = "Bearer \(account.token)" }
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
