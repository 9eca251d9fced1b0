import Foundation
import HTTPTypes
import Hummingbird
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Stream keys (what broadcast software sends to go live) and each
/// station's live source as the API shows it.
struct LiveSourceController {
    let directory: StationDirectory
    let keys: any StreamKeyRepository
    let sources: LiveSources
    let server: LiveSourceServer
    let gate: StationGate
    let clock: any ServerClock
    /// The address people reach the server at, when configured: its host
    /// is the one broadcast software is told (a Host header behind a proxy
    /// may name the proxy).
    let publicURL: String?

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/me/stream-key", use: key)
        router.post("/api/me/stream-key", use: newKey)
        router.delete("/api/me/stream-key", use: removeKey)
        router.get("/api/stations/{id}/source", use: source)
        router.get("/admin/metadata", use: metadata)
    }

    /// Icecast's title update, `GET /admin/metadata?mode=updinfo&mount=/live/ID&song=…`
    /// with the source's Basic auth, taken on the main port too, as Icecast
    /// takes it on any of its ports (broadcast software is often given the
    /// server's address, not the source port's). Answered as Icecast answers.
    @Sendable func metadata(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard request.headers[.authorization] != nil else {
            throw APIError(.unauthorized, code: .unauthorized, "Send your stream key as the password (Basic authentication).")
        }
        guard request.uri.description.utf8.count <= 16_384 else {
            throw APIError.badRequest("A title update's address is at most 16,384 bytes.")
        }
        let headers = request.headers.map { (name: $0.name.rawName, value: $0.value) }
        let update: SourceMetadata
        switch SourceRequest.parse(method: "GET", uri: request.uri.description, headers: headers) {
        case .success(.metadata(let parsed)): update = parsed
        case .success(.stream), .failure(.notFound), .failure(.methodNotAllowed), .failure(.unsupportedMediaType):
            throw APIError.notFound("Title updates are /admin/metadata?mode=updinfo&mount=/live/{station}&song=….")
        case .failure(.unauthorized):
            throw APIError(.unauthorized, code: .unauthorized, "Send your stream key as the password (Basic authentication).")
        case .failure(.badRequest(let message)):
            throw APIError.badRequest(message)
        }
        switch await sources.retitle(update, address: context.remoteAddress) {
        case .updated:
            var fields = HTTPFields()
            fields[.contentType] = "text/xml; charset=utf-8"
            return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(string: SourceAnswer.metadataUpdated)))
        case .refused(let status, _, let message):
            let code: ErrorCode = switch status {
            case 401: .unauthorized
            case 403: .forbidden
            case 404: .notFound
            case 429: .rateLimited
            case 400..<500: .badRequest
            default: .internal
            }
            throw APIError(HTTPResponse.Status(code: status), code: code, message)
        case .accepted(let sink):
            sink.finish()  // not asked for: a title update carries no audio
            throw APIError(.internalServerError, code: .internal, "The update could not be taken.")
        }
    }

    @Sendable func key(_ request: Request, context: AppRequestContext) async throws -> StreamKeyView {
        let person = try keyHolder(context)
        return StreamKeyView(
            key: nil, createdAt: try await keys.streamKeyCreated(personID: person.id),
            sourceURL: await sourceURL(request, station: "{station}", key: "KEY"))
    }

    /// A new key, replacing the old one (which stops working at once).
    @Sendable func newKey(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<StreamKeyView> {
        let person = try keyHolder(context)
        let key = Secrets.token(bytes: 18)
        let now = clock.now()
        try await keys.setStreamKey(personID: person.id, hash: Secrets.hash(key), at: now)
        await sources.keyChanged(personID: person.id)
        return EditedResponse(
            status: .created,
            response: StreamKeyView(key: key, createdAt: now, sourceURL: await sourceURL(request, station: "{station}", key: key)))
    }

    @Sendable func removeKey(_ request: Request, context: AppRequestContext) async throws -> Response {
        let person = try keyHolder(context)
        _ = try await keys.removeStreamKey(personID: person.id)
        await sources.keyChanged(personID: person.id)
        return Response(status: .noContent)
    }

    @Sendable func source(_ request: Request, context: AppRequestContext) async throws -> LiveSourceView {
        let hub = try await directory.hub(context)
        let role = try await gate.requireListener(context.caller, on: await hub.record)
        // Where to broadcast is for the people who may: the owner and co-DJs
        // (hosts during their show).
        let url = role >= .codj ? await sourceURL(request, station: hub.id, key: "KEY") : nil
        guard let live = await sources.source(of: hub.id) else { return LiveSourceView(onAir: false, sourceURL: url) }
        return LiveSourceView(
            onAir: true, since: live.since, name: live.request.name, genre: live.request.genre,
            description: live.request.description, audioInfo: live.request.audioInfo, title: live.title,
            listenURL: "/live/\(hub.id).mp3", sourceURL: url)
    }

    private func keyHolder(_ context: AppRequestContext) throws -> PersonRecord {
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in to have a stream key.")
        }
        guard person.kind != .guest else {
            throw APIError(.forbidden, code: .forbidden, "Guests can't go live; make an account first.")
        }
        return person
    }

    private func sourceURL(_ request: Request, station: String, key: String) async -> String? {
        guard let port = await server.bound.port else { return nil }
        var host = publicURL.flatMap { URL(string: $0)?.host } ?? request.head.authority ?? "localhost"
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") { host = String(host[..<colon]) }
        guard host.utf8.count <= 255, !host.contains(where: { $0 == "/" || $0 == "@" || $0.isWhitespace }) else { return nil }
        return "icecast://source:\(key)@\(host):\(port)/live/\(station)"
    }
}
