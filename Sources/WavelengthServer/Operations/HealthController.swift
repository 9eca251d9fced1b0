import Foundation
import Hummingbird
import Logging
import WavelengthStore

/// `GET /health` answers 200 once the server is ready and its storage takes
/// writes (503 when it doesn't, or while the server drains at a stop);
/// `GET /health/live` answers 200 while the process serves at all, without
/// asking storage (503 only while it drains); `GET /openapi.json` describes
/// the HTTP API.
///
/// Why two: a balancer that checked `/health` took every node out during a
/// 20 s database blip, and answered 503 to everything, the web app and the
/// streams included. It checks `/health/live` (deploy/haproxy.cfg): the app,
/// the streams and open sockets go on, and writes answer 503 with
/// `Retry-After` until storage returns. `/health` is for monitoring.
struct HealthController {
    let tracks: any TrackRepository
    let storage: any StorageHealth
    let clock: any ServerClock
    let drain: Drain
    let logger: Logger
    let openAPIDocument: Data

    struct Health: ResponseEncodable {
        var status: String
        var tracks: Int
    }

    struct Liveness: ResponseEncodable {
        var status: String
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/health", use: health)
        router.get("/health/live", use: live)
        router.get("/openapi.json", use: openAPI)
    }

    @Sendable func live(_ request: Request, context: AppRequestContext) async throws -> Liveness {
        try refuseWhileDraining()
        return Liveness(status: "ok")
    }

    private func refuseWhileDraining() throws {
        guard !drain.isDraining else {
            throw APIError(
                .serviceUnavailable, code: .serviceUnavailable, "This node is stopping; its stations move to another node.")
        }
    }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Health {
        try refuseWhileDraining()
        // Reads alone would say "ok" while every save fails (read-only or
        // full storage): a health check writes.
        do {
            try await storage.probeWrite(at: clock.now())
        } catch {
            logger.error("Health check: storage refused a write: \(error)")
            throw APIError(
                .serviceUnavailable, code: .serviceUnavailable,
                "Storage refuses writes (read-only, full or gone): nothing can be saved.")
        }
        return Health(status: "ok", tracks: try await tracks.trackCount())
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
