import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
import WavelengthCore
@testable import WavelengthServer

/// A browser broadcast while the server decides whether to put it on the
/// air: the page waits for `onAir` and sends nothing, so the idle timeout
/// is the server's wait, not a silent broadcast.
@Suite("Browser broadcast socket", .timeLimit(.minutes(5)))
struct BroadcastSocketHandlerTests {
    /// Live sources whose decision the test hands over when it chooses.
    struct HeldDesk: BrowserSourceDesk {
        let decisions: AsyncStream<LiveSources.Decision>

        func openBrowser(
            personID: String, stationID: StationID, title: String?, address: String, close: @escaping @Sendable () -> Void
        ) async -> LiveSources.Decision {
            for await decision in decisions { return decision }
            return .refused(status: 500, reason: "Internal Server Error", message: "no decision")
        }

        func retitle(stationID: StationID, personID: String, title: String) async {}
    }

    let decisions = AsyncStream<LiveSources.Decision>.makeStream()

    /// A broadcast socket just upgraded.
    func opened() async throws -> NIOAsyncTestingChannel {
        let desk = HeldDesk(decisions: decisions.stream)
        let channel = NIOAsyncTestingChannel()
        try await channel.testingEventLoop.executeInContext {
            try channel.pipeline.syncOperations.addHandler(BroadcastSocketHandler(
                personID: "p1", stationID: "s1", address: "127.0.0.1", sources: desk, clock: SystemClock(),
                logger: Logger(label: "broadcast-test")))
        }
        try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 9)).get()
        return channel
    }

    /// A broadcast that has sent `start` and waits.
    func started() async throws -> NIOAsyncTestingChannel {
        let channel = try await opened()
        try await channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: #"{"type":"start","title":"Night"}"#)))
        return channel
    }

    /// The next text frame the page is sent.
    func nextText(_ channel: NIOAsyncTestingChannel) async throws -> String {
        while true {
            let frame = try await channel.waitForOutboundWrite(as: WebSocketFrame.self)
            if frame.opcode == .text { return String(buffer: frame.data) }
        }
    }

    @Test func aBroadcastWaitingForItsCheckHearsTheAnswerWhenTheCheckOutlastsTheIdleTimeout() async throws {
        let channel = try await started()
        try await channel.idleTimeoutPasses(times: SourceBodyHandler.idlePeriodsToDecide - 1)
        #expect(channel.isActive)
        #expect(try await channel.readOutbound(as: WebSocketFrame.self) == nil)

        decisions.continuation.yield(.refused(status: 403, reason: "Forbidden", message: "Mountpoint in use: this station already has a live source."))
        let text = try await nextText(channel)
        #expect(text.contains(#""code":"live_source_busy""#))
    }

    @Test func aCheckThatTakesTooLongIsToldAsBusyAndTheLateAcceptanceLeavesNothingOnTheAir() async throws {
        let channel = try await started()
        try await channel.idleTimeoutPasses(times: SourceBodyHandler.idlePeriodsToDecide)
        let text = try await nextText(channel)
        #expect(text.contains(#""code":"busy""#))
        #expect(text.contains("too busy"))
        try await channel.closeFuture.get()

        await decisions.continuation.acceptTooLate()
    }

    @Test func aBroadcastThatNeverStartsIsEnded() async throws {
        let channel = try await opened()
        // Before `start`, a silence is the page's own.
        try await channel.idleTimeoutPasses()
        let text = try await nextText(channel)
        #expect(text.contains("Nothing arrived"))
        try await channel.closeFuture.get()
    }
}
