import Hummingbird
import HummingbirdAuth
import HummingbirdWebSocket
import NIOCore
import WavelengthWire

/// The request context every route gets: WebSocket-capable, with a small
/// upload limit because no Wavelength request carries a large body, the
/// caller found by `SessionAuthenticator`, and the client's address for
/// rate limits.
public struct AppRequestContext: RequestContext, WebSocketRequestContext, AuthRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    public var identity: Caller?
    /// The client's address: the peer's, or the forwarded one when the peer
    /// is a trusted proxy (`ForwardedForMiddleware`).
    public internal(set) var remoteAddress: String
    /// The address of the socket's other end: the client, or a proxy.
    public let peerAddress: String
    /// The connection, which a WebSocket listener's outbox writes to directly.
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
        self.webSocket = .init()
        self.peerAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        self.remoteAddress = peerAddress
    }

    public var maxUploadSize: Int { WireLimits.maxHTTPBodyBytes }

    /// Bodies must be `application/json` (see `JSONBodyDecoder`).
    public var requestDecoder: some RequestDecoder { JSONBodyDecoder() }

    /// Who is asking; anonymous when no session came with the request.
    public var caller: Caller { identity ?? .anonymous }
}
