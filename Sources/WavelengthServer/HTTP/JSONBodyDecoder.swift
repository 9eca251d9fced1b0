import Foundation
import Hummingbird

/// Request bodies are JSON, and must say so. A form or `text/plain` body can
/// be sent cross-site by any page without a preflight, which made login CSRF
/// possible (a JSON body sent as `text/plain` was accepted); requiring
/// `application/json` makes a browser ask first, and this server says no.
struct JSONBodyDecoder: RequestDecoder {
    func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        guard let contentType = request.headers[.contentType].flatMap(MediaType.init(from:)),
            contentType.isType(.applicationJson)
        else {
            throw APIError(
                .unsupportedMediaType, code: .unsupportedMediaType,
                "Send the body as JSON, with the header Content-Type: application/json.")
        }
        return try await JSONDecoder().decode(type, from: request, context: context)
    }
}
