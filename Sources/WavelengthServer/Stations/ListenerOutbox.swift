import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import WavelengthCore
import WavelengthWire

/// One WebSocket listener's outgoing messages, written on the connection's
/// own event loop: no task waits per listener.
///
/// Why not a writer task per connection: a popular station holds thousands
/// of idle listeners, and every task a connection keeps alive keeps its
/// stack slabs too (several KB each). A broadcast to 10,000 listeners is
/// then 10,000 small jobs on the event loops, each of which writes whatever
/// is pending and flushes once.
///
/// Each message gets its sequence number (1, 2, 3, …) here, in the order it
/// is written, so the client can tell when it missed one.
final class ListenerOutbox: ListenerQueue {
    /// A listener with more than this many bytes the socket has not taken is
    /// too slow to follow: it is closed, and catches up when it reconnects.
    static let maxUnsentBytes = 256 * 1024

    private struct State {
        var pending: [LiveOutgoing] = []
        var drainScheduled = false
        /// No more messages are taken (the hub finished the queue).
        var finishing = false
        /// Nothing more is written (the session ended, or input was closed).
        var closed = false
        var seq: UInt64 = 0
    }

    private let channel: any Channel
    /// Where the outbox writes its frames, whole: just below the frame
    /// encoder, so a broadcast passes neither the encoder nor the
    /// connection's other handlers (a retain and a release each, per message,
    /// times thousands of listeners), and its frame header goes in the room
    /// left before the message rather than in a second buffer (NIO's encoder
    /// can only prepend to a buffer nothing else holds, which a frame passed
    /// down the pipeline never is: perf showed 8 % of a broadcast's CPU in
    /// its separate header buffers). Set on the event loop.
    private let wire: NIOLoopBoundBox<OutboxWire?>
    private let clock: any ServerClock
    private let window: ReplyWindow
    private let logger: Logger
    private let state = Mutex(State())

    init(channel: any Channel, clock: any ServerClock, window: ReplyWindow, logger: Logger) {
        self.channel = channel
        self.wire = .makeEmptyBox(valueType: OutboxWire.self, eventLoop: channel.eventLoop)
        self.clock = clock
        self.window = window
        self.logger = logger
        // The socket may hold this much before it counts as not writable.
        channel.setOption(
            ChannelOptions.writeBufferWaterMark,
            value: .init(low: Self.maxUnsentBytes / 2, high: Self.maxUnsentBytes)
        ).whenFailure { _ in }
    }

    /// Never refuses: a listener too far behind is let go at the next drain
    /// (its socket is not writable), which the hub learns when the session ends.
    func offer(_ outgoing: LiveOutgoing) -> Bool {
        let schedule = state.withLock { state -> Bool? in
            guard !state.finishing, !state.closed else { return nil }
            state.pending.append(outgoing)
            defer { state.drainScheduled = true }
            return !state.drainScheduled
        }
        guard let schedule else { return true }  // a closing listener drops it quietly
        if schedule { channel.eventLoop.execute { self.drain() } }
        return true
    }

    func finish() {
        let schedule = state.withLock { state -> Bool in
            guard !state.finishing else { return false }
            state.finishing = true
            defer { state.drainScheduled = true }
            return !state.drainScheduled
        }
        if schedule { channel.eventLoop.execute { self.drain() } }
    }

    /// The session is over: nothing more is written (its close frame follows).
    func close() {
        state.withLock { $0.closed = true }
    }

    /// Stops writing the moment any close frame is written (a client that
    /// closed, a server shutting down, a protocol error): no frame may
    /// follow a close frame. From then on the outbox writes its frames
    /// whole, below the encoder. On the event loop; needs the connection's
    /// WebSocket frame encoder.
    func stopAtCloseFrame(_ pipeline: ChannelPipeline.SynchronousOperations) throws {
        let encoder = try pipeline.handler(type: WebSocketFrameEncoder.self)
        try pipeline.addHandler(CloseFrameWatch(outbox: self), position: .after(encoder))
        let wire = OutboxWire()
        try pipeline.addHandler(wire, position: .before(encoder))
        self.wire.value = wire
    }

