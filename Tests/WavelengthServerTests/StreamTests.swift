import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Subprocess
import Testing
import WavelengthWire

@testable import WavelengthServer

/// A station as a radio stream, read the way a player reads it: real HTTP,
/// ICY metadata at its interval, and ffprobe on the audio.
@Suite("The radio stream", .timeLimit(.minutes(5)))
struct StreamTests {
    /// Reads an ICY stream: `interval` bytes of audio, a length byte, that
    /// many 16-byte rows, again; keeps the audio and each block's title.
    struct IcyReader {
        let interval: Int
        var audio: [UInt8] = []
        /// Each block's title, nil for a 0 byte (nothing changed).
        var titles: [String?] = []
        private var pending: [UInt8] = []

        init(interval: Int) { self.interval = interval }

        mutating func take(_ bytes: some Sequence<UInt8>) {
            pending += bytes
            while true {
                guard pending.count > interval else { return }
                let length = Int(pending[interval]) * 16
                guard pending.count >= interval + 1 + length else { return }
                audio += pending[..<interval]
                let block = pending[(interval + 1)..<(interval + 1 + length)]
                if length == 0 {
                    titles.append(nil)
                } else {
                    let text = String(decoding: block.prefix { $0 != 0 }, as: UTF8.self)
                    #expect(text.hasPrefix("StreamTitle='") && text.hasSuffix("';"), "\(text)")
                    #expect(block.drop { $0 != 0 }.allSatisfy { $0 == 0 })
                    titles.append(String(text.dropFirst("StreamTitle='".count).dropLast(2)))
                }
                pending.removeFirst(interval + 1 + length)
            }
        }

        var lastTitle: String? { titles.compactMap { $0 }.last }
    }

