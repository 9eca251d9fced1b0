import NIOCore
import NIOHTTP1

/// Answers an HTTP/1.0 request in HTTP/1.0.
///
/// HTTP/1.0 has no chunked bodies, yet the HTTP/1.1 codec answers every
/// request as 1.1 and sends a body of unknown length (the radio stream)
/// chunked: an old player, or any client that speaks 1.0 as Icecast's do,
/// then reads the chunk sizes as audio. Marked 1.0, NIO's encoder frames
/// such a body by closing the connection instead, as Icecast does; a body
/// with a length is sent as it is, and the connection closes after it
/// unless the client asked to keep it alive. (Pipelining is off, so one
/// request is answered at a time.)
final class HTTP10Framing: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var answeringHTTP10 = false
    private var closeAfterAnswer = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            answeringHTTP10 = head.version == .http1_0
            closeAfterAnswer = answeringHTTP10 && !head.isKeepAlive
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard answeringHTTP10 else {
            context.write(data, promise: promise)
            return
        }
        guard case .head(var head) = unwrapOutboundIn(data) else {
            guard closeAfterAnswer, case .end = unwrapOutboundIn(data) else {
                context.write(data, promise: promise)
                return
            }
            let written = promise ?? context.eventLoop.makePromise()
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        head.version = .http1_0
        head.headers.remove(name: "transfer-encoding")
        if closeAfterAnswer || !head.headers.contains(name: "content-length") {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
