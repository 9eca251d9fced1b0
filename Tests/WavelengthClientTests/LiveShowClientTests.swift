import Foundation
import Hummingbird
import HummingbirdTesting
import Subprocess
import Testing
import WavelengthServer
import WavelengthWire
@testable import WavelengthClient

/// An output that keeps every start it is asked for.
actor RecordingOutput: AudioOutput {
    nonisolated let name = "recording"
    private(set) var starts: [(url: String, offset: Double)] = []
    /// The client-clock instant of each start.
    private(set) var instants: [Double] = []

    func play(url: String, fileOffsetMs: Double, at: Double, gainDb: Double) async throws {
        starts.append((url, fileOffsetMs))
        instants.append(at)
    }

    func stop() async {}

    /// Far from any plan: a file would be re-seeked at once.
    func position() async -> Double? { 1_000_000 }
}

@Suite("SDK: live shows", .timeLimit(.minutes(5)))
struct LiveShowClientTests {
    /// A live show reaches the SDK as an entry whose audio is the live
    /// relay: the player starts it once, from where it is, and never
    /// re-seeks it the way it corrects a file.
    @Test func thePlayerPlaysALiveShowAsAStream() async throws {
        let server = try await LiveServer.make(liveSources: true)
        try await buildApplication(server.services).test(.live) { client in
            let owner = try await client.signUp("LiveDJ")
            let keyAnswer = try await client.execute(
                uri: "/api/me/stream-key", method: .post, headers: [.authorization: "Bearer \(owner.token)"])
            let key = try #require(try JSONDecoder().decode(StreamKeyView.self, from: Data(buffer: keyAnswer.body)).key)
            let port = try #require(await server.services.liveSourcePort)
            let sdk = StationClient(
                configuration: ClientConfiguration(serverURL: "http://127.0.0.1:\(client.port!)", stationID: owner.stationID))
            var events = sdk.events.makeAsyncIterator()
            await sdk.start()
            _ = try await next(&events) { if case .clock = $0 { true } else { false } }
            let output = RecordingOutput()
            let player = StationPlayer(client: sdk, output: output, maxDrift: 100, cooldown: 0)

            let source = Task {
                try await Subprocess.run(
                    .name("ffmpeg"),
                    arguments: [
                        "-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
                        "sine=frequency=440:duration=60", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k",
                        "-content_type", "audio/mpeg", "-f", "mp3",
                        "icecast://source:\(key)@127.0.0.1:\(port)/live/\(owner.stationID)",
                    ], output: .discarded, error: .discarded)
            }
            defer { source.cancel() }
            // Bounded: the source is on within seconds.
            var live: EntryView?
            for _ in 0..<600 where live?.source != .live {
                try await Task.sleep(for: .milliseconds(50))
                await player.step()
                live = await player.status.entry
            }
            let show = try #require(live)
            #expect(show.source == .live)
            // With the client's device key, which its WebSocket says too: one listener.
            #expect(await output.starts.last?.url
                == "http://127.0.0.1:\(client.port!)/live/\(owner.stationID).mp3?edge=1&listener=\(sdk.deviceKey)")
            #expect(await output.starts.last?.offset == 0)
            let started = await output.starts.count
            // Far "off" its plan, and still never re-seeked.
            await player.step()
            await player.step()
            #expect(await output.starts.count == started)
            await sdk.stop()
        }
    }
}