    static func open(_ port: Int, _ path: String, icy: Bool = true, range: String? = nil) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        if icy { request.headers.add(name: "Icy-MetaData", value: "1") }
        if let range { request.headers.add(name: "Range", value: range) }
        return try await HTTPClient.shared.execute(request, timeout: .seconds(60))
    }

    static func title(_ track: TrackSummary) -> String {
        [track.artist, track.title].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " - ")
    }

    @Test func aStationPlaysAsAnMP3StreamWithItsTitleEveryInterval() async throws {
        let server = try await TestServer.make()
        let station = try server.firstStation().id
        try await server.application().test(.live) { client in
            let response = try await Self.open(client.port!, "/stream/\(station).mp3")
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "content-type") == "audio/mpeg")
            #expect(response.headers.first(name: "icy-metaint") == "16000")
            #expect(response.headers.first(name: "icy-br") == "128")
            #expect(response.headers.first(name: "icy-name") == "Wavelength Radio")
            #expect(response.headers.first(name: "icy-pub") == "1")
            var reader = IcyReader(interval: 16_000)
            for try await part in response.body {
                reader.take(part.readableBytesView)
                if reader.titles.count >= 3 { break }
            }
            // The first block names a song of the station's; then a 0 byte
            // unless the song changed (the test library's songs last 3 s).
            let first = try #require(reader.titles.first ?? nil)
            let timeline = try await client.timeline(station)
            let known = ([timeline.current].compactMap { $0 } + timeline.upNext + timeline.history).map { Self.title($0.track) }
            #expect(known.contains(first), "\(first) is not among \(known)")

            // Real MP3, as ffprobe reads it.
            let file = NSTemporaryDirectory() + "stream-\(UUID().uuidString).mp3"
            defer { try? FileManager.default.removeItem(atPath: file) }
            #expect(FileManager.default.createFile(atPath: file, contents: Data(reader.audio)))
            let probe = try await Subprocess.run(
                .name("ffprobe"),
                arguments: ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels", "-of", "csv=p=0", file],
                output: .string(limit: 4_096), error: .discarded)
            #expect(probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "mp3,44100,2")
        }
    }

    /// HTTP/1.0 has no chunked bodies: an HTTP/1.0 player gets an HTTP/1.0
    /// answer whose audio starts right after the head and ends when the
    /// connection does, as Icecast answers; a body with a length closes
    /// after it.
    @Test func anHTTP10PlayerGetsAnUnchunkedStream() async throws {
        let server = try await TestServer.make()
        let station = try server.firstStation().id
        try await server.application().test(.live) { client in
            let stream = try await RawHTTP.send(
                Array("GET /stream/\(station).mp3 HTTP/1.0\r\nHost: radio\r\nIcy-MetaData: 1\r\n\r\n".utf8), port: client.port!,
                upTo: 20_000)
            #expect(stream.statusLine == "HTTP/1.0 200 OK")
            let head = stream.answer.components(separatedBy: "\r\n\r\n")[0].lowercased()
            #expect(!head.contains("transfer-encoding"))
            #expect(head.contains("connection: close"))
            #expect(head.contains("icy-metaint: 16000"))
            let start = try #require(stream.bytes.firstRange(of: Array("\r\n\r\n".utf8))).upperBound
            let audio = Array(stream.bytes[start...].prefix(3))
            // MP3 (an ID3 tag or a frame's sync bits), not a chunk's size in hex.
            #expect(audio == Array("ID3".utf8) || audio.first == 0xFF, "\(audio)")

            let json = try await RawHTTP.send(Array("GET /api/stations HTTP/1.0\r\nHost: radio\r\n\r\n".utf8), port: client.port!)
            #expect(json.statusLine == "HTTP/1.0 200 OK")
            #expect(json.closed)
            #expect(json.answer.lowercased().contains("content-length:"))
        }
    }

    /// A browser's `<audio>` asks for the stream on a connection it used
    /// before (keep-alive), which the first-request sniffer never saw: the
    /// stream still comes, unchunked, after the earlier answer.
    @Test func aStreamAskedForOnAKeptAliveConnectionStillPlays() async throws {
        let server = try await TestServer.make()
        let station = try server.firstStation().id
        try await server.application().test(.live) { client in
            let requests = "GET /api/stations HTTP/1.1\r\nHost: radio\r\n\r\n"
                + "GET /stream/\(station).mp3 HTTP/1.1\r\nHost: radio\r\n\r\n"
            let exchange = try await RawHTTP.send(Array(requests.utf8), port: client.port!, upTo: 40_000)
            #expect(exchange.statusLine == "HTTP/1.1 200 OK")
            let second = try #require(exchange.bytes.firstRange(of: Array("HTTP/1.0 200 OK\r\n".utf8)))
            let afterHead = try #require(exchange.bytes[second.upperBound...].firstRange(of: Array("\r\n\r\n".utf8))).upperBound
            let audio = Array(exchange.bytes[afterHead...])
            #expect(audio.count > 10_000, "only \(audio.count) bytes of audio")
            #expect(audio.prefix(3).elementsEqual("ID3".utf8) || audio.first == 0xFF, "\(audio.prefix(3))")
        }
    }

    @Test func theTitleFollowsASkip() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let (station, key) = (owner.stationID, owner.token)
            let response = try await Self.open(client.port!, "/stream/\(station).mp3")
            var reader = IcyReader(interval: 16_000)
            var body = response.body.makeAsyncIterator()
            while reader.titles.isEmpty, let part = try await body.next() { reader.take(part.readableBytesView) }

            // A track that isn't on the air: queued next, then the song playing is skipped.
            let timeline = try await client.timeline(station)
            let onAir = Set(([timeline.current].compactMap { $0 } + timeline.upNext).map(\.track.id))
            let all = try await client.execute(uri: "/api/library/tracks?limit=500", method: .get).decode([TrackSummary].self)
            let pick = try #require(all.first { !onAir.contains($0.id) })
            #expect(try await client.command(station, key: key, id: "q", .queueNext(trackID: pick.id)).status == .ok)
            // The song playing is cut, unless it ended meanwhile and the pick
            // is already on (or it ends as the skip arrives: refused).
            let current = try #require(try await client.timeline(station).current)
            if current.track.id != pick.id {
                let skipped = try await client.command(station, key: key, id: "s", .skip(entryID: current.id))
                #expect(skipped.status == .ok || ["not_current", "already_played"].contains(skipped.errorCode))
            }
            let asked = ContinuousClock.now
            // Bounded: a minute of the stream (a block per second at 128 kbps).
            while reader.lastTitle != Self.title(pick), reader.titles.count < 60, let part = try await body.next() {
                reader.take(part.readableBytesView)
            }
            #expect(reader.lastTitle == Self.title(pick), "the stream's titles: \(reader.titles.compactMap { $0 })")
            // A figure, not a check: timings belong in the benchmarks.
            print("the stream named the skipped-to song \(ContinuousClock.now - asked) after the skip")
        }
    }

    /// Tree in the forest: the encoder runs while someone listens by stream,
    /// and stops a grace period after the last one leaves.
    @Test func theEncoderRunsOnlyWhileSomeoneListens() async throws {
        let server = try await TestServer.make { $0.streamGracePeriod = .milliseconds(200) }
        let station = try server.firstStation().id
        try await server.application().test(.live) { client in
            let hub = try #require(try await server.services.directory.hub(id: station))
            let stream = server.services.streams.stream(for: hub)
            #expect(await !stream.isEncoding)
            do {
                let response = try await Self.open(client.port!, "/stream/\(station).mp3", icy: false)
                var received = 0
                for try await part in response.body {
                    received += part.readableBytes
                    if received > 20_000 { break }
                }
                #expect(await stream.isEncoding)
            }
            // The response is dropped: the client hangs up.
            while await stream.isEncoding { try await Task.sleep(for: .milliseconds(50)) }
            #expect(await stream.listenerCount == 0)
            // Stopped, the stream is forgotten: a server whose stations were
            // each streamed once keeps none of their streams.
            #expect(await stream.retired)
            #expect(server.services.streams.all[station] == nil)
            #expect(await stream.join(.person("late"), kind: .stream, on: NIOSingletons.posixEventLoopGroup.next()) == nil)
            // The next listener gets a new stream, and hears it.
            let again = try await Self.open(client.port!, "/stream/\(station).mp3", icy: false)
            var received = 0
            for try await part in again.body {
                received += part.readableBytes
                if received > 20_000 { break }
            }
            let fresh = try #require(server.services.streams.all[station])
            #expect(fresh !== stream)
            #expect(await fresh.isEncoding)
        }
    }

    @Test func badStreamRequestsGetClearErrors() async throws {
        let server = try await TestServer.make()
        let station = try server.firstStation().id
        try await server.application().test(.live) { client in
            // Not 99.9: in about 1 run in 103 the first station held it, and
            // its stream played on while the test waited for the answer's end.
            let unknown = try await client.execute(uri: "/stream/\(try await client.unheldFrequency()).mp3", method: .get)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "not_found")
            let kind = try await client.execute(uri: "/stream/\(station).ogg", method: .get)
            #expect(kind.status == .notFound)
            let ranged = try await Self.open(client.port!, "/stream/\(station).mp3", range: "bytes=1000-")
            #expect(ranged.status == .rangeNotSatisfiable)
            let owner = try await client.signUp()
            #expect(try await client.send("/api/stations/\(owner.stationID)", .patch, as: owner, body: ["visibility": "code"]).status == .ok)
            let hidden = try await client.execute(uri: "/stream/\(owner.stationID).mp3", method: .get)
            #expect(hidden.status == .forbidden || hidden.status == .unauthorized)
        }
    }

    /// One address can't take every slot; a stream that ends gives its slot back.
    @Test func oneAddressHoldsAtMostSixteenStreams() async throws {
        let server = try await TestServer.make()
        let station = try server.firstStation().id
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        defer { _ = http.shutdown() as EventLoopFuture<Void> }
        try await server.application().test(.live) { client in
            let url = "http://127.0.0.1:\(client.port!)/stream/\(station).mp3"
            // Listeners that stay until cancelled; each says how it was answered.
            let (answers, answered) = AsyncStream.makeStream(of: HTTPResponseStatus.self)
            var listeners: [Task<Void, any Error>] = []
            for _ in 0..<StreamDirectory.maxPerAddress {
                listeners.append(Task {
                    let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(120))
                    answered.yield(response.status)
                    for try await _ in response.body {}
                })
            }
            defer { for listener in listeners { listener.cancel() } }
            var statuses = answers.makeAsyncIterator()
            for _ in 0..<StreamDirectory.maxPerAddress { #expect(await statuses.next() == .ok) }

            let refused = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
            #expect(refused.status == .tooManyRequests)
            _ = try await refused.body.collect(upTo: 4_096)

            // One listener hangs up: its slot is free again once the server notices.
            listeners[0].cancel()
            while true {
                let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
                if response.status == .ok { break }
                #expect(response.status == .tooManyRequests)
                _ = try await response.body.collect(upTo: 4_096)
            }
        }
    }

    @Test func playlistsPointAtTheStream() async throws {
        let server = try await TestServer.make()
        let station = try server.firstStation().id
        try await server.application().test(.router) { client in
            let m3u = try await client.execute(uri: "/stream/\(station).m3u", method: .get)
            #expect(m3u.headers[.contentType] == "audio/x-mpegurl")
            #expect(String(buffer: m3u.body).contains("/stream/\(station).mp3\r\n"))
            let pls = try await client.execute(uri: "/stream/\(station).pls", method: .get)
            #expect(pls.headers[.contentType] == "audio/x-scpls")
            #expect(String(buffer: pls.body).contains("File1=http://"))
        }
    }
}
