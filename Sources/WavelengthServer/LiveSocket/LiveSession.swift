import Foundation
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// Handles what one client sends: commands, pings and resync requests.
/// Answers go into the client's own queue, behind any broadcast already there,
/// so an ack always follows the update its command caused.
///
/// On a node relaying the station (`StationFeed`) pings are answered here
/// and the rest is passed on to the node running it, whose own session for
/// the listener handles it as this one would (its queue is then a
/// `FeedQueue`, and its window nil: the relaying node counts the answers).
struct LiveSession: LiveMessageHandler {
    let station: LiveStation
    let connection: ConnectionID
    let queue: any ListenerQueue
    let clock: any ServerClock
    let window: ReplyWindow?

    func ended() async {
        await station.disconnect(connection)
    }

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
        let hub: StationHub
        switch station {
        case .hub(let running): hub = running
        case .feed(let feed): return await passOn(decoded, text: text, to: feed, receivedAt: receivedAt)
        }
        switch decoded {
        case .chat(let ref, let text):
            let ref = ref.map { String($0.prefix(WireLimits.maxCommandIDLength)) }
            await refusing(id: ref) { try await hub.chat(text, ref: ref, from: connection) }
        case .react(let id, let entryID, let emoji):
            await refusing(id: id.map { String($0.prefix(WireLimits.maxCommandIDLength)) }) {
                try await hub.react(String(emoji.prefix(16)), on: String(entryID.prefix(64)), from: connection)
            }
        case .moderate(let id, let action):
            await refusing(id: id.map { String($0.prefix(WireLimits.maxCommandIDLength)) }) {
                try await hub.moderate(action, from: connection)
            }
        case .room(let signal):
            await refusing(id: nil) { try await hub.room(signal, from: connection) }
        case .ping(let nonce):
            await pong(nonce, receivedAt: receivedAt)
        case .resync:
            await resync()
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
                let (code, message) = Self.unexpected(error, "The command")
                await reply(.error(id: id, code: code.rawValue, message: message))
            }
        }
    }

    /// Runs a room action; a refusal goes back to the client as an `error`
    /// (with how long to wait, when the refusal says).
    private func refusing(id: String?, _ body: () async throws -> Void) async {
        do {
            try await body()
        } catch let error as HubError {
            var refusal = APIError(error)
            if case .chat(let chat) = error, let retryAt = chat.retryAt {
                let seconds = max(1, (retryAt - clock.now() + 999) / 1000)
                let wait = seconds > 120 ? "\((seconds + 59) / 60) min" : "\(seconds) s"
                refusal = APIError(refusal.status, code: refusal.code, "\(refusal.message) Try again in \(wait).")
            }
            await reply(.error(id: id, code: refusal.code.rawValue, message: refusal.message))
        } catch {
            let (code, message) = Self.unexpected(error, "The message")
            await reply(.error(id: id, code: code.rawValue, message: message))
        }
    }

    /// A failure the client can't fix, said as HTTP says it: storage out of
    /// service (a full disk) or the station moving to another node is
    /// `service_unavailable`, to try again later; anything else `internal`.
    static func unexpected(_ error: any Error, _ what: String) -> (ErrorCode, String) {
        if let fault = error as? any StorageFault, fault.isOutage {
            return (.serviceUnavailable, "\(what) could not be saved: the server's storage is full or failing. Try again later.")
        }
        if case StorageError.notOwner = error {
            return (.serviceUnavailable, "\(what) could not be saved: the station is moving to another server. Try again in a moment.")
        }
        return (.internal, "\(what) could not be saved.")
    }

    /// On a relaying node: a ping is answered here (this node's clock is
    /// the one its listeners follow), the rest goes to the station's node.
    private func passOn(_ message: ClientMessage, text: String, to feed: StationFeed, receivedAt: Double) async {
        if case .ping(let nonce) = message { return await pong(nonce, receivedAt: receivedAt) }
        guard await feed.say(connection, text: text, receivedAt: receivedAt) else {
            let id: String?
            switch message {
            case .chat(let ref, _), .react(let ref, _, _), .moderate(let ref, _): id = ref
            case .command(let request): id = request.id
            case .room, .ping, .resync: id = nil
            }
            return await reply(
                .error(
                    id: id.map { String($0.prefix(WireLimits.maxCommandIDLength)) },
                    code: ErrorCode.serviceUnavailable.rawValue, message: StationFeed.unreachable))
        }
    }

    /// Clock sync: answered by this node, whose clock its listeners follow.
    private func pong(_ nonce: String?, receivedAt: Double) async {
        _ = queue.offer(.pong(nonce: nonce.map { String($0.prefix(64)) }, received: receivedAt))
        await window?.queued()
    }

    private func resync() async {
        await station.resync(connection)
        await window?.queued()
    }

    private func reply(_ message: ServerMessage) async {
        guard let text = try? StationHub.encode(message) else { return }
        _ = queue.offer(.reply(text))
        await window?.queued()
    }
}