    /// On the event loop: writes what is pending, flushes once, and ends the
    /// connection (a close frame, see `LiveSocketHandler`) when the queue
    /// was finished.
    private func drain() {
        let (batch, firstSeq, ending) = state.withLock { state -> ([LiveOutgoing], UInt64, Bool) in
            state.drainScheduled = false
            guard !state.closed else { return ([], 0, false) }
            let batch = state.pending
            state.pending.removeAll(keepingCapacity: false)
            let first = state.seq + 1
            state.seq += UInt64(batch.count)
            if state.finishing { state.closed = true }
            return (batch, first, state.finishing)
        }
        if !batch.isEmpty {
            if !channel.isWritable {
                // Already this far behind: don't buffer more for it.
                logger.info(
                    "Letting a listener go: it has not taken \(Self.maxUnsentBytes / 1024) KB already sent",
                    metadata: ["peer": "\(channel.remoteAddress?.description ?? "?")"])
                end()
                return
            }
            let context = wire.value?.context
            var seq = firstSeq
            for outgoing in batch {
                if var message = message(outgoing, seq: seq) {
                    if let context {
                        message.prependTextFrameHeader()
                        context.write(NIOAny(message), promise: nil)
                    } else {
                        channel.write(WebSocketFrame(fin: true, opcode: .text, data: message), promise: nil)
                    }
                }
                if case .text = outgoing {} else { window.written() }
                seq += 1
            }
            if let context { context.flush() } else { channel.flush() }
        }
        if ending { end() }
    }

    /// Ends the connection: its handler sends a close frame and hangs up.
    private func end() {
        state.withLock { $0.closed = true }
        // Answers still pending are never written now: a reader waiting for
        // them to be (backpressure) must not wait forever, or the session
        // never ends and the listener stays counted.
        window.close()
        channel.pipeline.fireUserInboundEventTriggered(LiveSocketEvent.end(.normalClosure, reason: nil))
    }

    /// The message's text with its `seq`, and room before it for a frame header.
    private func message(_ outgoing: LiveOutgoing, seq: UInt64) -> ByteBuffer? {
        let body: String
        switch outgoing {
        case .text(let text), .reply(let text):
            body = text
        case .pong(let nonce, let received):
            let sent = clock.preciseNow()
            guard let text = try? StationHub.encode(
                .pong(nonce: nonce, serverTime: EpochMillis(sent), serverReceived: received, serverSent: sent))
            else { return nil }
            body = text
        }
        // Every message is a JSON object: splice `seq` in as its first member.
        let prefix = "{\"seq\":\(seq),"
        let room = ByteBuffer.textFrameHeaderRoom
        var buffer = channel.allocator.buffer(capacity: room + prefix.utf8.count + body.utf8.count - 1)
        buffer.moveWriterIndex(forwardBy: room)
        buffer.moveReaderIndex(forwardBy: room)
        buffer.writeString(prefix)
        buffer.writeSubstring(body.dropFirst())
        return buffer
    }
}

/// Just below the frame encoder: where the outbox writes its frames, whole.
/// Writes pass through it untouched.
private final class OutboxWire: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private(set) var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }
}

/// Sits just before the frame encoder, where every frame of the WebSocket
/// layer passes, and closes the outbox when a close frame goes by, before it
/// is written.
private final class CloseFrameWatch: ChannelOutboundHandler {
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let outbox: ListenerOutbox

    init(outbox: ListenerOutbox) {
        self.outbox = outbox
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if unwrapOutboundIn(data).opcode == .connectionClose { outbox.close() }
        context.write(data, promise: promise)
    }
}

extension ByteBuffer {
    /// The most a server's frame header takes (RFC 6455 §5.2): 2 bytes,
    /// and 8 more for a 64-bit length.
    static let textFrameHeaderRoom = 10

    /// Writes the header of one final, unmasked text frame (a server's, RFC
    /// 6455 §5.2) into the room before the readable bytes, and makes it
    /// readable. The readable bytes are the payload.
    mutating func prependTextFrameHeader() {
        let length = readableBytes
        let size = length < 126 ? 2 : length <= Int(UInt16.max) ? 4 : 10
        precondition(readerIndex >= size, "no room left for the frame header")
        let start = readerIndex - size
        setInteger(UInt8(0x81), at: start)  // FIN, opcode 1 (text)
        switch size {
        case 2: setInteger(UInt8(length), at: start + 1)
        case 4:
            setInteger(UInt8(126), at: start + 1)
            setInteger(UInt16(length), at: start + 2)
        default:
            setInteger(UInt8(127), at: start + 1)
            setInteger(UInt64(length), at: start + 2)
        }
        moveReaderIndex(to: start)
    }
}
