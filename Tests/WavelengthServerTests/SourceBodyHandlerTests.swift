import Logging
import NIOCore
import NIOEmbedded
import Testing
import WavelengthCore
@testable import WavelengthServer

/// A source connection while the server decides whether to let it in: the
/// source waits for us then, so the idle timeout is not its fault.
/// On NIO's async testing channel, since the decision comes from a task.
@Suite("Source body handler", .timeLimit(.minutes(5)))
struct SourceBodyHandlerTests {
    /// A decision the test hands over when it chooses.
    let decisions = AsyncStream<LiveSources.Decision>.makeStream()

    func connect(clock: any ServerClock = SystemClock()) async throws -> NIOAsyncTestingChannel {
        let request = SourceRequest.stream(SourceStream(
            stationID: "s1", key: "k", contentType: "audio/mpeg", expectsContinue: true, legacy: false,
            name: nil, genre: nil, description: nil, audioInfo: nil, url: nil))
        let decided = decisions.stream
        let decide: SourceBodyHandler.Decide = { _, _, _ in
            for await decision in decided { return decision }
            return .refused(status: 500, reason: "Internal Server Error", message: "no decision")
        }
        let channel = NIOAsyncTestingChannel()
        try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 9)).get()
        try await channel.testingEventLoop.executeInContext {
            try channel.pipeline.syncOperations.addHandler(
                SourceBodyHandler(
                    request: .success(request), decide: decide, clock: clock, logger: Logger(label: "source-test")))
        }
        return channel
    }

    @Test func aSourceWaitingForItsCheckIsLetInWhenTheCheckOutlastsTheIdleTimeout() async throws {
        let channel = try await connect()
        try await channel.idleTimeoutPasses(times: SourceBodyHandler.idlePeriodsToDecide - 1)
        #expect(channel.isActive)
        #expect(try await channel.readOutbound(as: ByteBuffer.self) == nil)

        let (_, sink) = AsyncStream<ByteBuffer>.makeStream()
        decisions.continuation.yield(.accepted(sink))
        let answer = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
        #expect(String(buffer: answer) == "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\nHTTP/1.0 200 OK\r\n\r\n")
        #expect(channel.isActive)
        // Once it streams, silence is the source's own: it is closed.
        try await channel.idleTimeoutPasses()
        try await channel.closeFuture.get()
    }

    @Test func aCheckThatTakesTooLongIsAnswered503AndTheLateAcceptanceLeavesNothingOnTheAir() async throws {
        let channel = try await connect()
        try await channel.idleTimeoutPasses(times: SourceBodyHandler.idlePeriodsToDecide)
        let answer = String(buffer: try await channel.waitForOutboundWrite(as: ByteBuffer.self))
        #expect(answer.hasPrefix("HTTP/1.0 503 Service Unavailable\r\n"))
        #expect(answer.contains("Retry-After: 60\r\n"))
        try await channel.closeFuture.get()

        // Let in after all: its audio ends at once, so the station is not
        // left on the air with nobody sending.
        await decisions.continuation.acceptTooLate()
    }

    @Test func aRefusalThatComesLateIsStillSaid() async throws {
        let channel = try await connect()
        try await channel.idleTimeoutPasses()
        decisions.continuation.yield(.refused(status: 401, reason: "Unauthorized", message: "Wrong key."))
        let answer = String(buffer: try await channel.waitForOutboundWrite(as: ByteBuffer.self))
        #expect(answer.hasPrefix("HTTP/1.0 401 Unauthorized\r\n"))
        #expect(answer.hasSuffix("\r\n\r\nWrong key.\n"))
        try await channel.closeFuture.get()
    }

    /// The bitrate cap is measured on the handler's clock: 15 chunks of
    /// 60 kB with the clock standing still are over it, and the connection
    /// closes; the same chunks a second apart are at 480 kbps, and it stays.
    @Test(arguments: [true, false])
    func theBitrateCapIsMeasuredOnTheHandlersClock(clockStandsStill: Bool) async throws {
        let clock = ManualClock()
        let channel = try await connect(clock: clock.wall)
        let (_, sink) = AsyncStream<ByteBuffer>.makeStream()
        decisions.continuation.yield(.accepted(sink))
        let answer = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
        #expect(String(buffer: answer) == "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\nHTTP/1.0 200 OK\r\n\r\n")
        for n in 0..<15 {
            let chunk = (n == 0 ? Array("ID3".utf8) : []) + [UInt8](repeating: 0, count: 60_000 - (n == 0 ? 3 : 0))
            try await channel.writeInbound(ByteBuffer(bytes: chunk))
            if !clockStandsStill { clock.advance(by: .seconds(1)) }
        }
        if clockStandsStill {
            try await channel.closeFuture.get()
        } else {
            #expect(channel.isActive)
            _ = try await channel.finish()
        }
    }
}
