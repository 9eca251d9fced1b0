import Foundation
import Hummingbird
import NIOCore
import NIOWebSocket
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// A station's WebSocket: a snapshot on connect, every change as it happens,
/// and DJ commands with ids that make resending safe.
struct LiveController {
    let directory: StationDirectory
    let seating: ListenerSeating
    let clock: any ServerClock
    /// How long a silent client waits for a ping, and then for its answer;
    /// also how long a closing client has to answer our close frame.
    let pingInterval: Duration
    /// Every open live connection, for a goodbye when the server stops.
    let sockets: LiveSockets
    /// How many live sockets each address and person may hold.
    let slots: LiveSocketSlots

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/api/stations/{id}/live", use: live)
    }

    /// The upgrade request (and, without an upgrade, an empty 200): checks
    /// the station exists, then leaves the connection's starter for
    /// `LiveUpgradeChannel`. Who may listen is decided after the upgrade,
    /// with an error message the client can read (a refused upgrade reaches
    /// a browser as a bare 400).
    @Sendable func live(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.id("id")
        guard try await directory.liveStation(id: id) != nil else { throw APIError.notFound("No station with id \(id).") }
        // A version it doesn't speak, asked without an upgrade: 400 here
        // (with an upgrade, `admit` says so on the socket, which a browser
        // can read).
        if request.headers[.upgrade] == nil, let version = request.uri.queryParameters.get("v"),
            !(Int(version).map(LiveProtocol.supported.contains) ?? false)
        {
            throw APIError(
                .badRequest, code: .unsupportedVersion,
                "This server speaks protocol versions \(LiveProtocol.supported.lowerBound) to \(LiveProtocol.supported.upperBound).")
        }
        if let since = request.uri.queryParameters.get("since"), Int64(since) == nil {
            throw APIError.badRequest("since must be a revision number.")
        }
        if let device = request.uri.queryParameters.get("listener"), DeviceKey(device) == nil {
            throw APIError.badRequest(Self.badDeviceKey)
        }
        // A slot first: one address can't take every descriptor (and with
        // them `/health`), and the slot is held until the socket closes.
        let holder = SocketBudget.Holder(
            address: context.remoteAddress, personID: context.caller.personID, signedIn: context.caller.isUser)
        let slot: LiveSocketSlots.Slot
        do {
            slot = try slots.reserve(holder)
        } catch {
            throw APIError(.tooManyRequests, code: .tooManyConnections, error.message)
        }
        context.liveUpgrade.claim { channel in try start(channel, request: request, context: context, slot: slot) }
        return Response(status: .ok)
    }

    /// On the connection's event loop, right after the upgrade: installs the
    /// handlers that serve it from now on, then admits the listener in a
    /// short task. Nothing here keeps a task for the connection's life.
    private func start(
        _ channel: any Channel, request: Request, context: AppRequestContext, slot: LiveSocketSlots.Slot
    ) throws {
        let pipeline = channel.pipeline.syncOperations
        let replies = ReplyWindow()
        // A version it doesn't speak is refused in `admit`.
        let version = request.uri.queryParameters.get("v").flatMap { Int($0) } ?? LiveProtocol.version
        let outbox = ListenerOutbox(
            channel: channel, clock: clock, window: replies, compactUpdates: version >= 2, logger: context.logger)
        let inbox = LiveInbox(channel: channel)
        try ListenerLiveness.install(on: pipeline, interval: pingInterval)
        try outbox.stopAtCloseFrame(pipeline)
        try pipeline.addHandlers([
            MaskedFramesOnly(),
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 64,
                maxAccumulatedFrameSize: WireLimits.maxWebSocketFrameBytes),
            LiveSocketHandler(inbox: inbox, clock: clock, closeTimeout: TimeAmount(pingInterval)) {
                // The connection closed: the listener is let go, once, and
                // its slot with the handler that holds this closure.
                withExtendedLifetime(slot) {}
                outbox.close()
                replies.close()
                if let session = inbox.end() { Task { await session.ended() } }
            },
        ])
        sockets.add(channel)
        Task {
            switch await admit(request: request, context: context, outbox: outbox, replies: replies) {
            case .refused(let code, let message):
                inbox.end()
                if let text = try? StationHub.encode(.error(id: nil, code: code.rawValue, message: message)) {
                    _ = outbox.offer(.text(text))
                }
                // See `refusalCloseDelay`: the close frame comes later, in a
                // read of its own, unless the client closes first.
                channel.eventLoop.scheduleTask(in: TimeAmount(Self.refusalCloseDelay)) {
                    channel.pipeline.fireUserInboundEventTriggered(
                        LiveSocketEvent.end(.policyViolation, reason: code.rawValue))
                }
            case .admitted(let station, let connection):
                let session = LiveSession(station: station, connection: connection, queue: outbox, clock: clock, window: replies)
                if !inbox.admit(session) {
                    await station.disconnect(connection)  // it closed while being admitted
                }
            }
        }
    }

    private enum Admission: Sendable {
        case admitted(LiveStation, ConnectionID)
        case refused(ErrorCode, String)
    }

    /// Checks the version and the caller's access, then seats the listener:
    /// on the station's hub when it runs here, else on the feed from the
    /// node running it (`StationFeed`), which seats them there.
    private func admit(request: Request, context: AppRequestContext, outbox: ListenerOutbox, replies: ReplyWindow) async
        -> Admission
    {
        let query = request.uri.queryParameters
        let version = query.get("v").map { Int($0) ?? -1 } ?? LiveProtocol.version
        guard LiveProtocol.supported.contains(version) else {
            return .refused(
                .unsupportedVersion,
                "This server speaks protocol versions \(LiveProtocol.supported.lowerBound) to \(LiveProtocol.supported.upperBound); update the client.")
        }
        // `?listener=`: the device key a signed-out listener's players share
        // (checked before the upgrade).
        let listener = ListenerSeating.Listener(
            caller: context.caller, device: query.get("listener").flatMap(DeviceKey.init), address: context.remoteAddress,
            since: query.get("since").flatMap { Int64($0) })
        do {
            let id = try context.id("id")
            // Twice at most: a feed that ended as the listener joined it is
            // asked for again (the station may run here now, or a new feed
            // opens).
            for _ in 0..<2 {
                switch try await directory.liveStation(id: id) {
                case nil:
                    return .refused(.notFound, "No station with id \(id).")
                case .hub(let hub):
                    let connection = ConnectionIDs.next()
                    try await seating.seat(listener, on: hub, as: connection, queue: outbox)
                    return .admitted(.hub(hub), connection)
                case .feed(let feed):
                    let connection = ConnectionIDs.next()
                    let join = FeedUp.Join(
                        listener: connection.value, person: listener.caller.person,
                        administrator: listener.caller.isAdministrator, device: listener.device?.value,
                        address: listener.address, since: listener.since, compactUpdates: outbox.compactUpdates)
                    switch await feed.join(connection, outbox: outbox, window: replies, as: join) {
                    case .admitted: return .admitted(.feed(feed), connection)
                    case .refused(let code, let message): return .refused(code, message)
                    case .gone: continue
                    }
                }
            }
            let moved = APIError.elsewhere("This station is moving between servers of this site")
            return .refused(moved.code, moved.message)
        } catch {
            let (code, message) = ListenerSeating.refusal(error, logger: context.logger)
            return .refused(code, message)
        }
    }

    static let badDeviceKey = "A listener key is 8 to 64 letters, digits, - and _."

    /// Why a refusal's close frame waits: sent at once, the error message
    /// and the close frame reach the client in the same read as the 101
    /// answer, and the Swift WebSocket client (swift-websocket over NIO's
    /// typed client upgrade handler) can leave such bytes undelivered and
    /// stop reading, so the SDK never learns why it was turned away and never
    /// sees the connection end (reproduced in 1 of 3 immediate refusals). A
    /// close frame that comes later comes in a read of its own. A browser
    /// closes as soon as it reads the error.
    /// How long a refused connection stays open for the client to close it.
    static let refusalCloseDelay: Duration = .seconds(2)

    static func code(for error: any Error) -> ErrorCode {
        if case DecodingError.dataCorrupted(let context) = error, context.codingPath.last?.stringValue == "type" {
            return .unknownType
        }
        return .badMessage
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription.hasPrefix("The given data")
                ? "The message is not valid JSON." : context.debugDescription
        case DecodingError.keyNotFound(let key, _):
            return "The message is missing \"\(key.stringValue)\"."
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "The message has the wrong type at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\"."
        default:
            return "The message could not be read."
        }
    }
}
