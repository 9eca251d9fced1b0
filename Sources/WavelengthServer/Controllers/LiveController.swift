import Foundation
import Synchronization
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
        let id = try context.requestContext.id("id")
        guard let hub = try await directory.hub(id: id) else { return }
        let query = context.request.uri.queryParameters
        let version = query.get("v").map { Int($0) ?? -1 } ?? LiveProtocol.version
        var writer = SequencedWriter(outbound: outbound, clock: clock)
        guard version == LiveProtocol.version else {
            try await refuse(
                .unsupportedVersion, "This server speaks protocol version \(LiveProtocol.version); update the client.",
                writer: &writer, inbound: inbound, outbound: outbound)
            return
        }
        let since = query.get("since").flatMap { Int64($0) }
        let caller = context.requestContext.caller
        let seat: Seat
        do {
            // Refused after the upgrade, with an error message the client can
            // read (a failed upgrade reaches a browser as a bare 400).
            let role = try await gate.requireListener(caller, on: await hub.record)
            _ = try await directory.ensureCode(hub)
            seat = Seat(personID: caller.personID, name: caller.person?.displayName ?? "A listener", role: role)
        } catch let error as APIError {
            try await refuse(error.code, error.message, writer: &writer, inbound: inbound, outbound: outbound)
            return
        }
        // Each listener drains its own queue, so one slow client never holds
        // up the station; a client whose queue overflows is disconnected and
        // catches up when it reconnects.
        let (stream, queue) = AsyncStream<LiveOutgoing>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let connection = ConnectionIDs.next()
        do {
            try await hub.connect(connection, queue: queue, since: since, seat: seat)
        } catch let error as HubError {
            // A full station: say so; the hub never counted the listener.
            let refusal = APIError(error)
            try await refuse(refusal.code, refusal.message, writer: &writer, inbound: inbound, outbound: outbound)
            return
        }
        // A client that broke the protocol (a text frame that is not UTF-8, a
        // malformed or oversized frame) is closed with the code the WebSocket
        // layer chose for it (1007, 1002, 1009): the error is rethrown below.
        let protocolFailure = ProtocolFailure()
        let replies = ReplyWindow()
        let session = LiveSession(hub: hub, connection: connection, queue: queue, clock: clock, window: replies)
        let logger = context.logger
        // Whichever side ends first (the client closed, the socket failed, or
        // the hub closed the queue) ends the other. Neither task throws out
        // of the group, and the reply window is closed before the group waits
        // for the reader, so a reader held by backpressure can never keep
        // the group (and the listener's seat) alive.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [writer] in
                var writer = writer  // this task alone writes from here on
                do {
                    for await outgoing in stream {
                        try await writer.write(outgoing)
                        if case .text = outgoing {} else { replies.written() }
                    }
                } catch {
                    logger.debug("Listener \(connection) could not be written to: \(error)")
                }
            }
            group.addTask {
                do {
                    for try await message in inbound.messages(maxSize: WireLimits.maxWebSocketFrameBytes) {
                        await session.handle(message, receivedAt: clock.preciseNow())
                    }
                } catch {
                    logger.debug("Listener \(connection) stopped reading: \(error)")
                    if !Task.isCancelled { protocolFailure.error.withLock { $0 = error } }
                }
            }
            _ = await group.next()
            replies.close()
            queue.finish()
            group.cancelAll()
        }
        await hub.disconnect(connection)
        if let failure = protocolFailure.error.withLock({ $0 }) { throw failure }
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
        _ code: ErrorCode, _ message: String, writer: inout SequencedWriter,
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
    ) async throws {
        try await writer.write(.text(try StationHub.encode(.error(id: nil, code: code.rawValue, message: message))))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Frames a refused client sends are not read, only waited out.
                do { for try await _ in inbound {} } catch {}
            }
            group.addTask { try? await Task.sleep(for: Self.refusalCloseDelay) }
            _ = await group.next()
            group.cancelAll()
        }
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

/// How a client's reading side failed, if it broke the protocol: set by the
/// reader task, read once the session is over.
private final class ProtocolFailure: Sendable {
    let error = Mutex<(any Error)?>(nil)
}
