import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Every station as a radio stream any player can play: `GET
/// /stream/{frequency}.mp3` (or the station's id), with ICY metadata for
/// players that ask (`Icy-MetaData: 1`), and `.m3u` and `.pls` files that
/// point at it.
struct StreamController {
    let directory: StationDirectory
    let streams: StreamDirectory
    let gate: StationGate
    let links: LinkTokens
    let clock: any ServerClock
    let publicURL: String?
    let sources: LiveSources
    /// Where listeners are said goodbye when the server stops.
    let sockets: LiveSockets

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/stream/{name}", use: stream)
        router.get("/live/{name}", use: live)
        router.post("/api/stations/{id}/stream-link", use: issueLink)
        router.delete("/api/stations/{id}/stream-link", use: revokeLink)
    }

    /// The caller's link to the station's stream. A public or unlisted
    /// station needs no token; any other gets the caller's own token (a new
    /// one replaces the old), which lets in a player that can't send headers
    /// for as long as the caller may listen and until it is revoked.
    @Sendable func issueLink(_ request: Request, context: AppRequestContext) async throws -> StreamLink {
        let hub = try await directory.hub(context)
        let record = await hub.record
        _ = try await gate.requireListener(context.caller, on: record)
        guard let person = context.caller.person else {
            throw APIError(.unauthorized, code: .signInRequired, "Sign in, or join as a guest, to get a stream link.")
        }
        // By id, never frequency: a quiet station can give its frequency
        // back, and an address saved in a player must keep working.
        if record.visibility == .public || record.visibility == .unlisted {
            return try link(key: record.id, token: nil, request: request)
        }
        // One link a person: a new one replaces the old.
        let token = try await links.issue(.stream, stationID: record.id, personID: person.id, keep: 1, at: clock.now())
        return try link(key: record.id, token: token, request: request)
    }

    @Sendable func revokeLink(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let hub = try await directory.hub(context)
        try await links.revokeAll(.stream, on: hub.id, for: context.caller, noun: "stream link")
        return .noContent
    }

    private func link(key: String, token: String?, request: Request) throws -> StreamLink {
        let base = try streamURL(key: key, request: request).dropLast(".mp3".count)
        let query = token.map { "?token=\($0)" } ?? ""
        return StreamLink(mp3: "\(base).mp3\(query)", m3u: "\(base).m3u\(query)", pls: "\(base).pls\(query)", token: token)
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let name = try context.parameters.require("name")
        guard name.utf8.count <= 64, let dot = name.lastIndex(of: ".") else {
            throw APIError.notFound("Streams are /stream/{frequency}.mp3, .m3u or .pls.")
        }
        let key = String(name[..<dot]), kind = String(name[name.index(after: dot)...])
        let hub: StationHub?
        do {
            hub = FrequencyDial.isWellFormed(key) ? try await directory.hub(frequency: key) : try await directory.hub(id: key)
        } catch let elsewhere as StationElsewhere where elsewhere.stationID != key {
            // Tuned by frequency, on a node that doesn't run the station: to
            // its stable address, which a load balancer sends to the node
            // that does (deploy/haproxy.cfg hashes on the station id).
            let query = request.uri.query.map { "?\($0)" } ?? ""
            return Response(
                status: .temporaryRedirect, headers: [.location: "/stream/\(elsewhere.stationID).\(kind)\(query)"])
        }
        guard let hub else { throw APIError.notFound("No station is on \(key).") }
        let record = await hub.record
        // A token in the URL stands for its holder, who must still be
        // allowed to listen (a kick or a ban closes their link too).
        var caller = context.caller
        let token = try request.stringQuery("token", maxLength: 100)
        if let token {
            guard let holder = try await links.caller(token, .stream, on: record.id) else {
                throw APIError(.forbidden, code: .forbidden, "This stream link was revoked, or is for another station.")
            }
            caller = holder
        }
        _ = try await gate.requireListener(caller, on: record)
        guard token != nil || record.visibility == .public || record.visibility == .unlisted else {
            throw APIError(
                .forbidden, code: .forbidden,
                "This station's stream needs a stream link: POST /api/stations/\(record.id)/stream-link gives you yours.")
        }
        switch kind {
        case "mp3":
            let streams = self.streams
            return try await listen(
                to: hub, stream: { streams.stream(for: hub) }, record: record, caller: caller, request: request,
                context: context)
        case "m3u", "pls":
            let url = try streamURL(key: key, request: request) + (token.map { "?token=\($0)" } ?? "")
            let playlist = StreamPlaylist(name: record.name, url: url)
            var headers = HTTPFields()
            headers[.contentType] = kind == "m3u" ? "audio/x-mpegurl" : "audio/x-scpls"
            headers[.contentDisposition] = "inline; filename=\"\(key).\(kind)\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: kind == "m3u" ? playlist.m3u : playlist.pls)))
        default:
            throw APIError.notFound("Streams are /stream/{frequency}.mp3, .m3u or .pls.")
        }
    }

    /// A live source as it arrives, relayed to any player: `GET
    /// /live/{station}.mp3`, while the station has a source on the air;
    /// `?edge=1` starts near the live edge (a small burst), as the app does.
    @Sendable func live(_ request: Request, context: AppRequestContext) async throws -> Response {
        let name = try context.parameters.require("name")
        guard name.hasSuffix(".mp3"), name.utf8.count <= 68 else {
            throw APIError.notFound("Live relays are /live/{station}.mp3.")
        }
        guard let hub = try await directory.hub(id: String(name.dropLast(4))) else {
            throw APIError.notFound("No station with id \(name.dropLast(4)).")
        }
        let record = await hub.record
        _ = try await gate.requireListener(context.caller, on: record)
        guard let source = await sources.source(of: hub.id) else {
            throw APIError.notFound("\(record.name) has no live source on the air now.")
        }
        // Described as the broadcast software described it.
        let bitrate = source.request.audioInfo.flatMap(StatusController.bitrate)
        let edge = try request.stringQuery("edge", maxLength: 1) == "1"
        return try await listen(
            to: hub, stream: { source.relay }, record: record, caller: context.caller, request: request, context: context,
            burst: edge ? StationStream.edgeBurst : StationStream.burst,
            icy: IcyHeaders(
                name: source.request.name ?? record.name, description: source.request.description ?? "Live on \(record.name)",
                genre: source.request.genre ?? "Various", bitrate: bitrate.map(String.init) ?? "",
                audioInfo: source.request.audioInfo ?? "",
                url: source.request.url.flatMap { $0.hasPrefix("http://") || $0.hasPrefix("https://") ? $0 : nil }))
    }

    /// What a stream says of itself in its `icy-*` headers.
    struct IcyHeaders {
        var name: String
        var description: String
        var genre: String
        var bitrate: String
        /// `channels=2;samplerate=44100;bitrate=128`, as Icecast passes it on.
        var audioInfo: String
        /// The show's own page, when its software names one (`ice-url`).
        var url: String? = nil
    }

    /// The station's page in the web app: what `icy-url` points players at.
    private func stationPage(_ record: StationRecord, request: Request) -> String {
        let base = publicURL ?? "http://\(StatusController.safeHost(request.head.authority))"
        return "\(base)/#/station/\(record.id)"
    }

    private func listen(
        to hub: StationHub, stream streamOf: @escaping @Sendable () -> StationStream, record: StationRecord, caller: Caller, request: Request,
        context: AppRequestContext, burst: Int = StationStream.burst, icy: IcyHeaders? = nil
    ) async throws -> Response {
        // A live stream has no byte ranges; "from the start" is what players
        // (Chromium's <audio> among them) ask for first, and is the stream.
        if let range = request.headers[.range], range.trimmingCharacters(in: .whitespaces) != "bytes=0-" {
            throw APIError(.rangeNotSatisfiable, code: .badRequest, "A live stream has no byte ranges; ask without Range.")
        }
        let metaint = request.headers[HTTPField.Name("Icy-MetaData")!] == "1" ? IcyInterleaver.defaultInterval : nil
        // `?listener=`: the device key of a signed-out listener (see below).
        let device = request.uri.queryParameters["listener"].map { DeviceKey(String($0)) }
        if case .some(.none) = device {
            throw APIError.badRequest(LiveController.badDeviceKey)
        }
        guard let slot = streams.reserve(address: context.remoteAddress) else {
            throw APIError(.tooManyRequests, code: .rateLimited, "This address already holds \(StreamDirectory.maxPerAddress) streams.")
        }
        // A small kernel send buffer: a player that vanished without closing
        // (no ACKs) makes the writes stall within seconds, not after the
        // megabytes autotuning would grow the buffer to, so it leaves the
        // count in time (`streamStallTimeout`). 128 kbps needs no more.
        _ = try? await context.channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 32 * 1_024).get()
        // One person is one listener on any number of devices; a player
        // with no session is the device whose key it passes (the web app's
        // live relay, with its app connection), else one per address and
        // player.
        let agent = request.headers[.userAgent]
        let identity = caller.personID.map(ListenerIdentity.person)
            ?? device?.map { ListenerIdentity.device($0, address: context.remoteAddress) }
            ?? .player(address: context.remoteAddress, userAgent: agent)
        let kind = ListenerKind.stream(userAgent: agent)
        // The answer Icecast 2.4 gives a listener, header for header, in
        // HTTP/1.0 with the audio unframed (`IcecastFraming`).
        var headers = HTTPFields()
        headers[IcecastFraming.streamFraming] = "1"
        // Some players and widgets look for Icecast here before they trust
        // the ICY titles; `/status-json.xsl` names the server the same way.
        headers[.server] = StatusController.serverID
        headers[.contentType] = "audio/mpeg"
        headers[.cacheControl] = "no-cache, no-store"
        headers[HTTPField.Name("Pragma")!] = "no-cache"
        headers[.expires] = "Mon, 26 Jul 1997 05:00:00 GMT"
        headers[.connection] = "close"
        let icy = icy ?? IcyHeaders(
            name: record.name, description: "Wavelength station \(record.frequency ?? record.id)", genre: "Various",
            bitrate: "\(StreamEncoder.bitrateKbps)", audioInfo: StreamEncoder.audioInfo)
        for (field, value) in [
            ("icy-name", icy.name), ("icy-description", icy.description),
            ("icy-genre", icy.genre), ("icy-url", icy.url ?? stationPage(record, request: request)), ("icy-br", icy.bitrate),
            ("icy-pub", record.visibility == .public ? "1" : "0"), ("icy-metadata", "1"), ("ice-audio-info", icy.audioInfo),
        ] where !value.isEmpty {
            headers[HTTPField.Name(field)!] = Self.headerSafe(value)
        }
        if let metaint { headers[HTTPField.Name("icy-metaint")!] = "\(metaint)" }
        let sockets = self.sockets
        let metrics = streams.metrics
        /// Joins the stream: who listens, from where; thrown when the stream can't be had.
        @Sendable func join(on loop: any EventLoop) async throws -> StreamListenerHandler.Listening {
            // A station's stream retires when it stops for want of listeners:
            // one that did since it was asked for is asked for again (a new
            // stream can't retire before someone joined it).
            var found: (stream: StationStream, joined: StationStream.Joined)?
            for _ in 0..<3 where found == nil {
                let stream = streamOf()
                found = await stream.join(identity, kind: kind, burst: burst, on: loop).map { (stream, $0) }
            }
            guard let (stream, joined) = found else {
                throw APIError(.serviceUnavailable, code: .serviceUnavailable, "The stream is restarting; try again.")
            }
            // Counted before the first byte goes out, so a player that hears
            // the stream is in the station's count.
            await hub.streamAudience(.arrived(identity, kind))
            return StreamListenerHandler.Listening(
                stream: stream, ticket: joined.ticket, position: joined.position, ring: stream.ring, fanout: joined.fanout,
                metaint: metaint, metrics: metrics, pacing: stream.pacing, slot: slot)
        }
        /// The listener's handler goes first in the connection's pipeline
        /// and writes the audio from there; on the connection's loop, after the head.
        @Sendable func install(_ listening: StreamListenerHandler.Listening, on channel: any Channel) throws {
            do {
                try channel.pipeline.syncOperations.addHandler(StreamListenerHandler(listening), position: .first)
                sockets.add(channel)
            } catch {
                Task { await listening.stream.leave(listening.ticket) }
                throw error
            }
        }
        guard context.liveUpgrade.takesStream else {
            // A connection that served other requests first (a browser's
            // `<audio>` reuses one): the same handler writes the audio, but
            // the connection's task waits until it closes. Joined only once
            // the head is out, so an answer never written counts nobody.
            let channel = context.channel
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                let listening = try await join(on: channel.eventLoop)
                try await channel.eventLoop.submit { try install(listening, on: channel) }.get()
                try? await channel.closeFuture.get()
                try? await writer.finish(nil)
            })
        }
        // Once the head is written, the connection leaves the HTTP layer
        // and lives in its listener handler, with no task (`StreamConnection`).
        let listening = try await join(on: context.channel.eventLoop)
        context.liveUpgrade.claim { channel in try install(listening, on: channel) }
        return Response(status: .ok, headers: headers)
    }

    /// Header values are the owner's words: control characters (a line
    /// break would end the header) are left out; UTF-8 goes as it is, as
    /// Icecast sends it.
    static func headerSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200)))
    }

    private func streamURL(key: String, request: Request) throws -> String {
        if let publicURL { return "\(publicURL)/stream/\(key).mp3" }
        let host = request.head.authority ?? "localhost"
        guard host.utf8.count <= 255, !host.contains(where: { $0 == "/" || $0 == "#" || $0.isWhitespace }) else {
            throw APIError.badRequest("The Host header is not usable in a link.")
        }
        return "http://\(host)/stream/\(key).mp3"
    }
}
