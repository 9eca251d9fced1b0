import AsyncHTTPClient
import Foundation
import HummingbirdTesting
import NIOCore
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// Voice clips between songs, with real FFmpeg: a DJ's plays next for
/// everyone, a guest's waits for the host, and what isn't a short piece
/// of audio is refused with a reason.
@Suite("Voice clips", .timeLimit(.minutes(5)))
struct ClipTests {
    static func code(_ response: TestResponse?) -> String? {
        response.flatMap { try? $0.decode(ErrorBody.self).error.code }
    }

    /// The first update whose window shows the clip on the timeline.
    static func update(_ socket: LiveClient, showing clipID: String) async throws -> TimelineWindow {
        let seen = try await socket.next {
            guard case .update(let window) = $0 else { return false }
            return ([window.current].compactMap { $0 } + window.upNext).contains { $0.track.id == "clip:\(clipID)" }
        }
        guard case .update(let window) = seen else { throw TestFailure("no update") }
        return window
    }

    static func window(_ client: some TestClientProtocol, _ station: String) async throws -> TimelineWindow {
        try await client.send("/api/stations/\(station)/timeline", .get).decode(TimelineWindow.self)
    }

    @Test func aDJsClipPlaysNextForEveryoneAndIsServed() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp(name: "DJ Kay")
            let station = owner.stationID
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?v=1")
            defer { listener.close() }
            _ = try await listener.snapshot()
            // Held, so the clip is still waiting to play however slow the
            // machine (the test library's songs last 3 s).
            #expect(try await client.command(station, key: owner.token, id: "hold", .pause).status == .ok)
            let sent = try await client.upload(
                "/api/stations/\(station)/clips?note=Hello%20from%20the%20booth", as: owner,
                bytes: try await TestAudio.tone(seconds: 3))
            #expect(sent.status == .created, "\(String(buffer: sent.body))")
            let clip = try sent.decode(ClipView.self)
            #expect(clip.status == .approved && clip.note == "Hello from the booth")
            #expect((2_900...3_100).contains(clip.durationMs))

            // Every listener hears of it: next after the song playing (the
            // test library's songs last 3 s, so it may be playing already).
            let update = try await Self.update(listener, showing: clip.id)
            let scheduled = [update.current].compactMap { $0 } + update.upNext
            let next = try #require(scheduled.first { $0.source == .voice })
            #expect(scheduled.prefix(2).contains(next))
            #expect(next.track.id == "clip:\(clip.id)")
            #expect(next.track.artist == "DJ Kay" && next.track.title == "Hello from the booth")
            #expect(next.track.audioURL == "/api/clips/\(clip.id)/audio")
            #expect(next.start == update.current?.expiration || next == update.current)

