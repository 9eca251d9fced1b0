import Hummingbird
import NIOCore
import NIOWebSocket
import WavelengthWire

/// Going live from the browser: `GET /api/stations/{id}/broadcast` upgrades
/// to a WebSocket that takes MediaRecorder's audio (see
/// `BroadcastSocketHandler`). Who may go live is decided when the page
/// sends `start`, with an error message it can show (a refused upgrade
/// reaches a browser as a bare 400).
struct BroadcastController {
    let directory: StationDirectory
    let sources: LiveSources
    /// A broadcast that sends nothing for this long ends.
    let idleTimeout: Duration

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/stations/{id}/broadcast", use: broadcast)
    }

    @Sendable func broadcast(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.id("id")
        guard try await directory.hub(id: id) != nil else { throw APIError.notFound("No station with id \(id).") }
        let (personID, address, sources, logger) = (context.caller.personID, context.remoteAddress, sources, context.logger)
        let idle = TimeAmount(idleTimeout)
        context.liveUpgrade.claim { channel in
            try channel.pipeline.syncOperations.addHandlers([
                IdleStateHandler(readTimeout: idle),
                // Ahead of the aggregator, which drops the mask of what it joins.
                MaskedFramesOnly(),
                NIOWebSocketFrameAggregator(
                    minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 64,
                    maxAccumulatedFrameSize: WireLimits.maxWebSocketFrameBytes),
                BroadcastSocketHandler(
                    personID: personID, stationID: id, address: address, sources: sources, clock: sources.clock, logger: logger),
            ])
        }
        return Response(status: .ok)
    }
}
