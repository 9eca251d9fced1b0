import Foundation
import Hummingbird
import WavelengthCore
import WavelengthWire

/// `GET /status-json.xsl`, Icecast 2.4's status in its own shape, so
/// now-playing widgets and AzuraCast's Icecast adapter read this server
/// unchanged. One source per public station whose stream is running (as
/// Icecast lists only mounts with a source); `?mount=/stream/107.3.mp3`
/// narrows it to one, which also finds an unlisted station's.
///
/// `listeners` is the station's one honest count, app and stream together
/// (the number a widget shows as "listening now"), not the stream's
/// connections alone. A station with a live source on the air lists its
/// `/live/{station}.mp3` mount too, described as the broadcast software
/// described it.
///
/// Mounts are named by station id, as stream links are: a quiet station
/// can give its frequency back, and a widget's saved mount must keep
/// working. `?mount=` also takes the frequency's path.
struct StatusController {
    let directory: StationDirectory
    let streams: StreamDirectory
    let sources: LiveSources
    let clock: any ServerClock
    let publicURL: String?
    let serverStart: Date

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/status-json.xsl", use: status)
    }

    /// What the server calls itself to Icecast's readers.
    static let serverID = "Icecast 2.4.4 (Wavelength)"

    /// `bitrate=128` out of `ice-audio-info`.
    static func bitrate(_ audioInfo: String) -> Int? { number("bitrate", in: audioInfo) }

    /// One `name=value` number out of `ice-audio-info`
    /// (`channels=2;samplerate=44100;bitrate=128`).
    static func number(_ name: String, in audioInfo: String) -> Int? {
        audioInfo.split(separator: ";").lazy.compactMap { field -> Int? in
            let parts = field.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0].trimmingCharacters(in: .whitespaces).lowercased() == name
                ? Int(parts[1].trimmingCharacters(in: .whitespaces)) : nil
        }.first
    }

    @Sendable func status(_ request: Request, context: AppRequestContext) async throws -> Response {
        let mount = try request.stringQuery("mount", maxLength: 100)
        let host = publicURL ?? "http://\(Self.safeHost(request.head.authority))"
        let now = clock.now()
        var sources: [IcecastStatus.Source] = []
        for (id, stream) in streams.all.sorted(by: { $0.key < $1.key }) {
            guard let started = await stream.startedAt, let hub = try await directory.hub(id: id) else { continue }
            let record = await hub.record
            let key = record.liveFrequency(at: now) ?? record.id
            var path = "/stream/\(record.id).mp3"
            if let mount {
                guard mount == path || mount == "/stream/\(key).mp3" else { continue }
                guard record.visibility == .public || record.visibility == .unlisted else { continue }
                // Named as the widget asked for it: it finds its mount by
                // the name it was given.
                path = mount
            } else {
                guard record.visibility == .public else { continue }
            }
            let song = await stream.song
            let audience = await hub.audienceNow
            sources.append(
                IcecastStatus.Source(
                    audioInfo: StreamEncoder.audioInfo,
                    bitrate: StreamEncoder.bitrateKbps, genre: "Various", listenerPeak: audience.peak,
                    listeners: audience.counts.listeners, listenURL: host + path,
                    serverDescription: "Wavelength station \(key)", serverName: record.name, serverType: "audio/mpeg",
                    serverURL: host + "/#/station/\(record.id)", streamStart: Self.rfc822(started),
                    streamStartISO8601: Self.iso8601(started),
                    title: [song.artist, song.title].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " - "),
                    artist: song.artist, channels: 2, samplerate: StreamEncoder.sampleRate))
        }
        for (id, live) in await self.sources.all().sorted(by: { $0.key < $1.key }) {
            guard let hub = try await directory.hub(id: id) else { continue }
            let record = await hub.record
            let path = "/live/\(id).mp3"
            if let mount {
                guard mount == path, record.visibility == .public || record.visibility == .unlisted else { continue }
            } else {
                guard record.visibility == .public else { continue }
            }
            let started = Date(timeIntervalSince1970: Double(live.since) / 1000)
            let audience = await hub.audienceNow
            let bitrate = live.request.audioInfo.flatMap(Self.bitrate) ?? 0
            sources.append(
                IcecastStatus.Source(
                    audioInfo: live.request.audioInfo ?? "", bitrate: bitrate, genre: live.request.genre ?? "Various",
                    listenerPeak: audience.peak, listeners: audience.counts.listeners, listenURL: host + path,
                    serverDescription: live.request.description ?? "Live on \(record.name)",
                    serverName: live.request.name ?? record.name, serverType: live.request.contentType,
                    serverURL: host + "/#/station/\(record.id)", streamStart: Self.rfc822(started),
                    streamStartISO8601: Self.iso8601(started), title: live.title ?? "", artist: nil,
                    channels: live.request.audioInfo.flatMap { Self.number("channels", in: $0) },
                    samplerate: live.request.audioInfo.flatMap { Self.number("samplerate", in: $0) }))
        }
        let status = IcecastStatus(
            icestats: .init(
                admin: "icemaster@localhost", host: Self.hostName(publicURL: publicURL, authority: request.head.authority),
                location: "Wavelength", serverID: Self.serverID, serverStart: Self.rfc822(serverStart),
                serverStartISO8601: Self.iso8601(serverStart), sources: sources))
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        // Icecast's own answer allows any page to read it; widgets rely on that.
        headers[.accessControlAllowOrigin] = "*"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(status))))
    }

    static func safeHost(_ authority: String?) -> String {
        guard let authority, authority.utf8.count <= 255,
            !authority.contains(where: { $0 == "/" || $0 == "#" || $0 == "\"" || $0.isWhitespace })
        else { return "localhost" }
        return authority
    }

    /// The host's name alone, as Icecast's `<hostname>` is: no port, no scheme.
    static func hostName(publicURL: String?, authority: String?) -> String {
        if let publicURL, let host = URL(string: publicURL)?.host, !host.isEmpty { return host }
        var host = safeHost(authority)
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = String(host[...close])  // an IPv6 address keeps its brackets, loses its port
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        return host
    }

    /// "2026-11-23T21:49:56+0000", as Icecast writes `*_iso8601` (an
    /// offset, never `Z`).
    static func iso8601(_ date: Date) -> String { utc(date, "yyyy-MM-dd'T'HH:mm:ssZ") }

    /// "Mon, 23 Nov 2026 21:49:56 +0000", as Icecast writes its start times.
    static func rfc822(_ date: Date) -> String { utc(date, "EEE, dd MMM yyyy HH:mm:ss Z") }

    /// "Mon, 23 Nov 2026 21:49:56 GMT", HTTP's `Date`.
    static func httpDate(_ date: Date) -> String { utc(date, "EEE, dd MMM yyyy HH:mm:ss 'GMT'") }

    private static func utc(_ date: Date, _ format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}
