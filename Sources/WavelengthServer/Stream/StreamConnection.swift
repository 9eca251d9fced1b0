import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// A radio player's connection (`StreamRequestSniffer` found a GET under
/// `/stream/` or `/live/`): its one request goes through the router
/// (middleware, authentication, the route's checks) in a short task, as a
/// WebSocket upgrade's does. When the route took the connection
/// (`context.liveUpgrade`), the answer's head goes out and the connection
/// becomes a `StreamListenerHandler` with no task: a task per listener kept
/// every stack slab it grew. Any other answer (an error, a playlist) is
/// written in full and the connection closes, as Icecast's do.
final class StreamConnection<Responder: HTTPResponder>: ChannelInboundHandler, RemovableChannelHandler
where Responder.Context == AppRequestContext {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private let responder: Responder
    private let logger: Logger
    private var head: HTTPRequest?
    private var answering = false

    init(responder: Responder, logger: Logger) {
        self.responder = responder
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if self.head == nil { self.head = head }
        case .body:
            break  // a player's GET has no body worth keeping
        case .end:
            guard let head, !answering else { return }
            answering = true
            answer(head, channel: context.channel)
        }
    }

    private func answer(_ head: HTTPRequest, channel: any Channel) {
        let responder = self.responder
        let logger = self.logger
        Task { @Sendable () async -> Void in
            await StreamConnection.answer(head, channel: channel, responder: responder, logger: logger)
        }
    }

    private static func answer(_ head: HTTPRequest, channel: any Channel, responder: Responder, logger: Logger) async {
        let context = AppRequestContext(source: .init(channel: channel, logger: logger))
        context.liveUpgrade.offerStream()
        let request = Request(head: head, body: .init(buffer: ByteBuffer()))
        var response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            response = (try? error.response(from: request, context: context)) ?? Response(status: .internalServerError)
        } catch {
            logger.error("A stream request failed: \(error)")
            response = Response(status: .internalServerError)
        }
        // What Hummingbird's server adds to its answers, which this
        // connection's bypass.
        response.headers[.date] = StatusController.httpDate(Date())
        if response.status == .ok, let starter = context.liveUpgrade.take() {
            // The head, then the connection is the listener's. The
            // starter runs even when the player already left, so the
            // listener it joined is let go.
            channel.writeAndFlush(HTTPResponsePart.head(response.head), promise: nil)
            channel.eventLoop.execute {
                do {
                    try starter(channel)
                    Self.dropHTTP(from: channel.pipeline)
                } catch {
                    channel.close(promise: nil)
                }
            }
            return
        }
        response.headers[.connection] = "close"
        if response.headers[.contentLength] == nil, let length = response.body.contentLength {
            response.headers[.contentLength] = "\(length)"
        }
        do {
            try await channel.writeAndFlush(HTTPResponsePart.head(response.head)).get()
            try await response.body.write(ChannelBodyWriter(channel: channel))
        } catch {
            logger.trace("Could not answer a stream request: \(error)")
        }
        try? await channel.close()
    }

    /// The HTTP handlers are done with once the listener handler writes
    /// raw audio first in line; they go, with what they hold.
    private static func dropHTTP(from pipeline: ChannelPipeline) {
        let operations = pipeline.syncOperations
        func drop<Handler: RemovableChannelHandler>(_ type: Handler.Type) {
            if let handler = try? operations.handler(type: type) { operations.removeHandler(handler, promise: nil) }
        }
        drop(StreamConnection.self)
        drop(HTTP1ToHTTPServerCodec.self)
        drop(IcecastFraming.self)
        drop(HTTP10Framing.self)
        drop(MalformedRequestAnswer.self)
        drop(ByteToMessageHandler<HTTPRequestDecoder>.self)
        drop(HTTPResponseEncoder.self)
    }
}

/// Writes a non-stream answer's body to the connection.
private struct ChannelBodyWriter: ResponseBodyWriter {
    let channel: any Channel

    mutating func write(_ buffer: ByteBuffer) async throws {
        try await channel.writeAndFlush(HTTPResponsePart.body(buffer)).get()
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await channel.writeAndFlush(HTTPResponsePart.end(trailingHeaders)).get()
    }
}
