import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthClient
import WavelengthCore
import WavelengthServer

/// Each output route's measured delay: a calibration's residual adds to
/// the route's correction, an absurd total is refused and changes
/// nothing, the oldest route goes past the limit, and the file survives.
@Suite("Output delays per route")
struct OutputDelaysTests {
    @Test func aResidualAddsToItsRouteAndAnAbsurdTotalChangesNothing() throws {
        var delays = OutputDelays()
        try delays.apply(residualMs: 148.2, to: "pulse:bt-speaker", at: 1)
        try delays.apply(residualMs: 1.3, to: "pulse:bt-speaker", at: 2)
        #expect(abs(delays.delay(for: "pulse:bt-speaker") - 149.5) < 1e-9)
        #expect(delays.delay(for: "pulse:headphones") == 0)
        #expect(throws: OutputDelayError.absurd(2149.5)) { try delays.apply(residualMs: 2000, to: "pulse:bt-speaker", at: 3) }
        #expect(throws: OutputDelayError.self) { try delays.apply(residualMs: -80, to: "pulse:headphones", at: 3) }
        #expect(throws: OutputDelayError.self) { try delays.apply(residualMs: .nan, to: "pulse:headphones", at: 3) }
        #expect(abs(delays.delay(for: "pulse:bt-speaker") - 149.5) < 1e-9, "the correction in place stays")
        for route in 0..<OutputDelays.maxRoutes { try delays.apply(residualMs: 10, to: "route-\(route)", at: Double(10 + route)) }
        #expect(delays.routes.count == OutputDelays.maxRoutes)
        #expect(delays.delay(for: "pulse:bt-speaker") == 0, "the oldest measurement went")
    }

    @Test func theFileIsTheUsersAloneAndAGarbledOneReadsAsNone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("delays-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = OutputDelayFile(path: folder.appendingPathComponent("output-delays.json").path)
        var delays = OutputDelays()
        try delays.apply(residualMs: 150, to: "pulse", at: 1)
        try file.save(delays)
        #expect(file.load() == delays)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: file.path))
        #expect(file.load() == OutputDelays())
    }
}

/// The SDK's player hands the sound over earlier by its route's delay, so
/// what is heard is on time: the output runs that much ahead of the plan,
/// and the status (what is heard) does not.
@Suite("The player's output delay", .timeLimit(.minutes(5)))
struct PlayerOutputDelayTests {
    @Test func theOutputRunsAheadByTheRoutesDelay() async throws {
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            let host = try await client.signUp("Host")
            let sdk = StationClient(
                configuration: ClientConfiguration(serverURL: "http://127.0.0.1:\(client.port!)", stationID: host.stationID))
            var events = sdk.events.makeAsyncIterator()
            await sdk.start()
            _ = try await next(&events) { if case .clock = $0 { true } else { false } }
            let output = SilentAudioOutput()
            let player = StationPlayer(client: sdk, output: output)
            var delays = OutputDelays()
            try delays.apply(residualMs: 150, to: output.name, at: 1)
            await player.setOutputDelay(delays.delay(for: output.name))
            await player.step()
            let expected = try #require(await player.status.expectedMs)
            let handedOver = try #require(await output.position())
            // Read a moment after the plan, so a slow machine only makes
            // the output further ahead; without the correction it would be
            // level with the plan.
            #expect(handedOver - expected > 100, "the output is ahead by the route's 150 ms: \(handedOver) vs \(expected)")
            await sdk.stop()
        }
    }
}

