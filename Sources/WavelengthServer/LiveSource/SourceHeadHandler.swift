import Logging
import NIOCore
import NIOHTTP1
import WavelengthCore

/// The first handler of a source connection: reads the request head with
/// NIO's HTTP decoder, then takes the HTTP handlers out, because what
/// follows is not HTTP. Broadcast software sends its audio as the body of a
/// request that has neither a length nor chunks (libshout, ffmpeg), which
/// HTTP would read as no body at all. From then on `SourceBodyHandler` sees
/// the raw bytes, the decoder's leftovers first.
final class SourceHeadHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    private let sources: LiveSources
    private let logger: Logger
    private var head: HTTPRequestHead?

    init(sources: LiveSources, logger: Logger) {
        self.sources = sources
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            // A chunked body (liquidsoap's `chunked=true`) is HTTP to the
            // end: its request never ends, so it is decided at its head, and
            // the decoder stays to take the chunks' framing off.
            if head.headers["Transfer-Encoding"].contains(where: { $0.lowercased().contains("chunked") }) {
                start(head, context: context, chunked: true)
            } else {
                self.head = head
            }
        case .body:
            break  // no unchunked source request has a framed body; the audio comes unframed after `.end`
        case .end:
            guard let head else { return }
            self.head = nil
            start(head, context: context, chunked: false)
        }
    }

    private func start(_ head: HTTPRequestHead, context: ChannelHandlerContext, chunked: Bool) {
        let request = SourceRequest.parse(
            method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) })
        let sources = self.sources
        let body = SourceBodyHandler(
            request: request, decide: { await sources.open($0, address: $1, channel: $2) }, clock: sources.clock,
            logger: logger)
        do {
            let pipeline = context.pipeline.syncOperations
            try pipeline.addHandler(body, position: .after(self))
            if chunked {
                try pipeline.addHandler(SourceChunks(), position: .after(self))
            } else {
                let decoder = try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
                pipeline.removeHandler(context: decoder, promise: nil)
            }
            pipeline.removeHandler(context: context, promise: nil)
        } catch {
            logger.warning("A source connection could not be set up: \(error)")
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // A connection that never finishes its request head holds nothing.
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            logger.info("A source connection sent no request head in its idle timeout; closed")
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Not HTTP at all: there is nothing to answer.
        logger.info("A source connection sent no valid request: \(error)")
        context.close(promise: nil)
    }
}

/// A chunked source's body as the raw audio `SourceBodyHandler` reads:
/// each chunk's bytes; the body's end is the source's end.
final class SourceChunks: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .body(let chunk): context.fireChannelRead(wrapInboundOut(chunk))
        case .head, .end: context.close(promise: nil)  // the show is over; no second request follows a source
        }
    }
}
