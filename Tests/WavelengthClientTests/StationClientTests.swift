import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WavelengthLibrary
import WavelengthServer
import WavelengthWire
@testable import WavelengthClient

/// One generated library for every client test in the process.
actor SharedLibrary {
    static let shared = SharedLibrary()
    private var folder: Task<String, any Error>?

    func path() async throws -> String {
        if let folder { return try await folder.value }
        let task = Task {
            try await DemoLibrary.ensure(in: NSTemporaryDirectory() + "wavelength-client-library-\(getpid())")
        }
        folder = task
        return try await task.value
    }
}

/// A server over a generated library, and helpers to wait for client events.
struct LiveServer {
    let services: ServerServices
    let stationID: String
    let ownerKey: String

    static func make(djGracePeriod: Duration = .seconds(20)) async throws -> LiveServer {
        let root = NSTemporaryDirectory() + "wavelength-client-tests-\(UUID().uuidString)"
        let library = try await SharedLibrary.shared.path()
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: root + "/data", libraryRoots: [library], webRoot: nil,
            pingInterval: .seconds(2), demoLibrary: false, djGracePeriod: djGracePeriod, commitLead: .zero)
        let services = try await ServerServices.start(configuration, logger: logger)
        let line = try String(contentsOfFile: root + "/data/owner-keys.txt", encoding: .utf8).split(separator: " ")
        return LiveServer(
            services: services, stationID: String(line[0]),
            ownerKey: String(line[2]).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Waits for the first event that matches, skipping the rest.
func next(
    _ events: inout AsyncStream<StationEvent>.Iterator, where predicate: (StationEvent) -> Bool
) async throws -> StationEvent {
    while let event = await events.next() {
        if predicate(event) { return event }
    }
    throw ClientError.stopped
}

func wallClockMs() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
}

@Suite("Client SDK against a live server", .timeLimit(.minutes(2)))
struct StationClientTests {
    @Test func joinsMidSongAndKnowsTheServerClock() async throws {
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            // A client whose own clock is 37 ms off and 50 ppm fast.
            let sdk = StationClient(
                configuration: ClientConfiguration(serverURL: "http://127.0.0.1:\(client.port!)", stationID: server.stationID),
                clock: DistortedClock(offset: 37, skew: 50e-6))
            var events = sdk.events.makeAsyncIterator()
            await sdk.start()
            guard case .snapshot(let snapshot) = try await next(&events, where: { if case .snapshot = $0 { true } else { false } })
            else { return }
            _ = try await next(&events) { if case .clock(_, _, let samples) = $0 { samples >= 8 } else { false } }
            let serverNow = try #require(await sdk.serverNow())
            #expect(abs(serverNow - wallClockMs()) < 2, "clock error \(serverNow - wallClockMs()) ms")
            let plan = try #require(await sdk.plan())
            #expect(plan.current?.id == snapshot.timeline.current?.id)
            #expect(plan.fileOffsetMs > 0)  // joined mid-song
            #expect(abs(plan.fileOffsetMs - (serverNow - Double(plan.current!.start))) < 1)
            #expect(plan.next?.id == snapshot.timeline.upNext.first?.id)
            await sdk.stop()
        }
    }

