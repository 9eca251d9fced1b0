import Foundation
import Hummingbird
import HummingbirdWebSocket
import WavelengthCore
import WavelengthWire

/// A station's WebSocket: a snapshot on connect, every change as it happens,
/// and DJ commands with ids that make resending safe.
struct LiveController {
    let directory: StationDirectory
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
        let since = context.request.uri.queryParameters.get("since").flatMap { Int64($0) }
        let caller = context.request.caller
        // Each listener drains its own queue, so one slow client never holds
        // up the station; past 256 queued messages the oldest are dropped (the
        // newest update always carries the whole window).
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let listener = UUID()
        try await hub.connect(listener, stream: continuation, since: since)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await text in stream {
                        try await outbound.write(.text(text))
                    }
                }
                group.addTask {
                    for try await message in inbound.messages(maxSize: WireLimits.maxWebSocketFrameBytes) {
                        await handle(message, hub: hub, listener: listener, caller: caller)
                    }
                }
                _ = try await group.next()
                group.cancelAll()
            }
        } catch {
            context.logger.debug("Listener \(listener) left with \(error)")
        }
        await hub.disconnect(listener)
    }

    private func handle(_ message: WebSocketMessage, hub: StationHub, listener: UUID, caller: Caller) async {
        let text: String
        switch message {
        case .binary:
            await hub.send(.error(id: nil, code: "bad_message", message: "Send JSON text messages, not binary."), to: listener)
            return
        case .text(let string):
            text = string
        }
        guard text.utf8.count <= WireLimits.maxWebSocketMessageBytes else {
            await hub.send(
                .error(
                    id: nil, code: "too_large",
                    message: "Messages are limited to \(WireLimits.maxWebSocketMessageBytes) bytes."), to: listener)
            return
        }
        let decoded: ClientMessage
        do {
            decoded = try JSONDecoder().decode(ClientMessage.self, from: Data(text.utf8))
        } catch {
            await hub.send(.error(id: nil, code: Self.code(for: error), message: Self.describe(error)), to: listener)
            return
        }
        switch decoded {
        case .ping(let nonce):
            await hub.send(.pong(nonce: nonce.map { String($0.prefix(64)) }, serverTime: clock.now()), to: listener)
        case .command(let request):
            do {
                try CommandValidation.check(request)
                let ack = try await hub.apply(request, caller: caller)
                await hub.send(.ack(ack), to: listener)
            } catch let error as APIError {
                await hub.send(.error(id: String(request.id.prefix(64)), code: error.code, message: error.message), to: listener)
            } catch let error as TimelineError {
                await hub.send(.error(id: String(request.id.prefix(64)), code: error.code, message: error.description), to: listener)
            } catch {
                await hub.send(
                    .error(id: String(request.id.prefix(64)), code: "internal", message: "The command could not be saved."),
                    to: listener)
            }
        }
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
