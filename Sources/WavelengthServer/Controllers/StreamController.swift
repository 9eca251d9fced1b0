import HTTPTypes
import Hummingbird
import NIOCore
import WavelengthCore
import WavelengthStorage
import WavelengthWire

/// Every station as a radio stream any player can play: `GET
/// /stream/{frequency}.mp3` (or the station's id), with ICY metadata for
/// players that ask (`Icy-MetaData: 1`), and `.m3u` and `.pls` files that
/// point at it.
struct StreamController {
    let directory: StationDirectory
    let streams: StreamDirectory
    let gate: StationGate
    let publicURL: String?

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/stream/{name}", use: stream)
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let name = try context.parameters.require("name")
        guard name.utf8.count <= 64, let dot = name.lastIndex(of: ".") else {
            throw APIError.notFound("Streams are /stream/{frequency}.mp3, .m3u or .pls.")
        }
        let key = String(name[..<dot]), kind = String(name[name.index(after: dot)...])
        let hub: StationHub? = FrequencyDial.isWellFormed(key)
            ? try await directory.hub(frequency: key)
            : try await directory.hub(id: key)
        guard let hub else { throw APIError.notFound("No station is on \(key).") }
        let record = await hub.record
        _ = try await gate.requireListener(context.caller, on: record)
        guard record.visibility == .public || record.visibility == .unlisted else {
            throw APIError(.forbidden, code: .forbidden, "This station's stream is open only when the station is public or unlisted.")
        }
        switch kind {
        case "mp3": return try await listen(to: hub, record: record, request: request, context: context)
        case "m3u", "pls":
            let playlist = StreamPlaylist(name: record.name, url: try streamURL(key: key, request: request))
            var headers = HTTPFields()
            headers[.contentType] = kind == "m3u" ? "audio/x-mpegurl" : "audio/x-scpls"
            headers[.contentDisposition] = "inline; filename=\"\(key).\(kind)\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: kind == "m3u" ? playlist.m3u : playlist.pls)))
        default:
            throw APIError.notFound("Streams are /stream/{frequency}.mp3, .m3u or .pls.")
        }
    }

    private func listen(to hub: StationHub, record: StationRecord, request: Request, context: AppRequestContext) async throws -> Response {
        // A live stream has no byte ranges; "from the start" is what players
        // (Chromium's <audio> among them) ask for first, and is the stream.
        if let range = request.headers[.range], range.trimmingCharacters(in: .whitespaces) != "bytes=0-" {
            throw APIError(.rangeNotSatisfiable, code: .badRequest, "A live stream has no byte ranges; ask without Range.")
        }
        let metaint = request.headers[HTTPField.Name("Icy-MetaData")!] == "1" ? IcyInterleaver.defaultInterval : nil
        guard let slot = streams.reserve(address: context.remoteAddress) else {
            throw APIError(.tooManyRequests, code: .rateLimited, "This address already holds \(StreamDirectory.maxPerAddress) streams.")
        }
        let stream = streams.stream(for: hub)
        // A small kernel send buffer: a player that vanished without closing
        // (no ACKs) makes the writes stall within seconds, not after the
        // megabytes autotuning would grow the buffer to, so it leaves the
        // count in time (`streamStallTimeout`). 128 kbps needs no more.
        _ = try? await context.channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 32 * 1_024).get()
        // One person is one listener on any number of devices; a player
        // with no session is one per address and player.
        let agent = request.headers[.userAgent]
        let identity = context.caller.personID.map(ListenerIdentity.person)
            ?? .player(address: context.remoteAddress, userAgent: agent)
        let kind = ListenerKind.stream(userAgent: agent)
        var headers = HTTPFields()
        headers[.contentType] = "audio/mpeg"
        headers[.cacheControl] = "no-cache, no-store"
        headers[.connection] = "close"
        for (field, value) in [
            ("icy-name", record.name), ("icy-description", "Wavelength station \(record.frequency ?? record.id)"),
            ("icy-genre", "Various"), ("icy-url", publicURL ?? ""), ("icy-br", "\(StreamEncoder.bitrateKbps)"),
            ("icy-pub", record.visibility == .public ? "1" : "0"),
        ] {
            headers[HTTPField.Name(field)!] = Self.headerSafe(value)
        }
        if let metaint { headers[HTTPField.Name("icy-metaint")!] = "\(metaint)" }
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // The slot is given back when this answer is done with, written or not.
            withExtendedLifetime(slot) {}
            let (ticket, joinedAt) = await stream.join(identity, kind: kind)
            // Counted before the first byte goes out, so a player that hears
            // the stream is in the station's count.
            await hub.streamAudience(.arrived(identity, kind))
            var position = joinedAt
            var interleaver = metaint.map { IcyInterleaver(interval: $0) }
            defer { Task { await stream.leave(ticket) } }
            while case .chunks(let buffers, let end, let title) = await stream.next(ticket, after: position) {
                for buffer in buffers {
                    streams.metrics.streamBytes.increment(by: buffer.readableBytes)
                    guard var planner = interleaver else {
                        try await writer.write(buffer)
                        continue
                    }
                    var out: [ByteBuffer] = []
                    for piece in planner.plan(audioBytes: buffer.readableBytes, current: title) {
                        switch piece {
                        case .audio(let range):
                            out.append(buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count)!)
                        case .metadata(let block):
                            out.append(ByteBuffer(bytes: block.bytes))
                        }
                    }
                    interleaver = planner
                    try await writer.write(contentsOf: out)
                }
                position = end
            }
            try await writer.finish(nil)
        })
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
