import Foundation
import Logging
import NIOCore
import NIOWebSocket
import WavelengthCore
import WavelengthWire

/// Serves one browser broadcast after the upgrade, on its event loop: reads
/// the `start` and `title` messages, asks `LiveSources` to let the person on
/// the air, and passes each binary message (MediaRecorder's audio) to the
/// broadcast's transcoder. Sits after NIO's frame decoder and the frame
/// aggregator; an `IdleStateHandler` before it ends a silent broadcast.
final class BroadcastSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private enum State {
        case waiting
        /// `idle`: the idle timeouts that have passed while `LiveSources`
        /// decides. The page waits for `onAir` then, and sends nothing: that
        /// is the server's wait, not a silent broadcast (see
        /// `SourceBodyHandler.idlePeriodsToDecide`).
        case deciding(idle: Int)
        case onAir(AsyncStream<ByteBuffer>.Continuation)
        case closing
    }

    private var state = State.waiting
    private var bitrate = SourceBitrate()
    private let personID: String?
    private let stationID: StationID
    private let address: String
    private let sources: any BrowserSourceDesk
    /// The wall clock the bitrate cap is measured on.
    private let clock: any ServerClock
    private let logger: Logger
    /// How many binary messages may wait for the transcoder; more means the
    /// browser sends faster than real time can take.
    static let maxWaiting = 256

    init(
        personID: String?, stationID: StationID, address: String, sources: any BrowserSourceDesk, clock: any ServerClock,
        logger: Logger
    ) {
        self.clock = clock
        self.personID = personID
        self.stationID = stationID
        self.address = address
        self.sources = sources
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if case .closing = state {
            if frame.opcode == .connectionClose { context.close(promise: nil) }
            return
        }
        switch frame.opcode {
        case .connectionClose:
            // The page pressed Stop: the audio ends, and the source leaves.
            if case .onAir(let feed) = state { feed.finish() }
            state = .closing
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode() ?? .normalClosure
            context.writeAndFlush(wrapOutboundOut(Self.closeFrame(code, context: context)))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            break
        case .text:
            let bytes = frame.unmaskedData.readableBytesView
            guard bytes.count <= BroadcastMessage.maxBytes else {
                return refuse(.badMessage, "A text message is at most \(BroadcastMessage.maxBytes) bytes.", context: context)
            }
            do {
                receive(try JSONDecoder().decode(BroadcastMessage.self, from: Data(bytes)), context: context)
            } catch {
                refuse(.badMessage, LiveController.describe(error), context: context)
            }
        case .binary:
            audio(frame.unmaskedData, context: context)
        default:
            refuse(.badMessage, "Unknown WebSocket frame.", context: context)
        }
    }

    private func receive(_ message: BroadcastMessage, context: ChannelHandlerContext) {
        switch (message, state) {
        case (.start(let title), .waiting):
            guard let personID else {
                return refuse(.signInRequired, "Sign in to go live.", context: context)
            }
            state = .deciding(idle: 0)
            let (sources, stationID, address) = (sources, stationID, address)
            let channel = context.channel
            let loop = context.eventLoop
            let handler = NIOLoopBound(self, eventLoop: loop)
            let bound = NIOLoopBound(context, eventLoop: loop)
            Task {
                let decision = await sources.openBrowser(
                    personID: personID, stationID: stationID, title: title, address: address,
                    close: { channel.close(promise: nil) })
                loop.execute { handler.value.decided(decision, context: bound.value) }
            }
        case (.title(let title), .onAir):
            guard let personID else { return }
            let (sources, stationID) = (sources, stationID)
            Task { await sources.retitle(stationID: stationID, personID: personID, title: title) }
        case (.start, _):
            refuse(.badMessage, "This broadcast has started already.", context: context)
        case (.title, _):
            refuse(.badMessage, "Send start, and wait for onAir, before a title.", context: context)
        }
    }

    private func decided(_ decision: LiveSources.Decision, context: ChannelHandlerContext) {
        guard case .deciding = state else {
            // It closed while being decided: a source let in leaves at once.
            if case .accepted(let sink) = decision { sink.finish() }
            return
        }
        switch decision {
        case .accepted(let sink):
            let (audio, feed) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingOldest(Self.maxWaiting))
            state = .onAir(feed)
            let (stationID, logger) = (stationID, logger)
            Task { await BrowserTranscoder.run(audio, into: sink, stationID: stationID, logger: logger) }
            send(.onAir(stationID: stationID), context: context)
        case .updated:
            break
        case .refused(let status, _, let message):
            let code: ErrorCode =
                switch status {
                case 403 where message.hasPrefix("Mountpoint"): .liveSourceBusy
                case 403: .forbidden
                case 404: .notFound
                case 429: .rateLimited
                default: .internal
                }
            refuse(code, message, context: context)
        }
    }

    private func audio(_ data: ByteBuffer, context: ChannelHandlerContext) {
        guard case .onAir(let feed) = state else {
            return refuse(.badMessage, "Send start, and wait for onAir, before any audio.", context: context)
        }
        let now = clock.now()
        if bitrate.add(data.readableBytes, at: now) {
            logger.info("Browser broadcast on station \(stationID) went over the \(bitrate.capBytesPerSecond * 8 / 1000) kbps cap; closed")
            return refuse(.badMessage, "The audio comes faster than a live show can: at most \(bitrate.capBytesPerSecond * 8 / 1000) kbps.", context: context)
        }
        if case .dropped = feed.yield(data) {
            logger.info("Browser broadcast on station \(stationID) sent faster than it could be decoded; closed")
            refuse(.badMessage, "The audio comes faster than it can be played.", context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            switch state {
            case .deciding(let periods) where periods + 1 < SourceBodyHandler.idlePeriodsToDecide:
                state = .deciding(idle: periods + 1)
            case .deciding:
                logger.warning("Browser broadcast on station \(stationID) was not let in: its check outlasted \(SourceBodyHandler.idlePeriodsToDecide) idle timeouts")
                refuse(.busy, "The server is too busy to put you on the air now. Try again in a minute.", context: context)
            case .waiting, .onAir, .closing:
                logger.info("Browser broadcast on station \(stationID) sent nothing for its idle timeout; closed")
                refuse(.badMessage, "Nothing arrived for 10 seconds: the broadcast ended.", context: context)
            }
        } else if case .end(let code, _) = event as? LiveSocketEvent {
            // `MaskedFramesOnly` found an unmasked frame (RFC 6455 §5.1).
            end(code, context: context)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is NIOWebSocketFrameAggregator.Error {
            refuse(.badMessage, "A message is at most \(WireLimits.maxWebSocketFrameBytes) bytes.", context: context)
        } else {
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The audio ends: the transcoder finishes, and the source leaves.
        if case .onAir(let feed) = state { feed.finish() }
        state = .closing
        context.fireChannelInactive()
    }

    /// Closes with `code` at once: the audio ends, and the source leaves.
    private func end(_ code: WebSocketErrorCode, context: ChannelHandlerContext) {
        if case .closing = state { return }
        if case .onAir(let feed) = state { feed.finish() }
        state = .closing
        context.writeAndFlush(wrapOutboundOut(Self.closeFrame(code, context: context)))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// Says why in a message the page can show, then closes (1008).
    private func refuse(_ code: ErrorCode, _ message: String, context: ChannelHandlerContext) {
        if case .closing = state { return }
        if case .onAir(let feed) = state { feed.finish() }
        state = .closing
        send(.error(code: code.rawValue, message: message), context: context)
        context.writeAndFlush(wrapOutboundOut(Self.closeFrame(.policyViolation, context: context)))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    private func send(_ reply: BroadcastReply, context: ChannelHandlerContext) {
        context.writeAndFlush(
            wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: reply.text))), promise: nil)
    }

    private static func closeFrame(_ code: WebSocketErrorCode, context: ChannelHandlerContext) -> WebSocketFrame {
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
    }
}
