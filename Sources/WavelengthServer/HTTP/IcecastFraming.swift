import Hummingbird
import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1

/// Sends a radio stream's answer the way Icecast does: `HTTP/1.0 200 OK`
/// and the audio raw until the connection closes, never HTTP/1.1's chunks.
/// A player that doesn't de-chunk (hardware radios, small ICY libraries)
/// otherwise reads chunk sizes as audio, and counts them into the bytes
/// between ICY titles, where they turn into junk titles.
///
/// A route asks for it with the `streamFraming` header, which this handler
/// takes off: Hummingbird writes every answer as HTTP/1.1, so the version
/// is set here, before NIO's encoder, which sends an HTTP/1.0 answer with no
/// length unframed. It is on a connection's HTTP pipeline once it is known
/// not to be a WebSocket (`LiveUpgradeChannel`), like `HTTP10Framing`.
final class IcecastFraming: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The header a route sets to be answered this way; never sent.
    static let marker = "x-wavelength-icecast-framing"
    static let streamFraming = HTTPField.Name(marker)!

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.headers.contains(name: Self.marker) else {
            return context.write(data, promise: promise)
        }
        head.headers.remove(name: Self.marker)
        head.headers.remove(name: "transfer-encoding")
        head.headers.remove(name: "content-length")
        head.version = .http1_0
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