    @Test func commandsAreAcknowledgedAndSafeToResend() async throws {
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            let sdk = StationClient(
                configuration: ClientConfiguration(
                    serverURL: "http://127.0.0.1:\(client.port!)", stationID: server.stationID, ownerKey: server.ownerKey))
            var events = sdk.events.makeAsyncIterator()
            await sdk.start()
            _ = try await next(&events) { if case .snapshot = $0 { true } else { false } }
            let window = try #require(await sdk.model.window)
            let playing = try #require(window.current)
            let ack = try await sdk.send(.skip(entryID: playing.id), id: "skip-1")
            #expect(!ack.duplicate)
            _ = try await next(&events) { if case .updated(let w) = $0 { w.revision >= ack.revision } else { false } }
            #expect(await sdk.plan()?.current?.id != playing.id)

            // The network drops; the client comes back by itself and resumes.
            await sdk.dropConnection()
            _ = try await next(&events) { if case .connected = $0 { true } else { false } }
            let again = try await sdk.send(.skip(entryID: playing.id), id: "skip-1")
            #expect(again.duplicate)
            #expect(again.revision == ack.revision)
            await #expect(throws: ClientError.refused(code: "already_played", message: "Entry \(playing.id) has already played.")) {
                try await sdk.send(.skip(entryID: playing.id))
            }
            await sdk.stop()
        }
    }

    @Test func aReconnectCatchesUpAndPlaybackGoesOnMeanwhile() async throws {
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            let base = "http://127.0.0.1:\(client.port!)"
            let listener = StationClient(configuration: ClientConfiguration(serverURL: base, stationID: server.stationID))
            let dj = StationClient(
                configuration: ClientConfiguration(serverURL: base, stationID: server.stationID, ownerKey: server.ownerKey))
            var listenerEvents = listener.events.makeAsyncIterator()
            var djEvents = dj.events.makeAsyncIterator()
            await listener.start()
            await dj.start()
            _ = try await next(&listenerEvents) { if case .clock = $0 { true } else { false } }
            _ = try await next(&djEvents) { if case .snapshot = $0 { true } else { false } }

            // The listener loses the network; the plan keeps answering from the schedule.
            await listener.dropConnection()
            let during = await listener.plan()
            #expect(during?.current != nil)
            let before = await listener.model.revision
            let track = try #require(await dj.model.window?.upNext.last?.track)
            let ack = try await dj.send(.queueNext(trackID: track.id))
            // Back online it gets the change it missed.
            let event = try await next(&listenerEvents) {
                switch $0 {
                case .snapshot(let s): s.revision >= ack.revision
                case .updated(let w): w.revision >= ack.revision
                default: false
                }
            }
            _ = event
            let after = await listener.model.revision
            #expect(after == ack.revision)
            #expect(after != before)
            await listener.stop()
            await dj.stop()
        }
    }

    @Test func pauseAndResumeReachEveryClient() async throws {
        let server = try await LiveServer.make()
        try await buildApplication(server.services).test(.live) { client in
            let base = "http://127.0.0.1:\(client.port!)"
            let dj = StationClient(
                configuration: ClientConfiguration(serverURL: base, stationID: server.stationID, ownerKey: server.ownerKey))
            let listener = StationClient(configuration: ClientConfiguration(serverURL: base, stationID: server.stationID))
            var djEvents = dj.events.makeAsyncIterator()
            var listenerEvents = listener.events.makeAsyncIterator()
            await dj.start()
            await listener.start()
            _ = try await next(&djEvents) { if case .role(true, _) = $0 { true } else { false } }
            _ = try await next(&listenerEvents) { if case .clock = $0 { true } else { false } }

            let pause = try await dj.send(.pause)
            _ = try await next(&listenerEvents) { if case .updated(let w) = $0 { w.revision >= pause.revision } else { false } }
            let paused = try #require(await listener.plan())
            #expect(paused.paused)
            let frozenAt = paused.fileOffsetMs

            let resume = try await dj.send(.resume)
            _ = try await next(&listenerEvents) { if case .updated(let w) = $0 { w.revision >= resume.revision } else { false } }
            let playing = try #require(await listener.plan())
            #expect(!playing.paused)
            #expect(playing.current?.id == paused.current?.id || playing.current?.offsetMs == Int64(frozenAt))
            #expect(playing.fileOffsetMs >= frozenAt)
            #expect(playing.fileOffsetMs - frozenAt < 1_000)  // it went on from where it stopped
            await dj.stop()
            await listener.stop()
        }
    }

    @Test func aListenerIsPromotedWhenTheDJDrops() async throws {
        let server = try await LiveServer.make(djGracePeriod: .milliseconds(200))
        try await buildApplication(server.services).test(.live) { client in
            let base = "http://127.0.0.1:\(client.port!)"
            let dj = StationClient(
                configuration: ClientConfiguration(serverURL: base, stationID: server.stationID, ownerKey: server.ownerKey))
            let listener = StationClient(configuration: ClientConfiguration(serverURL: base, stationID: server.stationID))
            var djEvents = dj.events.makeAsyncIterator()
            var listenerEvents = listener.events.makeAsyncIterator()
            await dj.start()
            _ = try await next(&djEvents) { if case .role(true, _) = $0 { true } else { false } }
            await listener.start()
            _ = try await next(&listenerEvents) { if case .role(false, _) = $0 { true } else { false } }

            await dj.stop()
            _ = try await next(&listenerEvents) { if case .dj(_, false) = $0 { true } else { false } }
            _ = try await next(&listenerEvents) { if case .role(true, _) = $0 { true } else { false } }
            #expect(await listener.model.isDJ)
            let ack = try await listener.send(.skip(entryID: nil))
            #expect(!ack.duplicate)
            await listener.stop()
        }
    }
}
