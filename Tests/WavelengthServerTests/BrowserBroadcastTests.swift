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

/// Going live from the browser: MediaRecorder's WebM/Opus over a WebSocket,
/// transcoded by real ffmpeg onto the station's live relay and timeline.
@Suite("Browser broadcast", .timeLimit(.minutes(5)))
struct BrowserBroadcastTests {
    /// A broadcast socket: sends what it is given, and keeps what the server says.
    final class Broadcaster: Sendable {
        enum Out: Sendable {
            case text(String)
            case binary([UInt8])
            case close
        }

        private let outgoing: AsyncStream<Out>.Continuation
        let replies: AsyncStream<String>
        let done: Task<Void, any Error>

        init(port: Int, station: String, token: String?) {
            let (out, outgoing) = AsyncStream<Out>.makeStream()
            let (replies, replying) = AsyncStream<String>.makeStream()
            self.outgoing = outgoing
            self.replies = replies
            done = Task {
                defer { replying.finish() }
                var logger = Logger(label: "broadcaster")
                logger.logLevel = .error
                var configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20)
                if let token { configuration.additionalHeaders[.authorization] = "Bearer \(token)" }
                _ = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)/api/stations/\(station)/broadcast", configuration: configuration,
                    logger: logger
                ) { inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await message in out {
                                switch message {
                                case .text(let text): try await outbound.write(.text(text))
                                case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                                case .close: try await outbound.close(.normalClosure, reason: nil)
                                }
                            }
                        }
                        group.addTask {
                            for try await message in inbound.messages(maxSize: 1 << 16) {
                                if case .text(let text) = message { replying.yield(text) }
                            }
                        }
                        _ = try await group.next()
                        group.cancelAll()
                    }
                }
            }
        }

        func send(_ out: Out) { outgoing.yield(out) }

        /// The next thing the server says, as JSON.
        func reply() async throws -> [String: String] {
            var iterator = replies.makeAsyncIterator()
            guard let text = await iterator.next() else { throw TestFailure("the broadcast socket closed") }
            return try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        }
    }

    /// Twenty seconds of a tone as MediaRecorder would send it.
    static func webm() async throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "wavelength-broadcast-\(UUID().uuidString).webm"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let made = try await Subprocess.run(
            .name("ffmpeg"),
            arguments: [
                "-nostdin", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=660:duration=20",
                "-ac", "1", "-ar", "48000", "-c:a", "libopus", "-b:a", "64k", "-f", "webm", path,
            ], output: .discarded, error: .discarded)
        #expect(made.terminationStatus.isSuccess)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func theOwnerGoesLiveFromTheBrowserAndListenersHearIt() async throws {
        // The mic sends its 20 s at once and then waits while the test reads
        // the timeline and the relay: on a loaded machine that took longer
        // than the 10 s a quiet source is given, the source was closed, and
        // the second broadcast got in. Closing a quiet source has tests of
        // its own (`BroadcastSocketHandlerTests`), so here it waits longer.
        let server = try await TestServer.make(configure: {
            $0.liveGracePeriod = .seconds(1)
            $0.sourceIdleTimeout = .seconds(120)
        })
        let audio = try await Self.webm()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp(name: "Mic Owner")
            let station = owner.stationID
            let mic = Broadcaster(port: client.port!, station: station, token: owner.token)
            mic.send(.text(#"{"type":"start","mimeType":"audio/webm;codecs=opus","title":"Morning Mic"}"#))
            #expect(try await mic.reply() == ["type": "onAir", "stationID": station])
            // MediaRecorder's chunks: 4 KiB each (64 kbps Opus, 250 ms slices, is 2 KiB).
            for start in stride(from: 0, to: audio.count, by: 4_096) {
                mic.send(.binary(Array(audio[start..<min(audio.count, start + 4_096)])))
            }
            // On every listener's timeline, titled as the DJ said.
            var show: EntryView?
            while show == nil {
                show = try await LiveTakeoverTests.window(client, station, as: owner).current.flatMap {
                    $0.source == .live ? $0 : nil
                }
            }
            #expect(show?.track.title == "Morning Mic" && show?.track.artist == "Mic Owner")
            // The relay plays it as MP3.
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(client.port!)/live/\(station).mp3"), timeout: .seconds(30))
            #expect(response.status == .ok)
            var heard = [UInt8]()
            for try await chunk in response.body {
                heard += chunk.readableBytesView
                if heard.count >= 8_000 { break }
            }
            var sniff = MP3Sniff()
            #expect(sniff.read(heard) == .mp3)

            // A second broadcast is refused while this one is on.
            let second = Broadcaster(port: client.port!, station: station, token: owner.token)
            second.send(.text(#"{"type":"start"}"#))
            #expect(try await second.reply()["code"] == "live_source_busy")

            // Stopping ends the show after the grace.
            mic.send(.close)
            _ = try? await mic.done.value
            while try await LiveTakeoverTests.window(client, station, as: owner).current?.source == .live {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    @Test func onlyTheOwnerOrTheHostOnAirMayAndMessagesAreChecked() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            let stranger = try await client.signUp()
            let station = owner.stationID
            func answer(_ token: String?, _ text: String) async throws -> [String: String] {
                let socket = Broadcaster(port: client.port!, station: station, token: token)
                socket.send(.text(text))
                return try await socket.reply()
            }
            let start = #"{"type":"start","mimeType":"audio/webm;codecs=opus"}"#
            #expect(try await answer(stranger.token, start)["code"] == "forbidden")
            #expect(try await answer(nil, start)["code"] == "sign_in_required")
            #expect(try await answer(owner.token, #"{"type":"title","title":"x"}"#)["code"] == "bad_message")
            #expect(try await answer(owner.token, #"{"type":"start","mimeType":"video/mp4"}"#)["code"] == "bad_message")
            #expect(try await answer(owner.token, "not json")["code"] == "bad_message")
            let long = String(repeating: "x", count: 201)
            #expect(try await answer(owner.token, #"{"type":"start","title":"\#(long)"}"#)["code"] == "bad_message")
            // Audio before being let on the air.
            let early = Broadcaster(port: client.port!, station: station, token: owner.token)
            early.send(.binary([1, 2, 3]))
            #expect(try await early.reply()["code"] == "bad_message")
            // Audio that isn't WebM ends the broadcast, and the station leaves live.
            let garbage = Broadcaster(port: client.port!, station: station, token: owner.token)
            garbage.send(.text(start))
            #expect(try await garbage.reply()["type"] == "onAir")
            garbage.send(.binary(Array(repeating: 0x41, count: 40_000)))
            _ = try? await garbage.done.value
            _ = try await LiveSourceTests.waitFor(client, station, onAir: false)
        }
    }
}
