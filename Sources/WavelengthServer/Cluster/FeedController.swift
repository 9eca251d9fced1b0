import Hummingbird
import Logging
import NIOCore
import NIOWebSocket
import WavelengthCore

/// The route another node of the cluster opens to relay a station this node
/// runs (`StationFeed` there, `FeedLink` here). Only nodes holding the
/// cluster's key get in (`NodeProof`): a feed names who its listeners are.
struct FeedController {
    let seating: ListenerSeating
    /// Nil on one node, where nobody may open a feed.
    let proof: NodeProof?
    let clock: any ServerClock
    /// How long a silent feed waits for a ping, and then for its answer.
    let pingInterval: Duration
    /// Closed with the live sockets when the server stops: the relayed
    /// listeners leave, and reconnect to wherever the station goes.
    let sockets: LiveSockets

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/cluster/stations/{id}/feed", use: feed)
    }

    @Sendable func feed(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.id("id")
        guard let proof, let node = request.headers[.wavelengthNode], let given = request.headers[.wavelengthNodeProof],
            proof.accepts(given, node: node, station: id, now: clock.now())
        else {
            throw APIError(.forbidden, code: .forbidden, "Only this site's other servers open a station's feed.")
        }
        guard request.headers[.upgrade] != nil else { throw APIError.badRequest("A station's feed is a WebSocket.") }
        let logger = context.logger
        context.liveUpgrade.claim { channel in try start(channel, station: id, logger: logger) }
        return Response(status: .ok)
    }

    /// On the connection's event loop, right after the upgrade.
    private func start(_ channel: any Channel, station: StationID, logger: Logger) throws {
        let link = FeedLink(channel: channel, station: station, seating: seating, clock: clock, logger: logger)
        let inbox = LiveInbox(channel: channel)
        let pipeline = channel.pipeline.syncOperations
        try ListenerLiveness.install(on: pipeline, interval: pingInterval)
        try pipeline.addHandlers([
            MaskedFramesOnly(),
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 64, maxAccumulatedFrameSize: FeedUp.maxBytes),
            LiveSocketHandler(inbox: inbox, clock: clock, closeTimeout: TimeAmount(pingInterval)) {
                if let session = inbox.end() { Task { await session.ended() } }
            },
        ])
        sockets.add(channel)
        _ = inbox.admit(link)
    }
}