/// The SDK as a speaker in a room calibration: it answers the phone's call,
/// plays its chirps through its output at its slot (less its correction),
/// and takes the phone's figure into its route's correction and file.
@Suite("The SDK in a room calibration", .timeLimit(.minutes(5)))
struct RoomCalibrationSpeakerTests {
    @Test func itAnswersPlaysInItsSlotAndKeepsTheFigure() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("speaker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = OutputDelayFile(path: folder.appendingPathComponent("output-delays.json").path)
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            let host = try await client.signUp("Host")
            func sdk() -> StationClient {
                StationClient(configuration: ClientConfiguration(serverURL: "http://127.0.0.1:\(client.port!)", stationID: host.stationID))
            }
            let phone = sdk()
            let speakerClient = sdk()
            var phoneEvents = phone.events.makeAsyncIterator()
            var speakerEvents = speakerClient.events.makeAsyncIterator()
            await phone.start()
            await speakerClient.start()
            _ = try await next(&phoneEvents) { if case .clock = $0 { true } else { false } }
            _ = try await next(&speakerEvents) { if case .clock = $0 { true } else { false } }
            let output = RecordingOutput()
            let player = StationPlayer(client: speakerClient, output: output)
            var delays = OutputDelays()
            try delays.apply(residualMs: 20, to: output.name, at: 1)
            try file.save(delays)
            let reloaded = RoomCalibrationSpeaker(client: speakerClient, player: player, output: output, delays: file, name: "Den TV")
            await reloaded.start()
            #expect(await player.outputDelayMs == 20, "the route's stored correction is applied at start")

            func signal(_ events: inout AsyncStream<StationEvent>.Iterator) async throws -> RoomSignal {
                guard case .room(let signal) = try await next(&events, where: { if case .room = $0 { true } else { false } }) else {
                    throw CancellationError()
                }
                return signal
            }
            // The phone calls; the call comes back to it alone, with its code,
            // which the speaker (another device, no one's signed in) types.
            await phone.sendRoom(RoomSignal(kind: .call, session: "s1", name: "Phone"))
            let called = try await signal(&phoneEvents)
            let code = try #require(called.code)
            #expect(called.kind == .call && called.session == "s1")
            await reloaded.join(code: code)
            #expect(await reloaded.handle(try await signal(&speakerEvents)) == .joined(session: "s1"))
            let join = try await signal(&phoneEvents)
            #expect(join.kind == .join && join.name == "Den TV" && join.device == reloaded.device)
            let slot = Int64(try #require(await phone.serverNow())) + 1500
            await phone.sendRoom(RoomSignal(kind: .plan, session: "s1", slots: [.init(device: reloaded.device, at: slot)]))
            let planned = try await signal(&speakerEvents)
            let local = try #require(await speakerClient.localTime(ofServer: Double(slot)))
            guard case .played(let at) = await reloaded.handle(planned) else { Issue.record("no chirps"); return }
            // Handed over the route's 20 ms early (the two reads of the
            // clock are a moment apart; a moment is far less than 20 ms).
            #expect(abs((local - at) - 20) < 5, "slot at \(local), played at \(at)")
            let played = try #require(await output.starts.last)
            let wav = try Data(contentsOf: URL(fileURLWithPath: played.url))
            #expect(wav.prefix(4) == Data("RIFF".utf8) && wav.count > 48_000)

            // Another listener, who read the session and the device's id,
            // forges a figure: the server refuses it, so the next figures
            // the speaker gets are the phone's (a forged one was applied and
            // saved before).
            let mallory = sdk()
            var malloryEvents = mallory.events.makeAsyncIterator()
            await mallory.start()
            _ = try await next(&malloryEvents) { if case .clock = $0 { true } else { false } }
            await mallory.sendRoom(RoomSignal(kind: .result, session: "s1", results: [.init(device: reloaded.device, delayMs: 1999)]))
            _ = try await next(&malloryEvents) { if case .refused(_, let code, _) = $0 { code == "calibration_refused" } else { false } }
            await mallory.stop()

            await phone.sendRoom(RoomSignal(kind: .result, session: "s1", results: [.init(device: reloaded.device, delayMs: 130.5)]))
            let figures = try await signal(&speakerEvents)
            #expect(figures.sender == planned.sender)
            let outcome = await reloaded.handle(figures)
            #expect(outcome == .corrected(totalMs: 150.5), "\(figures) → \(String(describing: outcome))")
            #expect(await player.outputDelayMs == 150.5)
            #expect(file.load().delay(for: output.name) == 150.5)
            await phone.stop()
            await speakerClient.stop()
        }
    }
}
