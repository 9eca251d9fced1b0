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
    public let remoteAddress: String

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
        self.remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    public var maxUploadSize: Int { WireLimits.maxHTTPBodyBytes }

    /// Bodies must be `application/json` (see `JSONBodyDecoder`).
    public var requestDecoder: some RequestDecoder { JSONBodyDecoder() }

    /// Who is asking; anonymous when no session came with the request.
    public var caller: Caller { identity ?? .anonymous }
}
