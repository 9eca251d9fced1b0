import Foundation
import HTTPTypes
import Hummingbird
import WavelengthWire

/// The API's paths and their methods, read from the OpenAPI document (which a
/// test keeps equal to the router's routes).
struct APIPaths: Sendable {
    private struct Template: Sendable {
        /// Literal segments, or nil for a `{parameter}`.
        var segments: [String?]
        var methods: Set<String>
    }
    private let templates: [Template]

    init(openAPIDocument: Data) throws {
        let root = try JSONSerialization.jsonObject(with: openAPIDocument) as? [String: Any]
        let paths = root?["paths"] as? [String: Any] ?? [:]
        templates = paths.map { path, item in
            let methods = (item as? [String: Any] ?? [:]).keys.map { $0.uppercased() }
            return Template(
                segments: path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) },
                methods: Set(methods).intersection(Self.methodNames))
        }
    }

    /// The methods the API has on `path`, or nil when it has no such path.
    func methods(for path: String) -> Set<String>? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var found: Set<String>?
        for template in templates where template.segments.count == segments.count {
            let matches = zip(template.segments, segments).allSatisfy { literal, segment in
                literal.map { $0 == segment } ?? !segment.isEmpty
            }
            if matches { found = (found ?? []).union(template.methods) }
        }
        return found
    }

    private static let methodNames: Set<String> = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]
}

/// Answers 405 `method_not_allowed`, with `Allow`, for a method the API
/// doesn't have on one of its paths; the router alone would say 404, as if
/// the path didn't exist.
///
/// Decided before the request goes on, from the document alone: the routes
/// are the document's (a test keeps them equal), so a path's documented
/// methods are all it takes, and a route's own 404 ("no station with this
/// id") comes from a documented method, which passes.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let paths: APIPaths

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Before anything else reads the request: a method the path doesn't
        // take is 405 whoever asks, not 401 for a token it never looks at.
        try refuseUndocumentedMethod(request)
        return try await next(request, context)
    }

    private func refuseUndocumentedMethod(_ request: Request) throws {
        guard let allowed = paths.methods(for: request.uri.path), !allowed.contains(request.method.rawValue) else { return }
        var refusal = APIError(
            .methodNotAllowed, code: .methodNotAllowed,
            "\(request.method.rawValue) is not a method of \(request.uri.path); it takes \(allowed.sorted().joined(separator: ", ")).")
        refusal.headers[.allow] = allowed.sorted().joined(separator: ", ")
        throw refusal
    }
}
