import Foundation
import Hummingbird
import WavelengthCore
import WavelengthSQLite
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
