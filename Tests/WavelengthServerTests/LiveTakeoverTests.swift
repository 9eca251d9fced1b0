import AsyncHTTPClient
import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import NIOCore
import Subprocess
import Testing
import WavelengthCore
import WavelengthWire

@testable import WavelengthServer

/// A live source takes over the station's timeline for every listener, and
/// gives it back to the robot when it leaves and doesn't come back.
@Suite("Live takeover", .timeLimit(.minutes(5)))
struct LiveTakeoverTests {
    /// Runs ffmpeg as broadcast software until it is told to stop (its
    /// key replaced) or its song ends.
    static func broadcast(song: String, key: String, port: Int, station: String) -> Task<Void, any Error> {
        Task {
            _ = try await Subprocess.run(
                .name("ffmpeg"),
                arguments: [
                    "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-i", song, "-t", "60", "-c:a", "copy",
                    "-content_type", "audio/mpeg", "-ice_name", "Late Jazz", "-f", "mp3",
                    "icecast://source:\(key)@127.0.0.1:\(port)/live/\(station)",
                ], output: .discarded, error: .discarded)
        }
    }

    /// The RMS level (dBFS, as ffmpeg's volumedetect says it) of MP3 bytes,
    /// decoded by ffmpeg to a PCM file and summed here: nothing depends on
    /// reading ffmpeg's own report from its standard error.
    static func loudness(ofMP3 bytes: [UInt8]) async throws -> (meanDb: Double, samples: Int, ffmpeg: TerminationStatus) {
        let base = NSTemporaryDirectory() + "live-stream-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(atPath: base + ".mp3")
            try? FileManager.default.removeItem(atPath: base + ".pcm")
        }
        try Data(bytes).write(to: URL(fileURLWithPath: base + ".mp3"))
        let decoded = try await Subprocess.run(
            .name("ffmpeg"),
            arguments: [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-f", "mp3", "-i", base + ".mp3",
                "-f", "s16le", "-ac", "1", base + ".pcm",
            ], output: .discarded, error: .discarded)
        let pcm = (try? Data(contentsOf: URL(fileURLWithPath: base + ".pcm"))) ?? Data()
        let samples = pcm.count / 2
        guard samples > 0 else { return (-.infinity, 0, decoded.terminationStatus) }
        let squares = pcm.withUnsafeBytes { raw in
            raw.bindMemory(to: Int16.self).reduce(0.0) { sum, sample in
                let x = Double(Int16(littleEndian: sample)) / 32_768
                return sum + x * x
            }
        }
        return (10 * log10(max(squares / Double(samples), 1e-12)), samples, decoded.terminationStatus)
    }

    /// An update after `revision` where the show `id` is cut short, or over.
    static func ending(_ id: String, after revision: Int64) -> @Sendable (ServerMessage) -> Bool {
        { message in
            guard case .update(let window) = message, window.revision > revision else { return false }
            let entries = [window.current].compactMap { $0 } + window.upNext
            guard let entry = entries.first(where: { $0.id == id }) else { return true }
            return entry.durationMs < StationState.liveLength
        }
    }

    static func window(_ client: some TestClientProtocol, _ station: String, as account: TestAccount) async throws
        -> TimelineWindow
    {
        try await client.send("/api/stations/\(station)/timeline", .get, as: account).decode(TimelineWindow.self)
    }

    /// A marathon: while its source stays, the show is scheduled on (every
    /// 12 h when serving; every second here), so it never runs out of its
    /// first day's timeline and the robot never takes the air back.
    @Test func aShowStillOnTheAirIsScheduledOn() async throws {
        let server = try await TestServer.make(configure: { $0.liveRenewal = .seconds(1) })
        let song = try await LiveSourceTests.song()
        defer { try? FileManager.default.removeItem(atPath: song) }
        try await server.application().test(.live) { client in
            let owner = try await client.signUp(name: "Marathon Host")
            let key = try await LiveSourceTests.key(client, owner)
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            let station = owner.stationID
            let broadcast = Self.broadcast(song: song, key: key, port: port, station: station)
            defer { broadcast.cancel() }
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live?v=1")
            defer { listener.close() }
            _ = try await listener.snapshot()
            _ = try await LiveSourceTests.waitFor(client, station, onAir: true)
            // The show as first scheduled, then the same show scheduled later.
            let first = try await listener.next(where: { message in
                if case .update(let window) = message { window.current?.source == .live } else { false }
            })
            guard case .update(let scheduled) = first, let show = scheduled.current else { return }
            let later = try await listener.next(where: { message in
                guard case .update(let window) = message, let current = window.current else { return false }
                return current.id == show.id && current.expiration > show.expiration
            })
            guard case .update(let renewed) = later, let still = renewed.current else { return }
            #expect(still.source == .live)
            #expect(still.durationMs > show.durationMs)
            // The robot's songs wait behind the show.
            #expect(renewed.upNext.allSatisfy { $0.start >= still.expiration })
        }
    }

    @Test func aSourceTakesOverAndTheRobotResumesWhenItDoesNotComeBack() async throws {
        let server = try await TestServer.make(configure: { $0.liveGracePeriod = .seconds(1) })
        let song = try await LiveSourceTests.song()
        defer { try? FileManager.default.removeItem(atPath: song) }
        try await server.application().test(.live) { client in
            let owner = try await client.signUp(name: "Live Owner")
            let key = try await LiveSourceTests.key(client, owner)
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            let station = owner.stationID
            let listener = LiveClient(port: client.port!, path: "/api/stations/\(station)/live", token: owner.token)
            defer { listener.close() }
            let before = try await listener.snapshot().timeline
            let source = Self.broadcast(song: song, key: key, port: port, station: station)

            // Every listener is told: the show is on, in place of the song.
            // Not simply the next update: a short song may end first, and
            // the robot's top-up comes before the show.
            let message = try await listener.next(where: { message in
                guard case .update(let window) = message, window.revision > before.revision else { return false }
                return ([window.current].compactMap { $0 } + window.upNext).contains { $0.source == .live }
            })
            guard case .update(let onAir) = message else { throw TestFailure("no update") }
            let show = try #require(([onAir.current].compactMap { $0 } + onAir.upNext).first { $0.source == .live })
            #expect(show.track.title == "Late Jazz")
            #expect(show.track.artist == "Live Owner")
            #expect(show.track.audioURL == "/live/\(station).mp3?edge=1")
            #expect(show.durationMs == StationState.liveLength)
            #expect(onAir.upNext.contains { $0.source == .robot })

            // The source leaves (its key is replaced): the show ends after the
            // grace. The update is the window when it is sent: on a slow
            // machine the grace may be over by then, and the show gone from it.
            _ = try await LiveSourceTests.key(client, owner)
            let left = try await listener.next(where: Self.ending(show.id, after: onAir.revision))
            guard case .update(let ending) = left else { throw TestFailure("no update") }
            if let ended = ending.current, ended.id == show.id {
                #expect(ending.upNext.first?.start == ended.expiration)
            }
            #expect(!ending.upNext.contains { $0.id == show.id })
            _ = try await source.value
            while try await Self.window(client, station, as: owner).current?.source == .live {
                try await Task.sleep(for: .milliseconds(100))
            }
            // The show is in the station's history, with its real length.
            var played: [EntryView] = []
            while !played.contains(where: { $0.id == show.id }) {
                try await Task.sleep(for: .milliseconds(100))
                played = try await client.send("/api/stations/\(station)/history", .get, as: owner)
                    .decode([EntryView].self)
            }
            let kept = try #require(played.first { $0.id == show.id })
            #expect(kept.source == .live && kept.track.title == "Late Jazz" && kept.durationMs < StationState.liveLength)
        }
    }

    @Test func theSameSourceBackWithinTheGraceCarriesTheShowOn() async throws {
        let server = try await TestServer.make(configure: { $0.liveGracePeriod = .seconds(120) })
        let song = try await LiveSourceTests.song()
        defer { try? FileManager.default.removeItem(atPath: song) }
        try await server.application().test(.live) { client in
            let owner = try await client.signUp(name: "Live Owner")
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            let station = owner.stationID
            let first = Self.broadcast(
                song: song, key: try await LiveSourceTests.key(client, owner), port: port, station: station)
            var show: EntryView?
            while show == nil {
                show = try await Self.window(client, station, as: owner).current.flatMap { $0.source == .live ? $0 : nil }
            }
            // Dropped: the show waits out its grace...
            let second = try await LiveSourceTests.key(client, owner)
            _ = try await first.value
            _ = try await LiveSourceTests.waitFor(client, station, onAir: false)
            let waiting = try #require(try await Self.window(client, station, as: owner).current)
            #expect(waiting.id == show!.id && waiting.durationMs < StationState.liveLength)
            // ...and the source coming back carries it on, in the same entry.
            let again = Self.broadcast(song: song, key: second, port: port, station: station)
            defer { again.cancel() }
            _ = try await LiveSourceTests.waitFor(client, station, onAir: true)
            var resumed = try #require(try await Self.window(client, station, as: owner).current)
            while resumed.durationMs < StationState.liveLength {
                try await Task.sleep(for: .milliseconds(50))
                resumed = try #require(try await Self.window(client, station, as: owner).current)
            }
            #expect(resumed.id == show!.id)
            _ = try await LiveSourceTests.key(client, owner)
        }
    }

    /// The station's own radio stream plays the show too: its title turns
    /// to the show's, and what follows is the source's audio re-encoded.
    @Test func theStationsStreamPlaysTheShow() async throws {
        let server = try await TestServer.make(configure: { $0.liveGracePeriod = .seconds(1) })
        let song = try await LiveSourceTests.song()
        defer { try? FileManager.default.removeItem(atPath: song) }
        try await server.application().test(.live) { client in
            let owner = try await client.signUp(name: "Live Owner")
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            let station = owner.stationID
            let response = try await StreamTests.open(client.port!, "/stream/\(station).mp3")
            var reader = StreamTests.IcyReader(interval: 16_000)
            var body = response.body.makeAsyncIterator()
            while reader.titles.isEmpty, let part = try await body.next() { reader.take(part.readableBytesView) }
            let source = Self.broadcast(
                song: song, key: try await LiveSourceTests.key(client, owner), port: port, station: station)
            defer { source.cancel() }
            // Bounded: a minute of the stream (a block per second at 128 kbps).
            while reader.lastTitle != "Live Owner - Late Jazz", reader.titles.count < 60, let part = try await body.next() {
                reader.take(part.readableBytesView)
            }
            #expect(reader.lastTitle == "Live Owner - Late Jazz")
            print("the stream named the live show after \(reader.titles.count) title blocks: \(reader.titles.compactMap { $0 })")
            // Past what the encoder held of the song before (3 s at 128 kbps).
            let audioBefore = reader.audio.count + 48_000
            while reader.audio.count < audioBefore + 64_000, let part = try await body.next() {
                reader.take(part.readableBytesView)
            }
            try #require(reader.audio.count >= audioBefore + 64_000, "the stream ended")
            // The show's stretch of the stream is real MP3 with sound in it.
            let stretch = Array(reader.audio[audioBefore...])
            let level = try await Self.loudness(ofMP3: stretch)
            print("the show's stretch of the stream: \(level)")
            #expect(
                level.samples > 0 && level.meanDb > -60,
                "the show's part of the stream is silent: \(level), \(stretch.count) bytes starting \(stretch.prefix(16).map { String(format: "%02x", $0) }.joined())")
            _ = try await LiveSourceTests.key(client, owner)
        }
    }

    /// The show's songs are named from its audio and kept in history while
    /// it airs.
    @Test func aLibrarySongPlayedLiveIsNamedInHistoryWhileTheShowAirs() async throws {
        let root = try await IdentifyTests.library()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let server = try await TestServer.make(libraryRoots: [root]) {
            $0.analyzeAudio = true
            $0.liveGracePeriod = .seconds(1)
        }
        try await server.application().test(.live) { client in
            await server.services.analysis.analyzeAll()
            let owner = try await client.signUp(name: "Vinyl Owner")
            let port = try #require(await server.services.liveSourceServer?.bound.port)
            let station = owner.stationID
            let source = Self.broadcast(
                song: root + "/Melodies/Seeded/02 Second Tune.mp3", key: try await LiveSourceTests.key(client, owner),
                port: port, station: station)
            defer { source.cancel() }
            var heard: EntryView?
            var plays: [EntryView] = []
            // Bounded: the song is 40 s long; a clip is 12 s.
            for _ in 0..<300 where heard == nil {
                try await Task.sleep(for: .milliseconds(200))
                plays = try await client.send("/api/stations/\(station)/history", .get, as: owner).decode([EntryView].self)
                heard = plays.first { $0.track.title == "Second Tune" }
            }
            if heard == nil { print("history holds \(plays.map { "\($0.source) \($0.track.title) \($0.track.id)" })") }
            try #require(heard != nil)
            #expect(heard?.source == .heard && heard?.why == "Heard on the live show")
            // Written while the show is still on the air.
            #expect(try await Self.window(client, station, as: owner).current?.source == .live)
            // "What was on at …" a moment inside the song answers with it.
            let at = heard!.start + 5_000
            let answer = try await client.send("/api/stations/\(station)/history?at=\(at)", .get, as: owner)
                .decode([EntryView].self)
            #expect(answer.first?.track.title == "Second Tune")
            _ = try await LiveSourceTests.key(client, owner)
        }
    }
}
