import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import Synchronization
import WavelengthClient
import WavelengthCore
import WavelengthWire

/// Says that some listener of a play heard something, so the play can wait
/// for everyone to agree without sleeping.
actor Hearing {
    private var count = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func heard() {
        count += 1
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }

    var heardSoFar: Int { count }

    /// Returns once anything is heard after `seen`.
    func wait(after seen: Int) async {
        guard count <= seen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// A listener that keeps what it heard as the SDK's `StationModel` does
/// (and asks for a snapshot at a gap, as every client does), for play tests
/// that compare what everyone hears.
final class ModelListener: Sendable {
    let name: String
    private struct State {
        var model = StationModel()
        var acks: [String: CommandAck] = [:]
        var errors: [String: String] = [:]
        /// Messages that went missing (a sequence gap).
        var gaps = 0
        var closed: String?
    }

    private final class Box: Sendable {
        let state = Mutex(State())
    }

    private let box = Box()
    private let outgoing: AsyncStream<String>.Continuation
    private let connection: Task<Void, Never>

    init(_ name: String, port: Int, path: String, token: String?, hearing: Hearing) {
        self.name = name
        let (stream, continuation) = AsyncStream<String>.makeStream()
        outgoing = continuation
        let box = box
        connection = Task {
            var logger = Logger(label: "model-listener")
            logger.logLevel = .error
            var configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20)
            if let token { configuration.additionalHeaders[.authorization] = "Bearer \(token)" }
            var reason = "no close frame"
            do {
                let frame = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)\(path)", configuration: configuration, logger: logger
                ) { inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { for await text in stream { try await outbound.write(.text(text)) } }
                        group.addTask {
                            var known = KnownTracks()
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                guard case .text(let text) = message else { continue }
                                let decoder = JSONDecoder()
                                decoder.userInfo[KnownTracks.key] = known
                                guard let decoded = try? decoder.decode(SequencedServerMessage.self, from: Data(text.utf8))
                                else { continue }
                                let resync = box.state.withLock { state -> Bool in
                                    let reaction = state.model.receive(decoded)
                                    switch decoded.message {
                                    case .ack(let ack): state.acks[ack.id] = ack
                                    case .error(let id, _, let message): if let id { state.errors[id] = message }
                                    default: break
                                    }
                                    if reaction == .resync { state.gaps += 1 }
                                    if let window = state.model.window { known = KnownTracks(window) }
                                    return reaction == .resync
                                }
                                if resync { continuation.yield(#"{"type":"resync"}"#) }
                                await hearing.heard()
                            }
                        }
                        _ = try await group.next()
                        group.cancelAll()
                    }
                }
                reason = frame.map { "\($0.closeCode) \($0.reason ?? "")" } ?? reason
            } catch {
                reason = "failed: \(error)"
            }
            box.state.withLock { $0.closed = reason }
            await hearing.heard()
        }
    }

    func send(_ message: ClientMessage) throws {
        outgoing.yield(String(decoding: try JSONEncoder().encode(message), as: UTF8.self))
    }

    func close() {
        outgoing.finish()
        connection.cancel()
    }

    var model: StationModel { box.state.withLock { $0.model } }
    var gaps: Int { box.state.withLock { $0.gaps } }
    var closedReason: String? { box.state.withLock { $0.closed } }

    /// The answer to command `id`, once it came: nil while none has.
    func answer(_ id: String) -> Result<CommandAck, CommandRefused>? {
        box.state.withLock { state in
            if let ack = state.acks[id] { return .success(ack) }
            if let message = state.errors[id] { return .failure(CommandRefused(message: message)) }
            return nil
        }
    }

    struct CommandRefused: Error, Equatable {
        let message: String
    }
}
