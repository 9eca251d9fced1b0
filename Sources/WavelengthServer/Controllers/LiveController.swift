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
            let refusal = ServerMessage.error(
                id: nil, code: "unsupported_version",
                message: "This server speaks protocol version \(LiveProtocol.version); update the client.")
            try await writer.write(.text(try StationHub.encode(refusal)))
            try await outbound.close(.policyViolation, reason: "unsupported protocol version")
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
            try await writer.write(.text(try StationHub.encode(.error(id: nil, code: error.code, message: error.message))))
            try await outbound.close(.policyViolation, reason: error.code)
            return
        }
        // Each listener drains its own queue, so one slow client never holds
        // up the station; a client whose queue overflows is disconnected and
        // catches up when it reconnects.
        let (stream, queue) = AsyncStream<LiveOutgoing>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let listener = UUID()
        do {
            try await hub.connect(listener, stream: queue, since: since, seat: seat)
        } catch let error as APIError {
            // A full station: say so, and never leave the listener counted.
            await hub.disconnect(listener)
            try await writer.write(.text(try StationHub.encode(.error(id: nil, code: error.code, message: error.message))))
            try await outbound.close(.policyViolation, reason: error.code)
            return
        } catch {
            // Never leave a half-joined listener counted.
            await hub.disconnect(listener)
            throw error
        }
        let replies = ReplyWindow()
        let session = LiveSession(hub: hub, listener: listener, queue: queue, clock: clock, window: replies)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { [writer] in
                    var writer = writer  // this task alone writes from here on
                    for await outgoing in stream {
                        try await writer.write(outgoing)
                        if case .text = outgoing {} else { replies.written() }
                    }
                }
                group.addTask {
                    for try await message in inbound.messages(maxSize: WireLimits.maxWebSocketFrameBytes) {
                        await session.handle(message, receivedAt: clock.preciseNow())
                    }
                }
                _ = try await group.next()
                replies.close()
                group.cancelAll()
            }
        } catch {
            context.logger.debug("Listener \(listener) left with \(error)")
        }
        await hub.disconnect(listener)
    }

    static func code(for error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error, context.codingPath.last?.stringValue == "type" {
            return "unknown_type"
        }
        return "bad_message"
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
