import NIOCore
import NIOWebSocket

/// Finds listeners that vanished without closing (a phone that lost its
/// network, a crashed app): after `interval` with no bytes from the client
/// it sends a WebSocket ping, and after another such interval it closes the
/// connection. Any bytes count, a pong or anything else.
///
/// Why not the WebSocket layer's auto-ping: that keeps a task asleep per
/// connection, and a popular station holds thousands of idle listeners. This
/// is NIO's `IdleStateHandler` timer and two small handlers per connection,
/// at the front of its pipeline, on its event loop.
enum ListenerLiveness {
    /// Installs the check on a WebSocket connection, on its event loop.
    static func install(on pipeline: ChannelPipeline.SynchronousOperations, interval: Duration) throws {
        try pipeline.addHandlers([IdleStateHandler(readTimeout: TimeAmount(interval)), PingOnSilence()], position: .first)
    }
}

/// Pings a silent client once, then closes it if it stays silent.
private final class PingOnSilence: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private var pinged = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pinged = false
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case IdleStateHandler.IdleStateEvent.read = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if pinged {
            context.close(promise: nil)
            return
        }
        pinged = true
        // From the tail of the pipeline, so the WebSocket encoder frames it.
        let ping = WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))
        context.channel.writeAndFlush(ping, promise: nil)
    }
}
