import Foundation
import Hummingbird
import WavelengthStorage

/// `GET /health` answers 200 once the server is ready, and `GET /openapi.json`
/// describes the HTTP API.
struct HealthController {
    let tracks: any TrackRepository
    let openAPIDocument: Data

    struct Health: ResponseEncodable {
        var status: String
        var tracks: Int
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/health", use: health)
        router.get("/openapi.json", use: openAPI)
    }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Health {
        Health(status: "ok", tracks: try await tracks.trackCount())
    }

    @Sendable func openAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: openAPIDocument)))
    }
}

extension HealthController {
    /// The OpenAPI document bundled with the server.
    static func bundledDocument() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }
}
