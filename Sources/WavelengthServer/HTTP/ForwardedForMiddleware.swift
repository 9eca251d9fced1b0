import Foundation
import HTTPTypes
import Hummingbird

/// Behind a reverse proxy every request comes from the proxy's address, so
/// every limit keyed by address would lump all clients together. When the
/// peer is one of the configured proxies (`--trusted-proxy`), the client is
/// the rightmost `X-Forwarded-For` address that isn't a trusted proxy too;
/// from anyone else the header is ignored, since any client can send it.
struct ForwardedForMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard trustedProxies.contains(context.remoteAddress) else { return try await next(request, context) }
        var context = context
        context.remoteAddress = Self.client(forwardedFor: request.headers[values: .xForwardedFor], trusted: trustedProxies)
            ?? context.remoteAddress
        return try await next(request, context)
    }

    /// The rightmost address in the chain that isn't a trusted proxy; nil
    /// when there is none. Bounded: a chain longer than 32 hops is cut.
    static func client(forwardedFor values: [String], trusted: Set<String>) -> String? {
        let hops = values.flatMap { $0.split(separator: ",") }.suffix(32)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return hops.reversed().first { !$0.isEmpty && $0.utf8.count <= 64 && !trusted.contains($0) }
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
