import Foundation
import WavelengthCore
import WavelengthWire

/// Handles what one client sends: commands, pings and resync requests.
/// Answers go into the client's own queue, behind any broadcast already there,
/// so an ack always follows the update its command caused.
struct LiveSession: Sendable {
    let hub: StationHub
    let connection: ConnectionID
    let queue: ListenerOutbox
    let clock: any ServerClock
    let window: ReplyWindow

    func handle(_ message: LiveInbox.Message, receivedAt: Double) async {
        let text: String
        switch message {
        case .binary:
            await reply(.error(id: nil, code: ErrorCode.badMessage.rawValue, message: "Send JSON text messages, not binary."))
            return
        case .text(let string):
            text = string
        }
        guard text.utf8.count <= WireLimits.maxWebSocketMessageBytes else {
            await reply(
                .error(
                id: nil, code: ErrorCode.tooLarge.rawValue,
                    message: "Messages are limited to \(WireLimits.maxWebSocketMessageBytes) bytes."))
            return
        }
        let decoded: ClientMessage
        do {
            decoded = try JSONDecoder().decode(ClientMessage.self, from: Data(text.utf8))
        } catch {
            await reply(.error(id: nil, code: LiveController.code(for: error).rawValue, message: LiveController.describe(error)))
            return
        }
        switch decoded {
        case .ping(let nonce):
            _ = queue.offer(.pong(nonce: nonce.map { String($0.prefix(64)) }, received: receivedAt))
            await window.queued()
        case .resync:
            await hub.resync(connection)
            await window.queued()
        case .command(let request):
            let id = String(request.id.prefix(WireLimits.maxCommandIDLength))
            do {
                try CommandValidation.check(request)
                await reply(.ack(try await hub.apply(request, from: .connection(connection))))
            } catch let error as APIError {
                await reply(.error(id: id, code: error.code.rawValue, message: error.message))
            } catch let error as HubError {
                let refusal = APIError(error)
                await reply(.error(id: id, code: refusal.code.rawValue, message: refusal.message))
            } catch {
                await reply(.error(id: id, code: ErrorCode.internal.rawValue, message: "The command could not be saved."))
            }
        }
    }

    private func reply(_ message: ServerMessage) async {
        guard let text = try? StationHub.encode(message) else { return }
        _ = queue.offer(.reply(text))
        await window.queued()
    }
}
