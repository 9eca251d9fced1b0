import NIOCore
import WavelengthCore

/// One stream listener, once its answer's head is sent: the connection's
/// only handler that matters, first in its pipeline, writing the stream's
/// audio straight to the socket.
///
/// It keeps no task: the stream's `StreamFanout` wakes it on its event
/// loop when there is more audio, and it sends whatever its socket can
/// take from the shared ring, from its own position (Icecast's model:
/// a position in a shared queue per listener). A task a listener kept
/// every stack slab it grew (about 39 KB a listener in all, against
/// Icecast's 1.7 KB).
final class StreamListenerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Why a listener went.
    enum Departure: Sendable {
        /// The player closed the connection, or the server is stopping.
        case closed
        /// Its socket took nothing for the stall timeout.
        case stalled
        /// It fell behind the oldest audio the stream keeps.
        case behind
        /// The stream ended (its encoder failed, or its source left).
        case ended
    }

    /// Everything the listener needs, made by the stream route in its
    /// request's task and handed over once the head is written.
    struct Listening: Sendable {
        let stream: StationStream
        let ticket: UInt64
        let position: UInt64
        let ring: SharedStreamRing
        let fanout: StreamFanout
        /// ICY titles every `metaint` bytes, when the player asked for them.
        let metaint: Int?
        let metrics: ServerMetrics
        let pacing: Pacing
        /// The address's stream slot, given back when the listener goes.
        let slot: AddressSlots.Slot
    }

    private let listening: Listening
    private var position: UInt64
    private var interleaver: IcyInterleaver?
    private var context: ChannelHandlerContext?
    /// Since when the socket has refused more (on the stream's clock).
    private var unwritableSince: Duration?
    private var departure: Departure?
    /// The stream was told this listener went.
    private var left = false

    init(_ listening: Listening) {
        self.listening = listening
        position = listening.position
        interleaver = listening.metaint.map { IcyInterleaver(interval: $0) }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        guard context.channel.isActive else {
            leave(.closed)
            return
        }
        listening.fanout.add(listening.ticket, self)
        pump()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        leave(departure ?? .closed)
        self.context = nil
    }

    /// Whatever a player sends once its stream started is dropped.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func channelInactive(context: ChannelHandlerContext) {
        leave(departure ?? .closed)
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            unwritableSince = nil
            pump()
        } else if unwritableSince == nil {
            unwritableSince = listening.pacing.elapsed()
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The server is stopping (`LiveSockets`): a stream never ends by
        // itself, so the stop ends it; the player reconnects to the next run.
        if event is LiveSocketEvent { letGo(.closed) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        letGo(.closed)
    }

    /// Sends what the listener hasn't had yet, as far as its socket takes it.
    func pump() {
        guard let context, departure == nil, context.channel.isWritable else { return }
        switch listening.ring.read(from: position) {
        case .upToDate:
            return
        case .behind:
            letGo(.behind)
        case .chunks(let stored, let skip):
            for (index, piece) in stored.enumerated() {
                var buffer = piece.chunk.buffer
                if index == 0 { buffer.moveReaderIndex(forwardBy: skip) }
                write(buffer, title: piece.chunk.title, context: context)
                position = piece.offset + UInt64(piece.size)
            }
            context.flush()
        }
    }

    private func write(_ buffer: ByteBuffer, title: IcyMetadata, context: ChannelHandlerContext) {
        listening.metrics.streamBytes.increment(by: Int64(buffer.readableBytes))
        guard var planner = interleaver else {
            context.write(wrapOutboundOut(buffer), promise: nil)
            return
        }
        for piece in planner.plan(audioBytes: buffer.readableBytes, current: title) {
            switch piece {
            case .audio(let range):
                context.write(
                    wrapOutboundOut(buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count)!),
                    promise: nil)
            case .metadata(let block):
                context.write(wrapOutboundOut(ByteBuffer(bytes: block.bytes)), promise: nil)
            }
        }
        interleaver = planner
    }

    func letGoIfStalled(now: Duration, timeout: Duration) {
        guard let since = unwritableSince, now - since > timeout else { return }
        letGo(.stalled)
    }

    /// Closes the connection; the stream hears why when it has closed.
    func letGo(_ why: Departure) {
        guard departure == nil, let context else { return }
        departure = why
        context.close(promise: nil)
    }

    /// Tells the stream once that this listener went, and why.
    private func leave(_ why: Departure) {
        guard !left else { return }
        left = true
        if context != nil { listening.fanout.remove(listening.ticket) }
        let (stream, ticket) = (listening.stream, listening.ticket)
        Task { await stream.leave(ticket, because: why) }
    }
}
