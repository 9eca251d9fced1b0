import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// In a cluster any node takes any request: one about a station another
/// node runs (`StationElsewhere`) is sent on to that node's advertised
/// address, and its answer comes back as is. The owner acks a command only
/// once it is saved, so a forwarded ack still means durable; a forward that
/// fails midway is answered 503 (try again), and the command's own id makes
/// the retry apply once.
///
/// Why an HTTP call and not a command table with NOTIFY: the client waits
/// for the owner's answer either way, and this way it needs no new table,
/// no polling and no second idea of a command's outcome. WebSocket
/// upgrades and bodies over `maxBody` are not forwarded (they get the 503
/// as before, and the balancer sends them to the owner).
struct StationForwardingMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let client: HTTPClient
    /// The largest request body this node holds on to so it can send it on.
    let maxBody: Int
    let timeout: TimeAmount

    init(client: HTTPClient = Self.nodes, maxBody: Int = 64 * 1024, timeout: TimeAmount = .seconds(30)) {
        self.client = client
        self.maxBody = maxBody
        self.timeout = timeout
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard Self.mayForward(request, maxBody: maxBody) else { return try await next(request, context) }
        var request = request
        let body = try await request.collectBody(upTo: maxBody)
        do {
            return try await next(request, context)
        } catch let moved as StationElsewhere where !moved.node.address.isEmpty {
            return try await forward(request, body: body, to: moved, context: context)
        }
    }

    /// API requests this node could send on (a station is reached by its
    /// id, a frequency, an invite or a party code): not already forwarded once
    /// (the station moved again meanwhile: the client retries), not a
    /// WebSocket upgrade, and with a body small enough to hold.
    static func mayForward(_ request: Request, maxBody: Int) -> Bool {
        guard request.uri.path.hasPrefix("/api/"), request.headers[.wavelengthForwarded] == nil,
            request.headers[.upgrade] == nil
        else { return false }
        if let length = request.headers[.contentLength] { return Int(length).map { $0 <= maxBody } ?? false }
        // No length: a body only if it is chunked, which isn't held.
        return request.headers[.transferEncoding] == nil
    }

    private func forward(_ request: Request, body: ByteBuffer, to moved: StationElsewhere, context: Context)
        async throws -> Response
    {
        var outbound = HTTPClientRequest(url: moved.node.address + request.uri.description)
        outbound.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers where !Self.hopByHop.contains(field.name) {
            outbound.headers.add(name: field.name.rawName, value: field.value)
        }
        // The owner sees the client's address when it trusts this node as a
        // proxy (--trusted-proxy), as it would behind any other.
        let chain = request.headers[values: .xForwardedFor] + [context.peerAddress]
        outbound.headers.replaceOrAdd(name: HTTPField.Name.xForwardedFor.rawName, value: chain.joined(separator: ", "))
        outbound.headers.replaceOrAdd(name: HTTPField.Name.wavelengthForwarded.rawName, value: "1")
        // The client's Host, not the owner's address: links the owner makes
        // from it (stream links, playlists) must point where the client is.
        if let authority = request.head.authority { outbound.headers.replaceOrAdd(name: "Host", value: authority) }
        if body.readableBytes > 0 { outbound.body = .bytes(body) }
        let answer: HTTPClientResponse
        do {
            answer = try await client.execute(outbound, timeout: timeout)
        } catch {
            context.logger.warning("Could not forward \(request.method) \(request.uri.path) to node \(moved.node.id): \(error)")
            throw APIError.elsewhere("This station's server didn't answer")
        }
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            guard let name = HTTPField.Name(name), !Self.hopByHop.contains(name) else { continue }
            headers.append(HTTPField(name: name, value: value))
        }
        return Response(
            status: HTTPResponse.Status(code: Int(answer.status.code)), headers: headers,
            body: ResponseBody(asyncSequence: answer.body))
    }

    /// The process's client for calls between nodes. A node that doesn't
    /// take the connection is a node that is down: no retrying it until the
    /// deadline, and its redirects are the client's to follow. Process-wide
    /// like `HTTPClient.shared`, so never shut down.
    static let nodes = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: {
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: .seconds(2), read: .seconds(30)))
            configuration.connectionPool.retryConnectionEstablishment = false
            return configuration
        }())

    /// Headers that belong to one connection, never passed on (RFC 9110 §7.6.1).
    static let hopByHop: Set<HTTPField.Name> = [
        .connection, .transferEncoding, .upgrade, .te, .trailer, .proxyAuthorization, .proxyAuthenticate,
        .contentLength, HTTPField.Name("Keep-Alive")!,
    ]
}

extension HTTPField.Name {
    /// Set on a request one node sends on to another, so it is sent on once at most.
    static let wavelengthForwarded = Self("X-Wavelength-Forwarded")!
}
