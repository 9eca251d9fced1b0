import Hummingbird
import NIOCore
import WavelengthCore

/// `GET /metrics` for Prometheus: listeners per station and kind, stream
/// encoders running, stream bytes out, commands, dropped listeners.
///
/// Station ids and counts are not for everyone: the page answers a scraper
/// on this machine (loopback, as with a local Prometheus or an SSH tunnel),
/// or one that sends `Authorization: Bearer` with the configured metrics
/// token; anyone else gets 403.
struct MetricsController {
    let metrics: ServerMetrics
    let directory: StationDirectory
    let streams: StreamDirectory
    let token: String?

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/metrics", use: page)
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard Self.isLoopback(context.peerAddress) && context.remoteAddress == context.peerAddress
            || token.map({ request.headers[.authorization] == "Bearer \($0)" }) == true
        else {
            throw APIError(.forbidden, code: .forbidden, "Metrics are served to this machine, or with the metrics token.")
        }
        var encoding = 0
        for stream in streams.all.values where await stream.isEncoding { encoding += 1 }
        metrics.refresh(audiences: await directory.audiences(), encodersRunning: encoding)
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: metrics.page())))
    }

    static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
    }
}
