import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Subprocess
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// Going live from broadcast software: real ffmpeg through Icecast's
/// source protocol, and every refusal a source can meet, over real sockets.
@Suite("Live sources", .timeLimit(.minutes(5)))
struct LiveSourceTests {
    static func key(_ client: some TestClientProtocol, _ account: TestAccount) async throws -> String {
        let response = try await client.send("/api/me/stream-key", .post, as: account)
        #expect(response.status == .created)
        return try #require(try response.decode(StreamKeyView.self).key)
    }

    static func source(_ client: some TestClientProtocol, _ station: String) async throws -> LiveSourceView {
        try await client.send("/api/stations/\(station)/source", .get).decode(LiveSourceView.self)
    }

    /// Waits until the station's source is (or isn't) on the air.
    static func waitFor(
        _ client: some TestClientProtocol, _ station: String, onAir: Bool
    ) async throws -> LiveSourceView {
        while true {
            let view = try await source(client, station)
            if view.onAir == onAir { return view }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A short MP3 with no cover art (ffmpeg's MP3 muxer holds the audio
    /// back for a picture stream over the icecast protocol).
    static func song() async throws -> String {
        let path = NSTemporaryDirectory() + "wavelength-live-source-\(UUID().uuidString).mp3"
        let made = try await Subprocess.run(
            .name("ffmpeg"),
            arguments: [
                "-nostdin", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=90",
                "-ac", "2", "-ar", "44100", "-c:a", "libmp3lame", "-b:a", "128k", path,
            ], output: .discarded, error: .discarded)
        #expect(made.terminationStatus.isSuccess)
        return path
    }

    @Test func ffmpegGoesLiveAndAnyPlayerHearsIt() async throws {
        let server = try await TestServer.make()
        let song = try await Self.song()
        defer { try? FileManager.default.removeItem(atPath: song) }
        try await server.application().test(.live) { client in
            let owner = try await client.signUp(name: "Live Owner")
            let key = try await Self.key(client, owner)
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            let station = owner.stationID
            #expect(try await Self.source(client, station).onAir == false)

            let broadcast = Task {
                try await Subprocess.run(
                    .name("ffmpeg"),
                    arguments: [
                        "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-i", song, "-t", "60", "-c:a", "copy",
                        "-content_type", "audio/mpeg", "-ice_name", "Late Jazz", "-ice_genre", "Jazz", "-f", "mp3",
                        "icecast://source:\(key)@127.0.0.1:\(port)/live/\(station)",
                    ], output: .discarded, error: .string(limit: 4096))
            }
            let live = try await Self.waitFor(client, station, onAir: true)
            #expect(live.name == "Late Jazz" && live.genre == "Jazz")
            #expect(live.listenURL == "/live/\(station).mp3")
            // Where to broadcast is for the station's DJs, not every listener.
            #expect(live.sourceURL == nil)
            let forOwner = try await client.send("/api/stations/\(station)/source", .get, as: owner).decode(LiveSourceView.self)
            #expect(forOwner.sourceURL?.hasSuffix(":\(port)/live/\(station)") == true)

            // A player hears MP3 from the relay.
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(client.port!)/live/\(station).mp3")
            request.method = .GET
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "content-type") == "audio/mpeg")
            #expect(response.headers.first(name: "icy-name") == "Late Jazz")
            #expect(response.headers.first(name: "icy-genre") == "Jazz")
            var heard = [UInt8]()
            for try await chunk in response.body {
                heard += chunk.readableBytesView
                if heard.count >= 16_000 { break }
            }
            var sniff = MP3Sniff()
            #expect(sniff.read(heard) == .mp3)

            // Icecast's status lists the live mount as the software described it.
            let status = try await client.send("/status-json.xsl?mount=/live/\(station).mp3", .get)
            let mount = try #require(try status.decode(IcecastStatus.self).icestats.sources.first)
            #expect(mount.serverName == "Late Jazz" && mount.genre == "Jazz")
            #expect(mount.listenURL.hasSuffix("/live/\(station).mp3"))

            // A second source for the same station is refused while the first is on.
            let second = try await SourceSocket(port: port)
            try await second.send(SourceSocket.head(station: station, key: key))
            let refused = try await second.answerHead()
            #expect(refused.hasPrefix("HTTP/1.0 403"), "\(refused)")
            #expect(try await second.rest().text.contains("Mountpoint in use"))

            // The title from broadcast software's metadata update.
            let update = try await SourceSocket(port: port)
            let auth = Data("source:\(key)".utf8).base64EncodedString()
            try await update.send(
                "GET /admin/metadata?mode=updinfo&mount=/live/\(station)&song=Nina+Simone+-+Feeling+Good%E2%80%99s HTTP/1.0\r\nAuthorization: Basic \(auth)\r\n\r\n")
            #expect(try await update.answerHead().hasPrefix("HTTP/1.0 200"))
            #expect(try await Self.source(client, station).title == "Nina Simone - Feeling Good’s")

            // A replaced key takes its show off the air at once.
            _ = try await Self.key(client, owner)
            _ = try await Self.waitFor(client, station, onAir: false)
            _ = try await broadcast.value
            #expect(try await client.send("/live/\(station).mp3", .get).status == .notFound)
        }
    }

    /// liquidsoap's `chunked=true`: `Transfer-Encoding: chunked`, `Expect:
    /// 100-continue` and an empty `Host:`. The request never ends, so it is
    /// answered at its head, as Icecast answers it (100, then 200); the
    /// chunks' framing is taken off, and the audio reaches the relay. A title
    /// update on the main port, with the source's key, retitles the show.
    @Test func aChunkedPutWithAnEmptyHostIsAnsweredAndItsAudioPlays() async throws {
        let server = try await TestServer.make()
        let song = try await Self.song()
        defer { try? FileManager.default.removeItem(atPath: song) }
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let key = try await Self.key(client, owner)
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            let station = owner.stationID
            let socket = try await SourceSocket(port: port)
            let auth = Data("source:\(key)".utf8).base64EncodedString()
            try await socket.send(
                "PUT /live/\(station) HTTP/1.1\r\nTransfer-Encoding: chunked\r\nHost: \r\nAuthorization: Basic \(auth)\r\n"
                    + "Content-Type: audio/mpeg\r\nExpect: 100-continue\r\n\r\n")
            #expect(try await socket.answerHead() == "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\n")
            #expect(try await socket.answerHead() == "HTTP/1.0 200 OK\r\n\r\n")
            // The song in chunks of 4,000 bytes, each framed as HTTP frames
            // them: a head start, then at its bitrate, as liquidsoap sends.
            // All at once, it passed the audio a source may send before the
            // server has let it in whenever letting it in was slow.
            let audio = try [UInt8](Data(contentsOf: URL(fileURLWithPath: song)))
            let sending = Task {
                for (n, start) in stride(from: 0, to: audio.count, by: 4_000).enumerated() {
                    let piece = audio[start..<min(audio.count, start + 4_000)]
                    try await socket.send(Array(String(piece.count, radix: 16).utf8) + [13, 10] + piece + [13, 10])
                    if n >= 40 { try await Task.sleep(for: .milliseconds(250)) }  // 16,000 bytes/s is 128 kbps
                }
            }
            defer { sending.cancel() }
            _ = try await Self.waitFor(client, station, onAir: true)
            // A player hears the MP3 itself from the relay: no chunk sizes in it.
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(client.port!)/live/\(station).mp3")
            request.method = .GET
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            var heard = [UInt8]()
            for try await chunk in response.body {
                heard += chunk.readableBytesView
                if heard.count >= 8_000 { break }
            }
            var sniff = MP3Sniff()
            #expect(sniff.read(heard) == .mp3)

            // The title update, on the main port.
            var headers: HTTPFields = [:]
            headers[.authorization] = "Basic \(auth)"
            let update = try await client.execute(
                uri: "/admin/metadata?mode=updinfo&mount=/live/\(station)&song=Main+Port+-+Title", method: .get,
                headers: headers)
            #expect(update.status == .ok)
            #expect(String(buffer: update.body).contains("<return>1</return>"))
            #expect(try await Self.source(client, station).title == "Main Port - Title")
            headers[.authorization] = "Basic \(Data("source:wrong".utf8).base64EncodedString())"
            let wrong = try await client.execute(
                uri: "/admin/metadata?mode=updinfo&mount=/live/\(station)&song=X", method: .get, headers: headers)
            #expect(wrong.status == .unauthorized)
            #expect(try await client.execute(uri: "/admin/metadata?mode=updinfo&mount=/live/\(station)&song=X", method: .get).status == .unauthorized)
        }
    }

