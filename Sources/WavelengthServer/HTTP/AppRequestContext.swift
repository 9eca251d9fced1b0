import Hummingbird
import HummingbirdAuth
import NIOCore
import WavelengthWire

/// The request context every route gets: able to take a WebSocket upgrade
/// (`liveUpgrade`), with a small upload limit because no Wavelength request
/// carries a large body, the caller found by `SessionAuthenticator`, and the
/// client's address for rate limits.
public struct AppRequestContext: RequestContext, AuthRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// A route that accepts a WebSocket upgrade leaves its connection's
    /// starter here (see `LiveUpgradeChannel`).
    let liveUpgrade: LiveUpgradeSlot
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
        self.liveUpgrade = LiveUpgradeSlot()
        self.peerAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        self.remoteAddress = peerAddress
    }

    /// The most a body may hold: `WireLimits.maxHTTPBodyBytes`, or more for
    /// a route whose largest valid body is larger (a show's spec).
    var uploadLimit = WireLimits.maxHTTPBodyBytes
    public var maxUploadSize: Int { uploadLimit }

    /// Bodies must be `application/json` (see `JSONBodyDecoder`).
    public var requestDecoder: some RequestDecoder { JSONBodyDecoder() }

    /// Who is asking; anonymous when no session came with the request.
    public var caller: Caller { identity ?? .anonymous }
}
