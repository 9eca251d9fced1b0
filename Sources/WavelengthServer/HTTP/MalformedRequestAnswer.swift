import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import WavelengthWire

/// Answers a first request that NIO's parser can't read with 400, or 431
/// when its headers are too large, in our JSON error shape, and closes the
/// connection.
///
/// Why it exists: the upgradable pipeline (`LiveUpgradeChannel`) turns NIO's
/// HTTP error handling off, and a parse error in a connection's *first*
/// request fails the upgrade negotiation, which it only logs. The client got
/// no answer and the socket stayed open. Later requests on a connection go
/// through Hummingbird's own loop, which already answers 400, so this handler
/// steps aside (removes itself) once a first request head has been read.
final class MalformedRequestAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        let (status, code, message) = Self.answer(for: parseError)
        let json = (try? JSONEncoder().encode(ErrorBody(message: message, code: code.rawValue))) ?? Data()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Content-Length", value: String(json.count))
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: json)))), promise: nil)
        let channel = context.channel  // a Sendable closure may not capture the context
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// What a client is told about a request it sent that isn't HTTP.
    static func answer(for error: HTTPParserError) -> (HTTPResponseStatus, ErrorCode, String) {
        switch error {
        case .headerOverflow:
            return (.requestHeaderFieldsTooLarge, .tooLarge, "The request's headers are too large.")
        default:
            return (.badRequest, .badRequest, "The request is not valid HTTP/1.1 (\(error)).")
        }
    }
}

/// Wraps the HTTP/1.1 + WebSocket channel so each connection gets a
/// `MalformedRequestAnswer` right after NIO's request decoder.
struct AnsweringMalformedRequests<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(MalformedRequestAnswer(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with live WebSockets (`LiveUpgradeChannel`), answering
    /// malformed first requests (see `MalformedRequestAnswer`).
    static func http1LiveWebSocketsAnsweringMalformedRequests<Routes: HTTPResponderBuilder>(
        webSocketRouter: Routes, maxFrameSize: Int, headTimeout: Duration, keepAliveTimeout: Duration
    ) -> HTTPServerBuilder where Routes.Responder.Context == AppRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return .init { responder in
            AnsweringMalformedRequests(
                inner: LiveUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    http1: .init(idleTimeout: TimeAmount(keepAliveTimeout)), headTimeout: TimeAmount(headTimeout),
                    maxFrameSize: maxFrameSize))
        }
    }
}
