import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WavelengthClient
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
@Suite("The player's output delay", .timeLimit(.minutes(2)))
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
