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
    /// times thousands of listeners). Each frame is two buffers: its header
    /// and `seq` in one made for this listener, and the message's bytes,
    /// shared by every listener. (NIO's encoder would put the header in a
    /// buffer of its own too, but only behind a frame and its handlers.)
    /// Set on the event loop.
    private let wire: NIOLoopBoundBox<OutboxWire?>
    private let clock: any ServerClock
    private let window: ReplyWindow
    private let logger: Logger
    private let state = Mutex(State())

    let compactUpdates: Bool

    init(channel: any Channel, clock: any ServerClock, window: ReplyWindow, compactUpdates: Bool = true, logger: Logger) {
        self.channel = channel
        self.compactUpdates = compactUpdates
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
                write(outgoing, seq: seq, context: context)
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

    /// Writes one message as one text frame: a small buffer of its own with
    /// the frame header and `{"seq":N,`, then the message's shared bytes
    /// (one `writev` takes both). Below the encoder when `context` is set.
    private func write(_ outgoing: LiveOutgoing, seq: UInt64, context: ChannelHandlerContext?) {
        let rest: ByteBuffer
        switch outgoing {
        case .text(let message), .reply(let message):
            rest = message.rest
        case .pong(let nonce, let received):
            let sent = clock.preciseNow()
            guard let message = try? StationHub.encode(
                .pong(nonce: nonce, serverTime: EpochMillis(sent), serverReceived: received, serverSent: sent))
            else { return }
            rest = message.rest
        }
        // Every message is a JSON object: `seq` goes in as its first member.
        let prefix = "{\"seq\":\(seq),"
        guard let context else {
            var whole = channel.allocator.buffer(capacity: prefix.utf8.count + rest.readableBytes)
            whole.writeString(prefix)
            whole.writeImmutableBuffer(rest)
            channel.write(WebSocketFrame(fin: true, opcode: .text, data: whole), promise: nil)
            return
        }
        let room = ByteBuffer.textFrameHeaderRoom
        var head = channel.allocator.buffer(capacity: room + prefix.utf8.count)
        head.moveWriterIndex(forwardBy: room)
        head.moveReaderIndex(forwardBy: room)
        head.writeString(prefix)
        head.prependTextFrameHeader(payloadLength: head.readableBytes + rest.readableBytes)
        context.write(NIOAny(head), promise: nil)
        context.write(NIOAny(rest), promise: nil)
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
    /// 6455 §5.2) of `payloadLength` bytes into the room before the readable
    /// bytes, and makes it readable. The payload starts with the readable
    /// bytes and may go on in buffers written after this one.
    mutating func prependTextFrameHeader(payloadLength length: Int) {
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
