import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOPosix
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

    private static let loop = NIOSingletons.posixEventLoopGroup.next()

    /// A listener behind the live edge gets each piece of audio with the
    /// title it was made under, not the title of the moment it is sent.
    /// (Seen in a loaded run: a player that read nothing while a 4 s voice
    /// clip played was then sent the clip's audio under the next song's
    /// title, and never saw the clip's.)
    @Test func aListenerBehindGetsTheTitleOfTheAudioItIsSent() async throws {
        let stream = Self.stream()
        let joined = try #require(await stream.join(.connection(ConnectionIDs.next()), kind: .stream, on: Self.loop))
        await stream.nowPlaying(artist: "Aurora Vale", title: "Café Nocturne")
        await stream.append(ByteBuffer(bytes: [1, 2, 3]))
        await stream.nowPlaying(artist: "DJ Kay", title: "On the radio")
        await stream.append(ByteBuffer(bytes: [4, 5]))
        await stream.nowPlaying(artist: "Nordlys Trio", title: "Fjord")
        guard case .chunks(let stored, _) = stream.ring.read(from: joined.position) else {
            Issue.record("the listener's audio is gone")
            return
        }
        #expect(stream.ring.end == 5)
        #expect(stored.map { Array($0.chunk.buffer.readableBytesView) } == [[1, 2, 3], [4, 5]])
        #expect(
            stored.map(\.chunk.title) == [
                IcyMetadata(artist: "Aurora Vale", title: "Café Nocturne"),
                IcyMetadata(artist: "DJ Kay", title: "On the radio"),
            ])
        await stream.leave(joined.ticket)
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
        let joined = try #require(await stream.join(.connection(ConnectionIDs.next()), kind: .stream, on: Self.loop))
        #expect(await stream.startedAt == Date(timeIntervalSince1970: Double(clock.start) / 1000))
        await stream.leave(joined.ticket)
        await clock.untilSleeping(until: .seconds(60))
        clock.advance(by: .seconds(59))
        #expect(await stream.isEncoding)
        clock.advance(by: .seconds(1))
        for await _ in retired { break }
        #expect(await !stream.isEncoding)
        #expect(await stream.startedAt == nil)
    }

    /// A listener on its connection's handler: the stream's audio goes out
    /// as it comes, with no task. One whose socket has taken nothing for
    /// the stall timeout, on the stream's clock, is let go and stops
    /// counting, and not before.
    @Test func aListenerWhoseSocketTakesNothingIsLetGoAfterTheStallTimeoutOnTheStreamsClock() async throws {
        let clock = ManualClock()
        let (reports, report) = AsyncStream<StationMachine.StreamAudienceChange>.makeStream()
        let stream = StationStream(
            stationID: "s-stream-stall", grace: .seconds(60), stallTimeout: .seconds(20),
            logger: Logger(label: "test"), metrics: ServerMetrics(), report: { report.yield($0) }, start: { _ in Task {} },
            pacing: Pacing(clock), wall: clock.wall)
        let channel = NIOAsyncTestingChannel()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8000))
        let joined = try #require(await stream.join(.connection(ConnectionIDs.next()), kind: .stream, on: channel.eventLoop))
        let slot = try #require(AddressSlots(perAddress: 1).reserve(address: "127.0.0.1"))
        let listening = StreamListenerHandler.Listening(
            stream: stream, ticket: joined.ticket, position: joined.position, ring: stream.ring, fanout: joined.fanout,
            metaint: nil, metrics: ServerMetrics(), pacing: stream.pacing, slot: slot)
        try await channel.pipeline.addHandler(StreamListenerHandler(listening), position: .first)

        await stream.append(ByteBuffer(bytes: [1, 2, 3]))
        #expect(try await channel.waitForOutboundWrite(as: ByteBuffer.self) == ByteBuffer(bytes: [1, 2, 3]))
        // The player stops reading at 0 s: its socket takes nothing more.
        // (On the channel's loop, done before the clock moves: the handler
        // reads the clock when it hears of it.)
        try await channel.testingEventLoop.executeInContext {
            channel.isWritable = false
            channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        }
        await stream.append(ByteBuffer(bytes: [4]))
        // The sweep looks every 5 s.
        await clock.untilSleeping(until: .seconds(5))
        clock.advance(by: .seconds(15))
        await clock.untilSleeping(until: .seconds(20))  // the sweep at 15 s ran
        await channel.testingEventLoop.run()
        #expect(channel.isActive, "15 s is within the timeout")
        #expect(await stream.dropped == 0)
        clock.advance(by: .seconds(10))
        var iterator = reports.makeAsyncIterator()
        guard case .left = await iterator.next() else {
            Issue.record("the stuck listener was not reported gone")
            return
        }
        #expect(await stream.dropped == 1)
        #expect(!channel.isActive)
        #expect(try await channel.readOutbound(as: ByteBuffer.self) == nil, "nothing was sent while the socket took nothing")
    }
}
