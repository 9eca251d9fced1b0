import NIOCore
import NIOEmbedded
import NIOWebSocket
import Synchronization
import HummingbirdTesting
import Testing
@testable import WavelengthServer

/// The live WebSocket's own handler against NIO's embedded channel: the
/// close handshake, pings, protocol errors and backpressure, with no server.
@Suite("Live socket handler", .timeLimit(.minutes(5)))
struct LiveSocketHandlerTests {
    let channel = EmbeddedChannel()
    let reads = ReadCounter()
    let closes = Closes()

    init() throws {
        let closes = self.closes
        try channel.pipeline.syncOperations.addHandlers([
            reads,
            LiveSocketHandler(inbox: LiveInbox(channel: channel), clock: SystemClock(), closeTimeout: .seconds(5)) {
                closes.count.withLock { $0 += 1 }
            },
        ])
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 9), promise: nil)
    }

    func send(_ opcode: WebSocketOpcode, _ bytes: [UInt8]) throws {
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: opcode, data: ByteBuffer(bytes: bytes)))
    }

    func sendClose(_ code: WebSocketErrorCode) throws {
        var data = ByteBuffer()
        data.write(webSocketErrorCode: code)
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
    }

    /// Every frame written so far.
    func written() throws -> [WebSocketFrame] {
        var frames: [WebSocketFrame] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) { frames.append(frame) }
        return frames
    }

    func closeCode(_ frame: WebSocketFrame) -> WebSocketErrorCode? {
        guard frame.opcode == .connectionClose else { return nil }
        var data = frame.unmaskedData
        return data.readWebSocketErrorCode()
    }

    @Test func aClientThatClosesIsAnsweredWithItsCodeAndLetGoOnce() throws {
        try sendClose(.goingAway)
        channel.embeddedEventLoop.run()
        let frames = try written()
        #expect(frames.map(closeCode) == [.goingAway])
        #expect(!channel.isActive)
        #expect(closes.count.withLock { $0 } == 1)
    }

    @Test func textThatIsNotUTF8IsClosedWith1007() throws {
        try send(.text, [0x7B, 0xFF, 0xFE, 0x7D])
        #expect(try written().map(closeCode) == [.dataInconsistentWithMessage])
        #expect(channel.isActive)  // the client gets time to answer
        try send(.text, Array("{}".utf8))  // ignored while closing
        #expect(try written().isEmpty)
        try sendClose(.dataInconsistentWithMessage)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
    }

    @Test func aClientThatNeverAnswersTheCloseFrameIsClosedAfterTheTimeout() throws {
        channel.pipeline.fireUserInboundEventTriggered(LiveSocketEvent.end(.policyViolation, reason: "unsupported_version"))
        let frames = try written()
        #expect(frames.map(closeCode) == [.policyViolation])
        var data = try #require(frames.first).unmaskedData
        _ = data.readWebSocketErrorCode()
        #expect(String(buffer: data) == "unsupported_version")
        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
        #expect(closes.count.withLock { $0 } == 1)
    }

    /// A client killed mid-listen sends a FIN and nothing more: the listener
    /// is let go at once, not at the next ping.
    @Test func aClientWhoseEndClosedIsLetGoAtOnce() throws {
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive)
        #expect(closes.count.withLock { $0 } == 1)
    }

    @Test func onlyOneCloseFrameIsSent() throws {
        channel.pipeline.fireUserInboundEventTriggered(LiveSocketEvent.end(.goingAway, reason: nil))
        channel.pipeline.fireUserInboundEventTriggered(LiveSocketEvent.end(.normalClosure, reason: nil))
        #expect(try written().map(closeCode) == [.goingAway])
    }

    @Test func aPingIsAnsweredWithAPongCarryingItsData() throws {
        try send(.ping, Array("abc".utf8))
        let frames = try written()
        #expect(frames.map(\.opcode) == [.pong])
        #expect(String(buffer: try #require(frames.first).unmaskedData) == "abc")
    }

    /// A client whose messages pile up (here: not admitted yet, so none is
    /// handled) is read no further until they drain; TCP then slows it.
    @Test func aClientWithTooManyWaitingMessagesIsNotReadUntilTheyDrain() throws {
        for _ in 1..<LiveInbox.readAhead { try send(.text, Array(#"{"type":"ping"}"#.utf8)) }
        channel.read()
        #expect(reads.count == 1)
        try send(.text, Array(#"{"type":"ping"}"#.utf8))  // the one that fills it
        channel.read()
        channel.read()
        #expect(reads.count == 1)
        channel.pipeline.fireUserInboundEventTriggered(LiveSocketEvent.resumeReading)
        #expect(reads.count == 2)
    }
}

/// Counts the reads that get past the handlers after it.
final class ReadCounter: ChannelOutboundHandler {
    typealias OutboundIn = Never
    private(set) var count = 0

    func read(context: ChannelHandlerContext) {
        count += 1
        context.read()
    }
}

final class Closes: Sendable {
    let count = Mutex(0)
}

/// RFC 6455 §5.1: a server closes the connection on an unmasked client frame.
@Suite("Unmasked client frames")
struct MaskedFramesOnlyTests {
    @Test func anUnmaskedFrameIsClosedWith1002AndAMaskedOneGoesThrough() throws {
        for masked in [true, false] {
            let channel = EmbeddedChannel()
            let inbox = LiveInbox(channel: channel)
            try channel.pipeline.syncOperations.addHandlers([
                MaskedFramesOnly(),
                LiveSocketHandler(inbox: inbox, clock: SystemClock(), closeTimeout: .seconds(5)) {},
            ])
            channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 9), promise: nil)
            let key: WebSocketMaskingKey? = masked ? WebSocketMaskingKey([1, 2, 3, 4]) : nil
            var data = ByteBuffer(string: "{}")
            if let key { data.webSocketMask(key) }
            try channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, maskKey: key, data: data))
            var frames: [WebSocketFrame] = []
            while let frame = try channel.readOutbound(as: WebSocketFrame.self) { frames.append(frame) }
            if masked {
                #expect(frames.isEmpty)
            } else {
                var close = try #require(frames.first).unmaskedData
                #expect(frames.first?.opcode == .connectionClose)
                #expect(close.readWebSocketErrorCode() == .protocolError)
            }
            _ = try? channel.finish()
        }
    }
}

/// The same over a real connection, on every WebSocket the server takes: the
/// station's live socket and the booth's broadcast socket. An unmasked frame
/// is answered with a close frame coded 1002.
@Suite("Unmasked client frames on the server's sockets", .timeLimit(.minutes(5)))
struct UnmaskedFramesOverTheNetworkTests {
    @Test func everySocketClosesAnUnmaskedFrameWith1002() async throws {
        let server = try await TestServer.make()
        try await server.application().test(.live) { client in
            let owner = try await client.signUp()
            for path in ["/api/stations/\(owner.stationID)/live", "/api/stations/\(owner.stationID)/broadcast"] {
                let socket = try await SilentSocket.connect(port: client.port!, path: path)
                socket.sendUnmaskedFrame(opcode: 0x1, payload: Array(#"{"type":"ping"}"#.utf8))
                #expect(try await socket.closeCode() == 1002, "\(path)")
            }
        }
    }
}
