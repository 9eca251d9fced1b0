import NIOCore

/// Reads a connection's request line before NIO's HTTP decoder does, to
/// tell a radio player (a GET under `/stream/` or `/live/`) from everything
/// else. `LiveUpgradeChannel` serves a player through `StreamConnection`,
/// which hands the connection to a listener handler that keeps no task;
/// anything else gets the HTTP server as usual.
///
/// It holds at most `limit` bytes while the line is incomplete, then passes
/// every byte on unchanged and leaves the pipeline.
final class StreamRequestSniffer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Longer lines are not a stream request (`/stream/{name}` names are short).
    static let limit = 512

    private let isStream: NIOLoopBoundBox<Bool>
    private var held: ByteBuffer?

    init(isStream: NIOLoopBoundBox<Bool>) {
        self.isStream = isStream
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if var held = self.held {
            held.writeBuffer(&incoming)
            self.held = held
        } else {
            self.held = incoming
        }
        guard let held, held.readableBytesView.contains(UInt8(ascii: "\n")) || held.readableBytes >= Self.limit else {
            return
        }
        isStream.value = Self.isStreamRequest(held.readableBytesView.prefix(Self.limit))
        pass(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        pass(context: context)
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client half-closed before its line ended: the decoder decides.
        if case ChannelEvent.inputClosed = event { pass(context: context) }
        context.fireUserInboundEventTriggered(event)
    }

    private func pass(context: ChannelHandlerContext) {
        guard let held else { return }
        self.held = nil
        context.fireChannelRead(wrapInboundOut(held))
        context.fireChannelReadComplete()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// `GET /stream/…` or `GET /live/…` (also in absolute form, `GET http://host/stream/…`).
    static func isStreamRequest(_ line: some Collection<UInt8>) -> Bool {
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("GET ") else { return false }
        var target = text.dropFirst(4).prefix { $0 != " " && $0 != "\r" && $0 != "\n" }
        if let scheme = target.range(of: "://") {
            target = target[scheme.upperBound...].drop { $0 != "/" }
        }
        return target.hasPrefix("/stream/") || target.hasPrefix("/live/")
    }
}
