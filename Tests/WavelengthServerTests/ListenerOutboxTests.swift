import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Synchronization
import Testing
@testable import WavelengthServer

/// A listener's outbox against NIO's embedded channel: what reaches the
/// socket, in which order, and when the connection is let go.
@Suite("Listener outbox", .timeLimit(.minutes(5)))
struct ListenerOutboxTests {
    let channel = EmbeddedChannel()
    let window = ReplyWindow()
    let outbox: ListenerOutbox
    /// How the outbox asked for the connection to end (the live socket
    /// handler's job: a close frame, then hanging up).
    let ends = EndRecorder()

    init() throws {
        outbox = ListenerOutbox(channel: channel, clock: SystemClock(), window: window, logger: Logger(label: "outbox-test"))
        try channel.pipeline.syncOperations.addHandler(ends)
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 9), promise: nil)  // embedded: done at once
    }

    /// The text of every frame written so far.
    func written() throws -> [String] {
        var texts: [String] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            #expect(frame.opcode == .text)
            texts.append(String(buffer: frame.unmaskedData))
        }
        return texts
    }

    @Test func messagesAreWrittenInOrderWithSequenceNumbers() throws {
        #expect(outbox.offer(.text(#"{"type":"a"}"#)))
        #expect(outbox.offer(.reply(#"{"type":"b"}"#)))
        #expect(try written().isEmpty)  // nothing until the event loop runs
        channel.embeddedEventLoop.run()
        #expect(outbox.offer(.text(#"{"type":"c"}"#)))
        channel.embeddedEventLoop.run()
        #expect(try written() == [#"{"seq":1,"type":"a"}"#, #"{"seq":2,"type":"b"}"#, #"{"seq":3,"type":"c"}"#])
        #expect(ends.codes.isEmpty)
    }

    @Test func aPongIsStampedWhenWritten() throws {
        _ = outbox.offer(.pong(nonce: "n1", received: 1234.5))
        channel.embeddedEventLoop.run()
        let text = try #require(try written().first)
        #expect(text.hasPrefix(#"{"seq":1,"#))
        #expect(text.contains(#""nonce":"n1""#))
        #expect(text.contains(#""serverReceived":1234.5"#))
    }

    @Test func finishingWritesWhatWaitsThenLetsTheConnectionGo() throws {
        _ = outbox.offer(.text(#"{"type":"ended"}"#))
        outbox.finish()
        _ = outbox.offer(.text(#"{"type":"late"}"#))
        channel.embeddedEventLoop.run()
        #expect(try written() == [#"{"seq":1,"type":"ended"}"#])
        #expect(ends.codes == [.normalClosure])
    }

    @Test func aListenerTooFarBehindIsLetGoInsteadOfBuffered() throws {
        channel.isWritable = false  // the socket holds maxUnsentBytes already
        _ = outbox.offer(.text(#"{"type":"update"}"#))
        channel.embeddedEventLoop.run()
        #expect(try written().isEmpty)
        #expect(ends.codes == [.normalClosure])
    }

    /// A client that floods and never reads fills its reply window, and the
    /// reader waits for the outbox to write the answers. When the outbox
    /// lets that client go instead, the reader must be released: else the
    /// session never ends and the listener stays counted.
    ///
    /// This test awaits, so it may go on on another thread after each
    /// `await`: it uses NIO's async testing channel, whose event loop may be
    /// used from any thread. (`EmbeddedChannel` may be used only from the
    /// thread that made it; with SWIFTNIO_STRICT set, NIO stops the process
    /// when it is not.) Its loop runs a job handed to it from outside at
    /// once, so the outbox is offered the answers on the loop: there they
    /// wait, as they would for a socket that is busy, until the test runs it.
    @Test func aReaderHeldByBackpressureIsReleasedWhenTheListenerIsLetGo() async throws {
        let ends = EndRecorder()
        let channel = await NIOAsyncTestingChannel(handler: ends)
        let window = ReplyWindow()
        let outbox = ListenerOutbox(channel: channel, clock: SystemClock(), window: window, logger: Logger(label: "outbox-test"))
        try await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 9)).get()
        let offerOnTheLoop = { @Sendable in
            _ = try await channel.testingEventLoop.executeInContext { outbox.offer(.reply(#"{"type":"ack"}"#)) }
        }
        for _ in 1..<ReplyWindow.limit {
            try await offerOnTheLoop()
            await window.queued()
        }
        channel.isWritable = false
        try await offerOnTheLoop()
        let reader = Task { [window] in await window.queued() }  // the 64th: waits
        while !window.readerWaits { await Task.yield() }
        await channel.testingEventLoop.run()
        await reader.value
        #expect(ends.codes == [.normalClosure])
    }

    /// A close frame goes out when a client closes, the server shuts down or
    /// a client breaks the protocol; a broadcast must not follow it.
    @Test func nothingFollowsACloseFrame() throws {
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder(), position: .first)
        try outbox.stopAtCloseFrame(channel.pipeline.syncOperations)
        _ = outbox.offer(.text(#"{"type":"before"}"#))
        channel.embeddedEventLoop.run()
        channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer()), promise: nil)
        _ = outbox.offer(.text(#"{"type":"after"}"#))
        channel.embeddedEventLoop.run()
        var wire = ByteBuffer()
        while var part = try channel.readOutbound(as: ByteBuffer.self) { wire.writeBuffer(&part) }
        let text = String(buffer: wire)
        #expect(text.contains(#""type":"before""#))
        #expect(!text.contains(#""type":"after""#))
        #expect(Array(wire.readableBytesView).contains(0x88))  // the close frame went out
    }

    /// Each message goes out as one whole text frame, read back here with
    /// NIO's own frame decoder: its header and `seq` in one small buffer,
    /// and then the message's bytes.
    @Test(arguments: [10, 200, 70_000])
    func eachMessageIsOneWholeFrame(textLength: Int) throws {
        try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder(), position: .first)
        try outbox.stopAtCloseFrame(channel.pipeline.syncOperations)
        let text = #"{"type":"x","text":""# + String(repeating: "é", count: textLength / 2) + #""}"#
        _ = outbox.offer(.text(EncodedMessage(text)))
        _ = outbox.offer(.text(#"{"type":"next"}"#))
        channel.embeddedEventLoop.run()
        var buffers: [ByteBuffer] = []
        while let part = try channel.readOutbound(as: ByteBuffer.self) { buffers.append(part) }

        let decoder = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        for buffer in buffers { try decoder.writeInbound(buffer) }
        let first = try #require(try decoder.readInbound(as: WebSocketFrame.self))
        let second = try #require(try decoder.readInbound(as: WebSocketFrame.self))
        #expect(try decoder.readInbound(as: WebSocketFrame.self) == nil)
        #expect(first.fin && first.opcode == .text && first.maskKey == nil)
        #expect(String(buffer: first.data) == #"{"seq":1,"# + text.dropFirst())
        #expect(String(buffer: second.data) == #"{"seq":2,"type":"next"}"#)
    }

    /// A broadcast to thousands of listeners copies its message to none of
    /// them: every listener's socket is handed the same bytes, and only the
    /// frame header and `seq` are each listener's own.
    @Test func aBroadcastSharesItsBytesWithEveryListener() throws {
        let other = EmbeddedChannel()
        let otherOutbox = ListenerOutbox(channel: other, clock: SystemClock(), window: ReplyWindow(), logger: Logger(label: "outbox-test"))
        other.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 9), promise: nil)
        var bodies: [ByteBuffer] = []
        for (channel, outbox) in [(channel, outbox), (other, otherOutbox)] {
            try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder(), position: .first)
            try outbox.stopAtCloseFrame(channel.pipeline.syncOperations)
        }
        let update = EncodedMessage(#"{"type":"update","timeline":{"upNext":[]}}"#)
        for (channel, outbox) in [(channel, outbox), (other, otherOutbox)] {
            _ = outbox.offer(.text(update))
            channel.embeddedEventLoop.run()
            var buffers: [ByteBuffer] = []
            while let part = try channel.readOutbound(as: ByteBuffer.self) { buffers.append(part) }
            bodies.append(try #require(buffers.last))
        }
        let addresses = bodies.map { body in body.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) } }
        #expect(addresses[0] == addresses[1])
        #expect(addresses[0] == update.rest.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) })
    }

    @Test func nothingIsWrittenAfterTheSessionClosed() throws {
        _ = outbox.offer(.text(#"{"type":"a"}"#))
        outbox.close()
        channel.embeddedEventLoop.run()
        #expect(try written().isEmpty)
        #expect(ends.codes.isEmpty)  // whoever closed the session closes the connection
    }
}

/// Records the `LiveSocketEvent.end`s that reach the end of a pipeline.
/// Sendable, so that a test on NIO's async testing channel, whose loop runs
/// on a thread of its own, can read what it recorded.
final class EndRecorder: ChannelInboundHandler, Sendable {
    typealias InboundIn = Never

    private let recorded = Mutex<[WebSocketErrorCode]>([])

    var codes: [WebSocketErrorCode] { recorded.withLock { $0 } }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case LiveSocketEvent.end(let code, _) = event { recorded.withLock { $0.append(code) } }
        context.fireUserInboundEventTriggered(event)
    }
}
