import Foundation
import Hummingbird
import HummingbirdWebSocket
import WavelengthCore
import WavelengthWire

/// A station's WebSocket: a snapshot on connect, every change as it happens,
/// and DJ commands with ids that make resending safe.
struct LiveController {
    let directory: StationDirectory
    let gate: StationGate
    let clock: any ServerClock
    /// How long a silent client waits for a ping, and then for its answer.
    let pingInterval: Duration

    func addRoutes(to router: Router<AppRequestContext>) {
        router.ws("/api/stations/{id}/live", shouldUpgrade: shouldUpgrade, onUpgrade: session)
    }

    @Sendable func shouldUpgrade(_ request: Request, context: AppRequestContext) async throws -> RouterShouldUpgrade {
        let id = try context.id("id")
        guard try await directory.hub(id: id) != nil else { throw APIError.notFound("No station with id \(id).") }
        if let since = request.uri.queryParameters.get("since"), Int64(since) == nil {
            throw APIError.badRequest("since must be a revision number.")
        }
        return .upgrade([:])
    }

    @Sendable func session(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
        context: WebSocketRouterContext<AppRequestContext>
    ) async throws {
        let channel = context.requestContext.channel
        ListenerLiveness.install(on: channel, interval: pingInterval)
        let replies = ReplyWindow()
        let outbox = ListenerOutbox(channel: channel, clock: clock, window: replies)
        outbox.stopAtCloseFrame()
        // Everything that reads storage or runs the station happens in a
        // short-lived task of its own: a task keeps every stack slab it ever
        // grew until it ends, and this one lasts as long as the listener.
        let admission = await Task { await admit(context: context, outbox: outbox) }.value
        let hub: StationHub
        let connection: ConnectionID
        switch admission {
        case .refused(let code, let message):
            try await refuse(code, message, outbox: outbox, inbound: inbound, outbound: outbound)
            return
        case .admitted(let admitted, let id):
            (hub, connection) = (admitted, id)
        }
        let session = LiveSession(hub: hub, connection: connection, queue: outbox, clock: clock, window: replies)
        // The hub ends a connection by finishing its outbox, which closes the
        // input side once the last message is written: this loop then ends.
        // A client that broke the protocol (a text frame that is not UTF-8,
        // a malformed or oversized frame) is closed with the code the
        // WebSocket layer chose for it (1007, 1002, 1009): the error is
        // rethrown once the hub has let the listener go.
        var failure: (any Error)?
        do {
            for try await message in inbound.messages(maxSize: WireLimits.maxWebSocketFrameBytes) {
                await session.handle(message, receivedAt: clock.preciseNow())
            }
        } catch {
            context.logger.debug("Listener \(connection) stopped reading: \(error)")
            failure = error
        }
        outbox.close()
        replies.close()
        await hub.disconnect(connection)
        if let failure { throw failure }
    }

    private enum Admission: Sendable {
        case admitted(StationHub, ConnectionID)
        case refused(ErrorCode, String)
    }

    /// Checks the version and the caller's access, then seats the listener.
    private func admit(context: WebSocketRouterContext<AppRequestContext>, outbox: ListenerOutbox) async -> Admission {
        let query = context.request.uri.queryParameters
        let version = query.get("v").map { Int($0) ?? -1 } ?? LiveProtocol.version
        guard version == LiveProtocol.version else {
            return .refused(.unsupportedVersion, "This server speaks protocol version \(LiveProtocol.version); update the client.")
        }
        let since = query.get("since").flatMap { Int64($0) }
        let caller = context.requestContext.caller
        do {
            let id = try context.requestContext.id("id")
            guard let hub = try await directory.hub(id: id) else {
                return .refused(.notFound, "No station with id \(id).")
            }
            // Refused after the upgrade, with an error message the client can
            // read (a failed upgrade reaches a browser as a bare 400).
            let role = try await gate.requireListener(caller, on: await hub.record)
            _ = try await directory.ensureCode(hub)
            let seat = Seat(personID: caller.personID, name: caller.person?.displayName ?? "A listener", role: role)
            let connection = ConnectionIDs.next()
            // A full station says so; the hub never counted the listener.
            try await hub.connect(connection, queue: outbox, since: since, seat: seat)
            return .admitted(hub, connection)
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

    /// Refuses a connection after the upgrade (a failed upgrade reaches a
    /// browser as a bare 400): the error message first, then the close frame
    /// once the client has closed or `refusalCloseDelay` has passed.
    ///
    /// Why not close at once: the text and close frames would then reach the
    /// client in the same read as the 101 response, and the Swift WebSocket
    /// client (swift-websocket over NIO's typed client upgrade handler) can
    /// leave such bytes undelivered and stop reading, so the SDK never learns
    /// why it was turned away and never sees the connection end (reproduced
    /// in 1 of 3 immediate refusals). A close frame that comes later comes in
    /// a read of its own. A browser closes as soon as it reads the error.
    private func refuse(
        _ code: ErrorCode, _ message: String, outbox: ListenerOutbox,
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
    ) async throws {
        _ = outbox.offer(.text(try StationHub.encode(.error(id: nil, code: code.rawValue, message: message))))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Frames a refused client sends are not read, only waited out.
                do { for try await _ in inbound {} } catch {}
            }
            group.addTask { try? await Task.sleep(for: Self.refusalCloseDelay) }
            _ = await group.next()
            group.cancelAll()
        }
        outbox.close()
        try await outbound.close(.policyViolation, reason: code.rawValue)
    }

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
