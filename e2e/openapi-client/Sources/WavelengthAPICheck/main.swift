// A few real calls to a running Wavelength server through the client that
// swift-openapi-generator made from the server's own OpenAPI document
// (openapi.json here is a symlink to Sources/WavelengthServer/openapi.json).
// Each call that answers as the document says prints a line starting "ok
// <operationId>"; the first mismatch prints "FAIL <operationId>: ..." to
// standard error and exits 1.
//
//     swift run --package-path e2e/openapi-client WavelengthAPICheck http://127.0.0.1:8080

import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends `Authorization: Bearer <token>` on every request: the document's
/// `bearerAuth` scheme, which generated clients leave to a middleware.
struct BearerToken: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

struct Mismatch: Error, CustomStringConvertible {
    let operation: String
    let message: String
    var description: String { "\(operation): \(message)" }
}

func expect(_ condition: Bool, _ operation: String, _ message: @autoclosure () -> String) throws {
    if !condition { throw Mismatch(operation: operation, message: message()) }
}

func ok(_ operation: String, _ detail: String) {
    print("ok \(operation): \(detail)")
}

func run(baseURL: URL) async throws {
    let transport = URLSessionTransport()
    let anonymous = Client(serverURL: baseURL, transport: transport)

    // GET /health
    switch try await anonymous.getHealth() {
    case .ok(let answer):
        let health = try answer.body.json
        try expect(health.status == .ok, "getHealth", "status \(health.status)")
        try expect(health.tracks > 0, "getHealth", "the demo library has \(health.tracks) tracks")
        ok("getHealth", "status \(health.status.rawValue), \(health.tracks) tracks")
    case let other:
        throw Mismatch(operation: "getHealth", message: "expected 200, got \(other)")
    }

    // POST /api/auth/signup, asking for bearer tokens
    let suffix = String(UInt32.random(in: 0..<1_000_000_000))
    let handle = "genclient\(suffix)"
    let password = "generated client password"
    let person: Components.Schemas.PersonView
    let ownStation: Components.Schemas.StationView
    switch try await anonymous.signup(body: .json(.init(
        handle: handle, displayName: "Generated Client", password: password, tokens: true))) {
    case .created(let answer):
        let auth = try answer.body.json
        person = auth.person
        try expect(person.kind == .user, "signup", "kind \(person.kind)")
        try expect(person.handle == handle, "signup", "handle \(person.handle ?? "none"), expected \(handle)")
        try expect(auth.tokens != nil, "signup", "no tokens in the answer, though \"tokens\": true was sent")
        try expect(auth.csrfToken == nil, "signup", "a csrfToken came with a token answer")
        guard let station = auth.station?.value1 else {
            throw Mismatch(operation: "signup", message: "no own station in the answer")
        }
        try expect(station.role.value1 == .owner, "signup", "own station's role \(station.role.value1)")
        ownStation = station
        ok("signup", "\(handle) is \(person.id), own station \(station.id)")
    case let other:
        throw Mismatch(operation: "signup", message: "expected 201, got \(other)")
    }

    // POST /api/auth/login with the same handle and password
    let token: String
    switch try await anonymous.login(body: .json(.init(handle: handle, password: password, tokens: true))) {
    case .ok(let answer):
        let auth = try answer.body.json
        try expect(auth.person.id == person.id, "login", "person \(auth.person.id), expected \(person.id)")
        guard let tokens = auth.tokens?.value1 else {
            throw Mismatch(operation: "login", message: "no tokens in the answer")
        }
        try expect(tokens.expiresIn > 0, "login", "expiresIn \(tokens.expiresIn)")
        token = tokens.accessToken
        ok("login", "a bearer token for \(person.id), expires in \(tokens.expiresIn) s")
    case let other:
        throw Mismatch(operation: "login", message: "expected 200, got \(other)")
    }

    let client = Client(serverURL: baseURL, transport: transport, middlewares: [BearerToken(token: token)])

    // GET /api/auth/me with the bearer token
    switch try await client.getMe() {
    case .ok(let answer):
        let me = try answer.body.json
        try expect(me.person?.id == person.id, "getMe", "person \(me.person?.id ?? "none"), expected \(person.id)")
        ok("getMe", "signed in as \(me.person?.handle ?? "?")")
    case let other:
        throw Mismatch(operation: "getMe", message: "expected 200, got \(other)")
    }

    // POST /api/stations
    let name = "Generated client \(suffix)"
    let created: Components.Schemas.StationView
    switch try await client.createStation(body: .json(.init(name: name, visibility: .init(value1: ._public)))) {
    case .created(let answer):
        created = try answer.body.json.station
        try expect(created.name == name, "createStation", "name \(created.name), expected \(name)")
        try expect(created.visibility == ._public, "createStation", "visibility \(created.visibility)")
        try expect(created.role.value1 == .owner, "createStation", "role \(created.role.value1)")
        try expect(created.ownerID == nil || created.ownerID == person.id, "createStation",
                   "ownerID \(created.ownerID ?? "none"), expected \(person.id)")
        try expect(created.id != ownStation.id, "createStation", "the new station has the own station's id")
        ok("createStation", "\(created.id) \"\(created.name)\"")
    case let other:
        throw Mismatch(operation: "createStation", message: "expected 201, got \(other)")
    }

    // GET /api/stations: public stations, the new one among them
    switch try await client.listStations() {
    case .ok(let answer):
        let stations = try answer.body.json
        try expect(stations.contains { $0.id == created.id }, "listStations",
                   "\(created.id) is not among the \(stations.count) stations listed: \(stations.map(\.id))")
        ok("listStations", "\(stations.count) stations, \(created.id) among them")
    case let other:
        throw Mismatch(operation: "listStations", message: "expected 200, got \(other)")
    }

    // GET /api/stations/{id}: the new station read back
    switch try await client.getStation(path: .init(id: created.id)) {
    case .ok(let answer):
        let station = try answer.body.json
        try expect(station.id == created.id && station.name == name && station.visibility == ._public,
                   "getStation", "read back \(station), created \(created)")
        try expect(station.role.value1 == .owner, "getStation", "role \(station.role.value1)")
        ok("getStation", "\(station.id) \"\(station.name)\" read back, \(station.visibility.rawValue)")
    case let other:
        throw Mismatch(operation: "getStation", message: "expected 200, got \(other)")
    }

    // GET /api/stations/{id} for a station that doesn't exist: 404 with the
    // documented error body
    let missing = "s0000000000zz"
    switch try await client.getStation(path: .init(id: missing)) {
    case .notFound(let answer):
        let error = try answer.body.json
        try expect(error.error.code == .notFound, "getStation",
                   "404 code \(error.error.code.rawValue), expected not_found")
        try expect(!error.error.message.isEmpty, "getStation", "404 with an empty message")
        ok("getStation", "404 \(error.error.code.rawValue) for \(missing): \(error.error.message)")
    case let other:
        throw Mismatch(operation: "getStation", message: "expected 404 for \(missing), got \(other)")
    }

    // POST /api/stations with a name of spaces only: 400 invalid_name
    switch try await client.createStation(body: .json(.init(name: "   "))) {
    case .badRequest(let answer):
        let error = try answer.body.json
        try expect(error.error.code == .invalidName, "createStation",
                   "400 code \(error.error.code.rawValue), expected invalid_name")
        ok("createStation", "400 \(error.error.code.rawValue) for a blank name: \(error.error.message)")
    case let other:
        throw Mismatch(operation: "createStation", message: "expected 400 for a blank name, got \(other)")
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2, let baseURL = URL(string: arguments[1]), baseURL.scheme != nil else {
    FileHandle.standardError.write(Data("usage: WavelengthAPICheck <server base URL, e.g. http://127.0.0.1:8080>\n".utf8))
    exit(2)
}
do {
    try await run(baseURL: baseURL)
    print("all calls answered as the OpenAPI document says")
} catch let mismatch as Mismatch {
    FileHandle.standardError.write(Data("FAIL \(mismatch)\n".utf8))
    exit(1)
} catch {
    // A ClientError names the operation, the request and the cause (a body
    // that doesn't decode as the documented schema, a refused connection).
    FileHandle.standardError.write(Data("FAIL \(error)\n".utf8))
    exit(1)
}
