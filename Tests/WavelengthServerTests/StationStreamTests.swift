import Foundation
import Logging
import NIOCore
import Testing
import WavelengthCore
@testable import WavelengthServer

@Suite("A station's stream", .timeLimit(.minutes(5)))
struct StationStreamTests {
    /// A stream with no encoder: the test appends its output by hand.
    private static func stream() -> StationStream {
        StationStream(
            stationID: "s-stream-test", grace: .seconds(60), stallTimeout: .seconds(60),
            logger: Logger(label: "test"), metrics: ServerMetrics(), report: { _ in }, start: { _ in Task {} })
    }

    /// A listener behind the live edge gets each piece of audio with the
    /// title it was made under, not the title of the moment it is sent.
    /// (Seen in a loaded run: a player that read nothing while a 4 s voice
    /// clip played was then sent the clip's audio under the next song's
    /// title, and never saw the clip's.)
    @Test func aListenerBehindGetsTheTitleOfTheAudioItIsSent() async throws {
        let stream = Self.stream()
        let (ticket, position) = try #require(
            await stream.join(.connection(ConnectionIDs.next()), kind: .stream))
        await stream.nowPlaying(artist: "Aurora Vale", title: "Café Nocturne")
        await stream.append(ByteBuffer(bytes: [1, 2, 3]))
        await stream.nowPlaying(artist: "DJ Kay", title: "On the radio")
        await stream.append(ByteBuffer(bytes: [4, 5]))
        await stream.nowPlaying(artist: "Nordlys Trio", title: "Fjord")
        guard case .chunks(let chunks, let end) = await stream.next(ticket, after: position) else {
            Issue.record("the listener was let go")
            return
        }
        #expect(end == 5)
        #expect(chunks.map { Array($0.buffer.readableBytesView) } == [[1, 2, 3], [4, 5]])
        #expect(
            chunks.map(\.title) == [
                IcyMetadata(artist: "Aurora Vale", title: "Café Nocturne"),
                IcyMetadata(artist: "DJ Kay", title: "On the radio"),
            ])
        await stream.leave(ticket)
    }

    /// The stream's waits run on its injected clock: the encoder stops when
    /// the grace has passed on that clock after the last listener left,
    /// and not a moment before, with no real waiting.
    @Test func theEncoderStopsWhenTheGraceHasPassedOnTheStreamsClock() async throws {
        let clock = ManualClock()
        let (retired, retire) = AsyncStream<Void>.makeStream()
        let stream = StationStream(
            stationID: "s-stream-grace", grace: .seconds(60), stallTimeout: .seconds(60),
            logger: Logger(label: "test"), metrics: ServerMetrics(), report: { _ in }, start: { _ in Task {} },
            retire: { _ in retire.yield() }, pacing: Pacing(clock), wall: clock.wall)
        let (ticket, _) = try #require(await stream.join(.connection(ConnectionIDs.next()), kind: .stream))
        #expect(await stream.startedAt == Date(timeIntervalSince1970: Double(clock.start) / 1000))
        await stream.leave(ticket)
        await clock.untilSleeping(until: .seconds(60))
        clock.advance(by: .seconds(59))
        #expect(await stream.isEncoding)
        clock.advance(by: .seconds(1))
        for await _ in retired { break }
        #expect(await !stream.isEncoding)
        #expect(await stream.startedAt == nil)
    }

    /// A listener whose write has not finished for the stall timeout, on the
    /// stream's clock, stops counting: it is reported gone, and not before.
    @Test func aListenerStuckInAWriteIsCountedGoneAfterTheStallTimeoutOnTheStreamsClock() async throws {
        let clock = ManualClock()
        let (reports, report) = AsyncStream<StationMachine.StreamAudienceChange>.makeStream()
        let stream = StationStream(
            stationID: "s-stream-stall", grace: .seconds(60), stallTimeout: .seconds(20),
            logger: Logger(label: "test"), metrics: ServerMetrics(), report: { report.yield($0) }, start: { _ in Task {} },
            pacing: Pacing(clock), wall: clock.wall)
        let (ticket, position) = try #require(await stream.join(.connection(ConnectionIDs.next()), kind: .stream))
        await stream.append(ByteBuffer(bytes: [1, 2, 3]))
        guard case .chunks = await stream.next(ticket, after: position) else {
            Issue.record("the listener was let go")
            return
        }
        // Its write began at 0 s and never finishes. The sweep looks every 5 s.
        await clock.untilSleeping(until: .seconds(5))
        clock.advance(by: .seconds(15))
        await clock.untilSleeping(until: .seconds(20))  // the sweep at 15 s ran
        #expect(await stream.dropped == 0, "15 s is within the timeout")
        clock.advance(by: .seconds(10))
        var iterator = reports.makeAsyncIterator()
        guard case .left = await iterator.next() else {
            Issue.record("the stuck listener was not reported gone")
            return
        }
        #expect(await stream.dropped == 1)
        await stream.leave(ticket)
    }
}
