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
    let gate: StationGate
    let clock: any ServerClock
    /// How long a silent client waits for a ping, and then for its answer;
    /// also how long a closing client has to answer our close frame.
    let pingInterval: Duration
    /// Every open live connection, for a goodbye when the server stops.
    let sockets: LiveSockets
    /// How many live sockets each address and person may hold.
    let slots: LiveSocketSlots
    /// Whom a block stands between a listener and: their chat doesn't pass.
    var blocks: (any BlockRepository)? = nil

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
                if let session = inbox.end() {
                    Task { await session.station.disconnect(session.connection) }
                }
            },
        ])
        sockets.add(channel)
        Task {
            switch await admit(request: request, context: context, outbox: outbox) {
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

    /// Checks the version and the caller's access, then seats the listener.
    private func admit(request: Request, context: AppRequestContext, outbox: ListenerOutbox) async -> Admission {
        let query = request.uri.queryParameters
        let version = query.get("v").map { Int($0) ?? -1 } ?? LiveProtocol.version
        guard LiveProtocol.supported.contains(version) else {
            return .refused(
                .unsupportedVersion,
                "This server speaks protocol versions \(LiveProtocol.supported.lowerBound) to \(LiveProtocol.supported.upperBound); update the client.")
        }
        let since = query.get("since").flatMap { Int64($0) }
        // `?listener=`: the device key a signed-out listener's players share
        // (checked before the upgrade).
        let device = query.get("listener").flatMap(DeviceKey.init)
        let caller = context.caller
        do {
            let id = try context.id("id")
            let hub: StationHub
            switch try await directory.liveStation(id: id) {
            case nil:
                return .refused(.notFound, "No station with id \(id).")
            case .relay(let relay):
                return try await relayed(
                    caller, on: relay, since: since, outbox: outbox, device: device, address: context.remoteAddress)
            case .hub(let running):
                hub = running
            }
            // Refused after the upgrade, with an error message the client can
            // read (a failed upgrade reaches a browser as a bare 400).
            let (role, hosting) = try await gate.seat(caller, on: await hub.record)
            _ = try await directory.ensureCode(hub)
            var seat = Seat(
                personID: caller.personID, name: caller.person?.displayName ?? "A listener", role: role, hosting: hosting,
                handle: caller.person?.handle, device: caller.personID == nil ? device : nil, address: context.remoteAddress)
            if let person = caller.personID, let blocks { seat.apart = try await blocks.blockedEitherWay(person) }
            let connection = ConnectionIDs.next()
            // A full station says so; the hub never counted the listener.
            try await hub.connect(connection, queue: outbox, since: since, seat: seat)
            if let person = seat.personID, await hub.record.mode == .lobby {
                await directory.enteredLobby(personID: person, name: seat.name, stationID: id)
            }
            return .admitted(.hub(hub), connection)
        } catch let error as APIError {
            return .refused(error.code, error.message)
        } catch let error as HubError {
            let refusal = APIError(error)
            return .refused(refusal.code, refusal.message)
        } catch {
            context.logger.error("Could not seat a listener: \(error)")
            return .refused(.internal, "The station could not be joined.")
        }
    }

    /// A listener of a station another node runs, seated on this node's
    /// relay of it. A relay only listens, so whoever may control the station
    /// (its owner, a co-DJ) is sent to the node running it, and so is
    /// everyone in a party or a lobby (its requests, votes and room come
    /// from the hub) and on a station with a listener limit (the hub
    /// enforces it).
    private func relayed(
        _ caller: Caller, on relay: StationRelay, since: Int64?, outbox: ListenerOutbox, device: DeviceKey?, address: String
    ) async throws -> Admission
    {
        let record = await relay.record
        let (role, _) = try await gate.seat(caller, on: record)
        guard role < .codj, record.mode == .dj, record.maxListeners == nil else {
            let moved = APIError.elsewhere("This station is on the air from another server of this site right now")
            return .refused(moved.code, moved.message)
        }
        let connection = ConnectionIDs.next()
        // Counted as the station's own node counts a seat.
        let identity = caller.personID.map(ListenerIdentity.person)
            ?? device.map { .device($0, address: address) } ?? .connection(connection, address: address)
        try await relay.connect(connection, queue: outbox, since: since, identity: identity)
        return .admitted(.relay(relay), connection)
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
