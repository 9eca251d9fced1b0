import HTTPTypes
import Hummingbird

/// Headers every answer carries, the error answers too (so it is the
/// outermost middleware).
///
/// The web app has no inline script or style attribute (styles are set
/// through the CSSOM), so its policy can be strict: scripts, styles and
/// everything else from this origin only, no plugins, no framing, no
/// `<base>`. `connect-src 'self'` covers the app's WebSocket on the same host.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var contentSecurityPolicy: String {
        [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
            "media-src 'self' blob:", "connect-src 'self'", "font-src 'self'", "object-src 'none'",
            "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // Errors are answered by the server after the middleware; made
            // into their answer here, they get the headers too.
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "no-referrer"
        // Sign-in answers carry tokens and the CSRF token: never kept by a cache.
        if request.uri.path.hasPrefix("/api/auth/") {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}

/// Paths no file or route has: a NUL or other control character (a file
/// server's C call would stop at the NUL, so `/sw.js%00.html` was served as
/// `sw.js` with the `.html` type), or a leading `//` (the file server's
/// redirect to `//js/` is a protocol-relative link to another host).
struct PathGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let path = request.uri.path
        let decoded = path.removingPercentEncoding ?? path
        if path.hasPrefix("//") || decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw APIError.badRequest("The path has a control character or starts with //.")
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static var xFrameOptions: Self { .init("X-Frame-Options")! }
    static var referrerPolicy: Self { .init("Referrer-Policy")! }
}
