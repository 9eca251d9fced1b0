import Hummingbird
import HummingbirdWebSocket
import WavelengthWire

/// The request context every route gets: WebSocket-capable, with a small
/// upload limit because no Wavelength request carries a large body.
public struct AppRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
    }

    public var maxUploadSize: Int { WireLimits.maxHTTPBodyBytes }
}
