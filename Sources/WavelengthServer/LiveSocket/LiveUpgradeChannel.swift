import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// HTTP/1.1 with WebSocket upgrades, where an upgraded connection is served
/// by NIO handlers alone and keeps no task.
///
/// Why not hummingbird-websocket's channel: it runs each WebSocket's handler
/// in the connection's task for as long as the connection lasts, and a task
/// keeps every stack slab it ever grew (about 20 KB for the WebSocket layers'
/// frames). A popular station holds thousands of idle listeners; here the
/// connection's task ends at the upgrade, and the listener costs only its
/// channel, its handlers and its outbox.
///
/// The upgrade request goes through the router (middleware, authentication,
/// the route's own checks) in a short task. A route accepts it by answering
/// 200 with a starter in `context.liveUpgrade`; anything else refuses it
/// with a bare 400, as NIO's upgrader does.
struct LiveUpgradeChannel<WebSocketResponder: HTTPResponder>: ServerChildChannel, HTTPChannelHandler
where WebSocketResponder.Context == AppRequestContext {
    enum UpgradeResult: Sendable {
        /// The connection now lives in its NIO handlers (a WebSocket, or a
        /// radio player's `StreamConnection`).
        case detached
        case notUpgraded(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        case failedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let upgradeResult: EventLoopFuture<UpgradeResult>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let webSocketResponder: WebSocketResponder
    let http1: HTTP1Channel.Configuration
    /// How long a connection has to send its first request head (`RequestHeadDeadline`).
    let headTimeout: TimeAmount
    /// The largest WebSocket frame a client may send.
    let maxFrameSize: Int

    init(
        responder: @escaping HTTPChannelHandler.Responder, webSocketResponder: WebSocketResponder,
        http1: HTTP1Channel.Configuration = .init(), headTimeout: TimeAmount = .seconds(15), maxFrameSize: Int
    ) {
        self.responder = Self.redirectingLateUpgrades(responder)
        self.webSocketResponder = webSocketResponder
        self.http1 = http1
        self.headTimeout = headTimeout
        self.maxFrameSize = maxFrameSize
    }

    /// A connection's first read buffer. NIO keeps the last one per
    /// connection for its next read, so NIO's 2 KiB default stays with
    /// every parked listener (a stream player or an idle WebSocket sends
    /// nothing after its request); a request head fits in 512 bytes, and a
    /// connection that sends more gets larger buffers as it goes.
    static var readBuffers: AdaptiveRecvByteBufferAllocator {
        AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65_536)
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.readBuffers)
            let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let isStream = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let accepted = NIOLoopBoundBox<LiveUpgradeSlot.Starter?>(nil, eventLoop: channel.eventLoop)
            let headDeadline = NIOLoopBound(RequestHeadDeadline(timeout: headTimeout), eventLoop: channel.eventLoop)
            let upgrader = NIOTypedWebSocketServerUpgrader<UpgradeResult>(
                maxFrameSize: maxFrameSize,
                shouldUpgrade: { channel, head in
                    attempted.value = true
                    return shouldUpgrade(head, channel: channel, logger: logger).map { answer in
                        accepted.value = answer?.starter
                        return answer?.headers
                    }
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        channel.pipeline.syncOperations.removeHandler(headDeadline.value, promise: nil)
                        guard let start = accepted.value else { throw ChannelError.inappropriateOperationForState }
                        accepted.value = nil
                        try start(channel)
                        return .detached
                    }
                }
            )
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<UpgradeResult>(
                upgradeConfiguration: .init(
                    upgraders: [upgrader],
                    notUpgradingCompletionHandler: { channel in
                        channel.eventLoop.makeCompletedFuture {
                            let pipeline = channel.pipeline.syncOperations
                            // The head is in: the deadline for it is done.
                            pipeline.removeHandler(headDeadline.value, promise: nil)
                            if isStream.value, !attempted.value {
                                // A radio player: served by its own handler, with no task.
                                try pipeline.addHandler(HTTP10Framing())
                                try pipeline.addHandler(IcecastFraming())
                                try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                                try pipeline.addHandler(StreamConnection(responder: webSocketResponder, logger: logger))
                                return .detached
                            }
                            try pipeline.addHandler(HTTP10Framing())
                            try pipeline.addHandler(IcecastFraming())
                            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                            try pipeline.addHandlers(http1.additionalChannelHandlers())
                            try pipeline.addHandler(
                                HTTPConnectionStateHandler(idleTimeout: http1.idleTimeout.map { .init($0) }, logger: logger))
                            let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                                wrappingChannelSynchronously: channel,
                                configuration: .init(isOutboundHalfClosureEnabled: true))
                            return attempted.value ? .failedUpgrade(http) : .notUpgraded(http)
                        }
                    }))
            configuration.enablePipelining = false  // HTTP is pipelined by NIOAsyncChannel
            configuration.enableErrorHandling = false  // Hummingbird answers errors
            configuration.enableResponseHeaderValidation = false  // HTTPTypes validates them
            configuration.decoderConfiguration.maxHeaderFieldSize = http1.httpDecoder.maxHeaderFieldSize
            configuration.decoderConfiguration.maxHeaderListSize = http1.httpDecoder.maxHeaderListSize
            configuration.decoderConfiguration.maxHeaderFieldCount = http1.httpDecoder.maxHeaderFieldCount
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: configuration)
            try channel.pipeline.syncOperations.addHandler(StreamRequestSniffer(isStream: isStream), position: .first)
            try channel.pipeline.syncOperations.addHandler(headDeadline.value, position: .first)
            return Value(upgradeResult: negotiated, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgradeResult.get() {
            case .detached:
                return  // the task ends; the connection lives on in its handlers
            case .notUpgraded(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .failedUpgrade(let http):
                logger.debug("WebSocket upgrade refused")
                await answerFailedUpgrade(http, logger: logger)
            }
        } catch let error as ChannelError where error == .inputClosed {
            logger.trace("The connection closed before its first request")
        } catch {
            logger.debug("The connection's first request failed: \(error)")
        }
    }

    private struct Accepted: Sendable {
        let headers: HTTPHeaders
        let starter: LiveUpgradeSlot.Starter
    }

    /// Runs the upgrade request through the router in a task of its own (a
    /// short one: it ends with the answer).
    private func shouldUpgrade(_ head: HTTPRequestHead, channel: any Channel, logger: Logger) -> EventLoopFuture<Accepted?> {
        let promise = channel.eventLoop.makePromise(of: Accepted?.self)
        promise.completeWithTask {
            do {
                let request = Request(
                    head: try HTTPRequest(head, secure: false, splitCookie: false), body: .init(buffer: .init()))
                let context = AppRequestContext(source: .init(channel: channel, logger: logger))
                let response = try await webSocketResponder.respond(to: request, context: context)
                guard response.status == .ok, let starter = context.liveUpgrade.take() else { return nil }
                return Accepted(headers: HTTPHeaders(response.headers), starter: starter)
            } catch {
                return nil
            }
        }
        return promise.futureResult
    }

    private func answerFailedUpgrade(_ http: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, logger: Logger) async {
        do {
            try await http.executeThenClose { _, outbound in
                let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
                try await outbound.write(contentsOf: [.head(head), .end(nil)])
            }
        } catch {
            logger.trace("Could not answer a refused upgrade: \(error)")
        }
    }

    /// NIO's upgrader only looks at a connection's first request. A later
    /// request on a kept-alive connection that asks for an upgrade is sent
    /// back to the same URI on a new connection, as hummingbird-websocket does.
    private static func redirectingLateUpgrades(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        return { request, writer, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                try await responder(request, writer, channel)
                return
            }
            var location = request.uri.path
            if let query = request.uri.query { location += "?\(query)" }
            try await writer.writeResponse(
                HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: location]))
            throw RedirectedUpgrade()
        }
    }
}

/// Ends a connection whose late upgrade request was redirected.
private struct RedirectedUpgrade: Error {}
