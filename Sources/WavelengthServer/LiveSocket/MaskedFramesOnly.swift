import NIOCore
import NIOWebSocket

/// A client must mask every frame it sends (RFC 6455 §5.1), and a server
/// that receives an unmasked one must close the connection: this handler,
/// ahead of the frame aggregator (which drops the mask of what it joins),
/// ends the socket with 1002 on the first unmasked frame and passes nothing
/// more on.
final class MaskedFramesOnly: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let frame = unwrapInboundIn(data)
        guard frame.maskKey != nil else {
            refused = true
            context.fireUserInboundEventTriggered(
                LiveSocketEvent.end(.protocolError, reason: "Client frames must be masked."))
            return
        }
        context.fireChannelRead(data)
    }
}