            // Its audio: MP3, brought to the station's loudness, with ranges.
            let audio = try await client.execute(uri: clip.audioURL, method: .get)
            #expect(audio.status == .ok)
            #expect(audio.headers[.contentType] == "audio/mpeg")
            let bytes = Data(buffer: audio.body)
            #expect(bytes.starts(with: Array("ID3".utf8)) || bytes.first == 0xFF)
            let range = try await client.execute(uri: clip.audioURL, method: .get, headers: [.range: "bytes=0-99"])
            #expect(range.status == .partialContent && range.body.readableBytes == 100)
            // It can't be deleted while it waits to play.
            let deleting = try await client.send("/api/stations/\(station)/clips/\(clip.id)", .delete, as: owner)
            #expect(deleting.status == .conflict)
        }
    }

    @Test func aGuestsClipWaitsForTheHostThenPlays() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            let gus = try await client.guest("Gus")
            let tone = try await TestAudio.tone(seconds: 2)
            let closed = try await client.upload("/api/stations/\(station)/clips", as: gus, bytes: tone)
            #expect(closed.status == .conflict && Self.code(closed) == "clips_closed")
            _ = try await client.send("/api/stations/\(station)/party", .patch, as: owner, body: PartySettingsPatch(guestClips: true))

            let host = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?v=1", token: owner.token)
            defer { host.close() }
            _ = try await host.snapshot()
            let sent = try await client.upload("/api/stations/\(station)/clips?note=For%20Ana", as: gus, bytes: tone)
            #expect(sent.status == .accepted)
            let clip = try sent.decode(ClipView.self)
            #expect(clip.status == .pending && clip.person.name == "Gus")
            let waiting = try await host.next { if case .clipWaiting = $0 { true } else { false } }
            #expect(waiting == .clipWaiting(clip))
            // Nothing on the air yet; only the host and the author hear it.
            #expect(try await Self.window(client, station).upNext.allSatisfy { $0.source != .voice })
            #expect(try await client.execute(uri: clip.audioURL, method: .get).status == .notFound)
            #expect(try await client.send(clip.audioURL, .get, as: gus).status == .ok)
            #expect(try await client.send(clip.audioURL, .get, as: owner).status == .ok)
            let mine = try await client.send("/api/stations/\(station)/clips", .get, as: gus).decode(ClipList.self)
            #expect(mine.clips.map(\.id) == [clip.id])
            // A guest can't approve their own.
            #expect(try await client.send("/api/stations/\(station)/clips/\(clip.id)/approve", .post, as: gus).status == .forbidden)

            let approved = try await client.send("/api/stations/\(station)/clips/\(clip.id)/approve", .post, as: owner)
            #expect(approved.status == .ok)
            let update = try await Self.update(host, showing: clip.id)
            #expect(([update.current].compactMap { $0 } + update.upNext).prefix(2).contains { $0.track.id == "clip:\(clip.id)" })
            #expect(try await client.execute(uri: clip.audioURL, method: .get).status == .ok)
            #expect(try await client.send("/api/stations/\(station)/clips/\(clip.id)/approve", .post, as: owner).status == .conflict)
        }
    }

    /// Listeners' waiting clips fill at most half the quota: a room's
    /// shout-outs never stop the host's own clip.
    @Test func waitingClipsNeverUseUpTheHostsShare() async throws {
        let tone = try await TestAudio.tone(seconds: 2)
        // How much one such clip takes once stored, on a server of its own.
        let measuring = try await TestServer.make()
        let stored = try await measuring.application().test(.live) { client in
            let owner = try await client.signUp()
            let uri = "/api/stations/\(owner.stationID)/clips"
            // The host's clip goes on the air: someone must be listening.
            let host = LiveClient(port: client.port!, path: "/api/stations/\(owner.stationID)/live?v=1", token: owner.token)
            defer { host.close() }
            _ = try await host.snapshot()
            #expect(try await client.upload(uri, as: owner, bytes: tone).status == .created)
            return try await client.send(uri, .get, as: owner).decode(ClipList.self).usedBytes
        }
        // Room for two clips waiting (half of five), and five in all: filled
        // by the room alone, as before, the host's clip would not fit.
        let server = try await TestServer.make(configure: { $0.clipQuotaBytes = stored * 5 })
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            _ = try await client.send("/api/stations/\(station)/party", .patch, as: owner, body: PartySettingsPatch(guestClips: true))
            let host = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?v=1", token: owner.token)
            defer { host.close() }
            _ = try await host.snapshot()
            var refusal: TestResponse?
            for n in 0..<8 {
                let guest = try await client.guest("Guest \(n)")
                let sent = try await client.upload("/api/stations/\(station)/clips", as: guest, bytes: tone)
                guard sent.status == .accepted else {
                    refusal = sent
                    break
                }
            }
            #expect(refusal?.status == .conflict && Self.code(refusal) == "clip_quota")
            let own = try await client.upload("/api/stations/\(station)/clips", as: owner, bytes: tone)
            #expect(own.status == .created, "\(String(buffer: own.body))")
        }
    }

    @Test func whatIsNotAShortPieceOfAudioIsRefused() async throws {
        let server = try await TestServer.make(configure: { $0.clipQuotaBytes = 60_000 })
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let station = owner.stationID
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?v=1")
            defer { listener.close() }
            _ = try await listener.snapshot()
            let uri = "/api/stations/\(station)/clips"

            let zip = try await client.upload(uri, as: owner, bytes: TestAudio.zip, type: "audio/mpeg")
            #expect(zip.status == .badRequest && Self.code(zip) == "bad_audio")
            let text = try await client.upload(uri, as: owner, bytes: Data("<html>not audio</html>".utf8))
            #expect(text.status == .badRequest && Self.code(text) == "bad_audio")
            let empty = try await client.upload(uri, as: owner, bytes: Data())
            #expect(empty.status == .badRequest)
            let long = try await client.upload(uri, as: owner, bytes: try await TestAudio.tone(seconds: 32, format: "mp3"))
            #expect(long.status == .badRequest && Self.code(long) == "too_long")
            let huge = try await client.upload(uri, as: owner, bytes: Data(count: ClipLimits.maxUploadBytes + 1))
            #expect(huge.status == .contentTooLarge)
            let badNote = try await client.upload(uri + "?note=two%0Alines", as: owner, bytes: try await TestAudio.tone(seconds: 1))
            #expect(badNote.status == .badRequest)
            #expect(try await client.upload(uri, as: nil, bytes: TestAudio.zip).status == .unauthorized)

            // WAV and MP3 work as well as WebM; the quota then stops more.
            var kept = 0
            var last: TestResponse?
            for format in ["wav", "mp3", "webm", "webm", "webm", "webm"] {
                let response = try await client.upload(uri, as: owner, bytes: try await TestAudio.tone(seconds: 2, format: format))
                last = response
                guard response.status == .created else { break }
                kept += 1
            }
            #expect(kept >= 2)
            #expect(last?.status == .conflict && Self.code(last) == "clip_quota")
            let list = try await client.send(uri, .get, as: owner).decode(ClipList.self)
            #expect(list.clips.count == kept && list.usedBytes <= list.quotaBytes)
            // Nothing refused left a file behind.
            let folder = server.services.configuration.dataDirectory + "/voice"
            let files = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(files.sorted() == list.clips.map { "\($0.id).mp3" }.sorted())
            for file in files {
                let mode = try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? Int
                #expect(mode == 0o600)
            }
        }
    }

    @Test func theRadioStreamPlaysTheClipLikeATrack() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp(name: "DJ Kay")
            let station = owner.stationID
            // A stream listener puts the station on the air.
            let response = try await StreamTests.open(client.port!, "/stream/\(station).mp3")
            var reader = StreamTests.IcyReader(interval: 16_000)
            var body = response.body.makeAsyncIterator()
            while reader.titles.isEmpty, let part = try await body.next() { reader.take(part.readableBytesView) }
            // Long enough to be on the air still when a stream that fell
            // behind on a loaded machine catches up with the timeline.
            let sent = try await client.upload(
                "/api/stations/\(station)/clips?note=On%20the%20radio", as: owner, bytes: try await TestAudio.tone(seconds: 25))
            #expect(sent.status == .created)
            // The song playing is cut, unless it ended meanwhile and the clip
            // is already on.
            let current = try #require(try await client.timeline(station).current)
            if current.source != .voice {
                _ = try await client.command(station, key: owner.token, id: "skip", .skip(entryID: current.id))
            }
            // Bounded: a minute of the stream (a block per second at 128 kbps).
            while reader.lastTitle != "DJ Kay - On the radio", reader.titles.count < 60, let part = try await body.next() {
                reader.take(part.readableBytesView)
            }
            #expect(reader.lastTitle == "DJ Kay - On the radio", "the stream's titles: \(reader.titles.compactMap { $0 })")
        }
    }

    @Test func killDashNineLosesNoAcknowledgedClip() async throws {
        let data = NSTemporaryDirectory() + "wavelength-clip-kill-\(UUID().uuidString)"
        let libraries = try await TestLibrary.shared.roots()
        let http = HTTPClient.shared
        let tone = try await TestAudio.tone(seconds: 2)
        let (first, killed) = try await ServerProcess.run(dataDirectory: data, libraries: libraries, pingInterval: 60) {
            server -> (clip: ClipView, station: String, key: String) in
            let body = try JSONEncoder().encode(
                SignupRequest(handle: TestHandles.next("c"), displayName: "Cleo", password: "correct horse", tokens: true))
            let auth = try JSONDecoder().decode(
                AuthResponse.self, from: try await http.send(.POST, server.baseURL + "/api/auth/signup", body: body).body)
            let station = try #require(auth.station?.id)
            let key = try #require(auth.tokens?.accessToken)
            let listener = LiveClient(port: server.port, path: "/api/stations/\(station)/live?v=1")
            defer { listener.close() }
            _ = try await listener.snapshot()
            // Held, so the clip still waits on the timeline after the restart,
            // however long that takes.
            let hold = try JSONEncoder().encode(CommandRequest(id: "hold", command: .pause))
            let held = try await http.send(.POST, server.baseURL + "/api/stations/\(station)/commands", body: hold, key: key)
            #expect(held.status == .ok)
            var request = HTTPClientRequest(url: server.baseURL + "/api/stations/\(station)/clips?note=Kept")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(key)")
            request.headers.add(name: "Content-Type", value: "audio/webm")
            request.body = .bytes(ByteBuffer(bytes: tone))
            let response = try await http.execute(request, timeout: .seconds(60))
            #expect(response.status == .created)
            let clip = try JSONDecoder().decode(ClipView.self, from: Data(buffer: try await response.body.collect(upTo: 1 << 20)))
            await server.kill9()
            return (clip, station, key)
        }
        #expect(killed == .signaled(SIGKILL))
        let (_, stopped) = try await ServerProcess.run(dataDirectory: data, libraries: libraries, pingInterval: 60) { restarted in
            let list = try await http.send(.GET, restarted.baseURL + "/api/stations/\(first.station)/clips", key: first.key)
            let clips = try JSONDecoder().decode(ClipList.self, from: list.body)
            #expect(clips.clips.map(\.id) == [first.clip.id], "an acknowledged clip was lost")
            let audio = try await http.send(.GET, restarted.baseURL + first.clip.audioURL)
            #expect(audio.status == .ok && audio.body.count > 1_000)
            let timeline = try await http.send(.GET, restarted.baseURL + "/api/stations/\(first.station)/timeline?history=50")
            let window = try JSONDecoder().decode(TimelineWindow.self, from: timeline.body)
            let all = [window.current].compactMap { $0 } + window.upNext + window.history
            #expect(all.contains { $0.track.id == "clip:\(first.clip.id)" && $0.source == .voice })
        }
        #expect(stopped == .exited(0))
    }

    @Test func aDJsClipNeedsSomeoneListening() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.router) { client in
            let owner = try await client.signUp()
            let response = try await client.upload(
                "/api/stations/\(owner.stationID)/clips", as: owner, bytes: try await TestAudio.tone(seconds: 1))
            #expect(response.status == .conflict)
            #expect(try response.decode(ErrorBody.self).error.code == "not_on_air")
        }
    }
}
