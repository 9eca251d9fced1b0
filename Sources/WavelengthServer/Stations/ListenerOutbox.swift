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
    private let clock: any ServerClock
    private let window: ReplyWindow
    private let logger: Logger
    private let state = Mutex(State())

    init(channel: any Channel, clock: any ServerClock, window: ReplyWindow, logger: Logger) {
        self.channel = channel
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
    /// follow a close frame. On the event loop; needs the connection's
    /// WebSocket frame encoder.
    func stopAtCloseFrame(_ pipeline: ChannelPipeline.SynchronousOperations) throws {
        let encoder = try pipeline.handler(type: WebSocketFrameEncoder.self)
        try pipeline.addHandler(CloseFrameWatch(outbox: self), position: .after(encoder))
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
            var seq = firstSeq
            for outgoing in batch {
                if let frame = frame(outgoing, seq: seq) {
                    channel.write(frame, promise: nil)
                }
                if case .text = outgoing {} else { window.written() }
                seq += 1
            }
            channel.flush()
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

    private func frame(_ outgoing: LiveOutgoing, seq: UInt64) -> WebSocketFrame? {
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
        var buffer = channel.allocator.buffer(capacity: prefix.utf8.count + body.utf8.count - 1)
        buffer.writeString(prefix)
        buffer.writeSubstring(body.dropFirst())
        return WebSocketFrame(fin: true, opcode: .text, data: buffer)
    }
}

/// Sits just before the frame encoder, where every frame passes (the
/// outbox's and the WebSocket layer's), and closes the outbox when a close
/// frame goes by, before it is written.
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
