import NIOCore
import NIOWebSocket

/// Serves one live WebSocket after the upgrade, on its event loop: answers
/// pings, runs the close handshake, checks text is UTF-8, and hands each
/// message to the connection's `LiveInbox`. It sits at the end of the
/// pipeline, after NIO's frame decoder and `NIOWebSocketFrameAggregator`.
///
/// What it answers a client that breaks the protocol, as RFC 6455 asks: a
/// text message that is not UTF-8 gets 1007, a fragmented message larger
/// than the limit 1009, other broken fragments 1002. A frame NIO's decoder
/// can't take (too large, unreadable) is answered by NIO's own
/// `WebSocketProtocolErrorHandler`.
final class LiveSocketHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let inbox: LiveInbox
    private let clock: any ServerClock
    /// How long a client has to answer our close frame before the
    /// connection is closed anyway.
    private let closeTimeout: TimeAmount
    /// Called once, when the connection has closed.
    private let onClose: @Sendable () -> Void

    /// A close frame went out: nothing more is read but the client's own.
    private var closing = false
    private var paused = false
    private var readWaiting = false

    init(inbox: LiveInbox, clock: any ServerClock, closeTimeout: TimeAmount, onClose: @escaping @Sendable () -> Void) {
        self.inbox = inbox
        self.clock = clock
        self.closeTimeout = closeTimeout
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if closing {
            // Waiting for the client's close frame; the rest is dropped.
            if frame.opcode == .connectionClose { context.close(promise: nil) }
            return
        }
        switch frame.opcode {
        case .connectionClose:
            // The client closes: answer with its code, then hang up (the
            // server ends the TCP connection).
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode() ?? .normalClosure
            closing = true
            context.writeAndFlush(wrapOutboundOut(Self.closeFrame(code, reason: nil, context: context)))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            break  // any bytes at all keep the connection alive (`ListenerLiveness`)
        case .text:
            guard let text = String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) else {
                end(.dataInconsistentWithMessage, reason: "Text must be UTF-8.", context: context)
                return
            }
            receive(.text(text), context: context)
        case .binary:
            receive(.binary, context: context)
        default:
            end(.protocolError, reason: nil, context: context)
        }
    }

    func read(context: ChannelHandlerContext) {
        if paused {
            readWaiting = true
        } else {
            context.read()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case LiveSocketEvent.resumeReading:
            paused = false
            if readWaiting {
                readWaiting = false
                context.read()
            }
        case LiveSocketEvent.end(let code, let reason):
            end(code, reason: reason, context: context)
        case ChannelEvent.inputClosed:
            // The client's end is gone (its process killed, its network
            // down): the server allows half-closed connections for HTTP, so
            // without this the listener stayed counted until the next ping.
            context.close(promise: nil)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge,
            NIOWebSocketFrameAggregator.Error.tooManyFragments:
            end(.messageTooLarge, reason: nil, context: context)
        case is NIOWebSocketFrameAggregator.Error:
            end(.protocolError, reason: nil, context: context)
        default:
            context.close(promise: nil)  // a reset, a broken pipe: nobody to tell
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
        context.fireChannelInactive()
    }

    private func receive(_ message: LiveInbox.Message, context: ChannelHandlerContext) {
        if inbox.receive(message, receivedAt: clock.preciseNow()) { paused = true }
    }

    /// Sends a close frame, then closes once the client answers it or
    /// `closeTimeout` passes.
    private func end(_ code: WebSocketErrorCode, reason: String?, context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        context.writeAndFlush(wrapOutboundOut(Self.closeFrame(code, reason: reason, context: context)), promise: nil)
        // Read on (and drop) until the client's close frame: a socket closed
        // with unread input is reset, and a reset can lose the close frame.
        paused = false
        if readWaiting {
            readWaiting = false
            context.read()
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: closeTimeout) {
            context.close(promise: nil)
        }
    }

    private static func closeFrame(_ code: WebSocketErrorCode, reason: String?, context: ChannelHandlerContext) -> WebSocketFrame {
        var data = context.channel.allocator.buffer(capacity: 2 + (reason?.utf8.count ?? 0))
        data.write(webSocketErrorCode: code)
        if let reason { data.writeString(reason) }
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
    }
}