    @Test func keysAndSlotsDecideWhoGoesLive() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let host = try await client.signUp()
            let stranger = try await client.signUp()
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            let station = owner.stationID
            let hostKey = try await Self.key(client, host)
            let strangerKey = try await Self.key(client, stranger)

            func answer(_ head: String) async throws -> String {
                let socket = try await SourceSocket(port: port)
                try await socket.send(head)
                return try await socket.answerHead()
            }
            #expect(try await answer(SourceSocket.head(station: station, key: "not-a-key")).hasPrefix("HTTP/1.0 401"))
            #expect(try await answer(SourceSocket.head(station: station, key: nil)).hasPrefix("HTTP/1.0 401"))
            #expect(try await answer(SourceSocket.head(station: "nope", key: strangerKey)).hasPrefix("HTTP/1.0 404"))
            #expect(try await answer(SourceSocket.head(station: station, key: strangerKey)).hasPrefix("HTTP/1.0 403"))
            #expect(
                try await answer(SourceSocket.head(station: station, key: strangerKey, type: "text/plain")).hasPrefix(
                    "HTTP/1.0 415"))
            // A host is refused outside their slot...
            #expect(try await answer(SourceSocket.head(station: station, key: hostKey)).hasPrefix("HTTP/1.0 403"))
            // ...and let in during it.
            let began = ZonedTime.local(EpochMillis(Date().timeIntervalSince1970 * 1000) - 600_000, in: TimeZone(identifier: "UTC")!)
            let show = ShowSpec(
                name: "Host Hour", hosts: [host.person.handle!], timeZone: "UTC", startTime: began.time.description,
                durationMinutes: 60, repeat: .init(kind: "once"), seasonStart: began.date.description)
            #expect(try await client.send("/api/stations/\(station)/shows", .post, as: owner, body: show).status == .created)
            let socket = try await SourceSocket(port: port)
            try await socket.send(SourceSocket.head(station: station, key: hostKey))
            #expect(try await socket.answerHead() == "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\n")
            _ = try await Self.waitFor(client, station, onAir: true)
            // The legacy SOURCE method is answered the old way (here: the
            // mount is in use).
            let legacy = try await answer(SourceSocket.head(station: station, key: hostKey, method: "SOURCE", expect: false))
            #expect(legacy.hasPrefix("HTTP/1.0 403"))
            // A rotated key stops working at once.
            _ = try await Self.key(client, host)
            #expect(try await answer(SourceSocket.head(station: station, key: hostKey)).hasPrefix("HTTP/1.0 401"))
            // Guests have no keys.
            let guest = try await client.guest("Guest")
            #expect(try await client.send("/api/me/stream-key", .post, as: guest).status == .forbidden)
            #expect(try await client.send("/api/me/stream-key", .post).status == .unauthorized)
        }
    }

    @Test func wrongKeysAreLimitedLikePasswords() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            var statuses: [String] = []
            for n in 0..<12 {
                let socket = try await SourceSocket(port: port)
                try await socket.send(SourceSocket.head(station: owner.stationID, key: "guess-\(n)"))
                statuses.append(String(try await socket.answerHead().prefix(12)))
            }
            #expect(statuses.prefix(10).allSatisfy { $0 == "HTTP/1.0 401" })
            #expect(statuses.suffix(2) == ["HTTP/1.0 429", "HTTP/1.0 429"])
        }
    }

    /// One address can't hold every source connection: past the limit it is
    /// answered 429 at once, and a slot comes back when a connection closes.
    @Test func oneAddressHoldsAtMostItsShareOfSourceConnections() async throws {
        let server = try await TestServer.make(configure: { $0.sourceIdleTimeout = .seconds(60) })
        try await server.application().test(.live) { _ in
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            // Silent connections, each holding a slot until its idle timeout.
            var held: [SourceSocket] = []
            for _ in 0..<LiveSourceServer.connectionsPerAddress { held.append(try await SourceSocket(port: port)) }
            let over = try await SourceSocket(port: port)
            let refusal = try await over.rest()
            #expect(refusal.closed)
            #expect(refusal.text.hasPrefix("HTTP/1.0 429 Too Many Requests\r\n"), "\(refusal.text)")
            #expect(refusal.text.hasSuffix("close one first.\n"))
            // One hangs up: its slot comes back once the server has seen it go.
            held.removeLast()
            while true {
                let next = try await SourceSocket(port: port)
                try await next.send(SourceSocket.head(station: "s000000000000", key: "wrong"))
                let answer = try await next.answerHead()
                if !answer.hasPrefix("HTTP/1.0 429") {
                    // Let in, and answered as any source is.
                    #expect(answer.hasPrefix("HTTP/1.0 40"), "\(answer)")
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            withExtendedLifetime(held) {}
        }
    }

    @Test func garbageSilenceAndFloodsAreClosed() async throws {
        // Long enough that a loaded machine answers a head well inside it.
        let server = try await TestServer.make(configure: { $0.sourceIdleTimeout = .seconds(3) })
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let key = try await Self.key(client, owner)
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            func accepted() async throws -> SourceSocket {
                let socket = try await SourceSocket(port: port)
                try await socket.send(SourceSocket.head(station: owner.stationID, key: key))
                #expect(try await socket.answerHead() == "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\n")
                return socket
            }
            // A connection that never sends its head is closed too.
            let mute = try await SourceSocket(port: port)
            try await mute.send("PUT /live/\(owner.stationID) HTTP/1.1\r\n")
            #expect(try await mute.rest().closed)
            // Nothing at all: closed after the idle timeout.
            let silent = try await accepted()
            #expect(try await silent.rest().closed)
            _ = try await Self.waitFor(client, owner.stationID, onAir: false)
            // Not MP3.
            let garbage = try await accepted()
            try await garbage.send([UInt8](repeating: 0x61, count: 70_000))
            #expect(try await garbage.rest().closed)
            _ = try await Self.waitFor(client, owner.stationID, onAir: false)
            // Far more than any bitrate: MP3 frame headers, then a flood.
            let flood = try await accepted()
            var bytes = [UInt8](repeating: 0, count: 8 << 20)
            bytes[0] = 0xFF
            bytes[1] = 0xFB
            bytes[2] = 0x90
            try await flood.send(bytes)
            #expect(try await flood.rest().closed)
            _ = try await Self.waitFor(client, owner.stationID, onAir: false)
            // Sources that hang up while they are being let in never leave
            // the station stuck on the air.
            for _ in 0..<20 {
                let gone = try await SourceSocket(port: port)
                try await gone.send(SourceSocket.head(station: owner.stationID, key: key))
            }
            // Each hang-up's decision ends on its own time, and one let in
            // holds the station for the moment it takes to see its
            // connection gone: a new source gets in once they are all done
            // (if one stayed stuck, this would wait until the time limit).
            while true {
                let socket = try await SourceSocket(port: port)
                try await socket.send(SourceSocket.head(station: owner.stationID, key: key))
                let answer = try await socket.answerHead()
                if answer == "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\n" { break }
                // In use, or (while ten of the hang-ups' checks are still in
                // flight from this address) "try again in a second", or, on
                // a machine so loaded that the check outlasts three idle
                // timeouts, "too busy" (503). Closed with no answer only if
                // this task was held up between connecting and sending the
                // head for the 3 s idle timeout (a connection was closed
                // with no answer once at load 30, before a check in flight
                // counted as waiting for the server).
                #expect(
                    answer.isEmpty || answer.hasPrefix("HTTP/1.0 403") || answer.hasPrefix("HTTP/1.0 429")
                        || answer.hasPrefix("HTTP/1.0 503"),
                    "\(answer)")
                try await Task.sleep(for: .milliseconds(50))
            }
            // The server still answers.
            #expect(try await client.send("/health", .get).status == .ok)
        }
    }
}
