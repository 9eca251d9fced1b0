import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import Synchronization
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// A station another node of the cluster runs, as this node's listeners hear
/// it: one WebSocket to that node (its `FeedLink`), on which the station's
/// hub seats each listener here as one of its own, and sends them whatever
/// it sends its own (updates, the party, the lobby, chat, reactions, room
/// signals, roles), in order. What they send goes back the same way, to be
/// handled there; only pings are answered here. A broadcast crosses once,
/// naming the listeners it is for.
///
/// Why not a relay that reads the station from storage: it had to copy
/// every rule of what each listener sees, and it diverged (no chat, a party
/// it couldn't follow, owners sent away). The owner's hub is the one place
/// that decides; a feed only carries.
///
/// When the feed breaks (the owner stops, dies or freezes: the feed is
/// pinged), every listener on it is closed, to reconnect and be seated
/// again wherever the station runs then.
final class StationFeed: Sendable {
    let id: StationID
    let node: NodeIdentity

    enum Admission: Sendable, Equatable {
        case admitted
        case refused(ErrorCode, String)
        /// The feed ended before the listener was seated: ask the directory again.
        case gone
    }

    private struct Listener {
        let outbox: ListenerOutbox
        let window: ReplyWindow
    }

    private enum Phase {
        case connecting(waiters: [CheckedContinuation<WebSocketOutboundWriter?, Never>])
        case open(WebSocketOutboundWriter)
        case closed
    }

    private struct State {
        var phase = Phase.connecting(waiters: [])
        var listeners: [UInt64: Listener] = [:]
        var joining: [UInt64: CheckedContinuation<Admission, Never>] = [:]
    }

    private let state = Mutex(State())
    private let logger: Logger

    init(id: StationID, node: NodeIdentity, logger: Logger) {
        self.id = id
        self.node = node
        self.logger = logger
    }

    /// What a relayed listener is told when its message can't reach the station's node.
    static let unreachable = "This station's server can't be reached right now; reconnecting."

    /// What the feed needs to open: who this node is, and how it proves it.
    struct Setup: Sendable {
        let node: String
        let proof: NodeProof
        let clock: any ServerClock
        /// How often the feed is pinged: a node that stops answering is let go after two.
        var pingInterval: Duration = .seconds(5)
    }

    /// Connects to the station's node, in a task that lasts as long as the
    /// feed; `ended` is called once it is over.
    func open(_ setup: Setup, ended: @escaping @Sendable () -> Void) {
        // An http(s) address as the node gave it: the client speaks
        // WebSocket over either (TLS for https).
        let url = node.address + "/cluster/stations/\(id)/feed"
        var configuration = WebSocketClientConfiguration(
            maxFrameSize: FeedDown.maxBytes, autoPing: .enabled(timePeriod: setup.pingInterval))
        configuration.additionalHeaders[.wavelengthNode] = setup.node
        configuration.additionalHeaders[.wavelengthNodeProof] = setup.proof.make(
            node: setup.node, station: id, now: setup.clock.now())
        let logger = logger
        Task {
            do {
                try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                    guard self.opened(outbound) else { return }
                    for try await message in inbound.messages(maxSize: FeedDown.maxBytes) {
                        guard case .binary(let buffer) = message, let frame = FeedDown(decoding: buffer) else { continue }
                        self.receive(frame)
                    }
                }
            } catch {
                logger.notice("The feed of station \(self.id) from node \(self.node.id) ended: \(error)")
            }
            self.end()
            ended()
        }
    }

    /// Seats a listener through the station's node, which sends its first
    /// messages (the snapshot) into `outbox` before it answers.
    func join(_ connection: ConnectionID, outbox: ListenerOutbox, window: ReplyWindow, as join: FeedUp.Join) async
        -> Admission
    {
        guard let outbound = await writer(), let text = Self.encode(.join(join)) else { return .gone }
        return await withCheckedContinuation { continuation in
            let open = state.withLock { state -> Bool in
                guard case .open = state.phase else { return false }
                state.listeners[connection.value] = Listener(outbox: outbox, window: window)
                state.joining[connection.value] = continuation
                return true
            }
            guard open else { return continuation.resume(returning: .gone) }
            Task {
                do {
                    try await outbound.write(.text(text))
                } catch {
                    self.settle(connection.value, .gone)
                }
            }
        }
    }

    /// Passes on what a listener here sent; false when the feed is down.
    func say(_ connection: ConnectionID, text: String, receivedAt: Double) async -> Bool {
        let outbound = state.withLock { state -> WebSocketOutboundWriter? in
            guard case .open(let outbound) = state.phase, state.listeners[connection.value] != nil else { return nil }
            return outbound
        }
        guard let outbound, let frame = Self.encode(.say(listener: connection.value, text: text, receivedAt: receivedAt))
        else { return false }
        return (try? await outbound.write(.text(frame))) != nil
    }

    /// A listener here left: the station's node lets them go too.
    func leave(_ connection: ConnectionID) async {
        let outbound = state.withLock { state -> WebSocketOutboundWriter? in
            guard state.listeners.removeValue(forKey: connection.value) != nil, case .open(let outbound) = state.phase
            else { return nil }
            return outbound
        }
        guard let outbound, let frame = Self.encode(.leave(listener: connection.value)) else { return }
        try? await outbound.write(.text(frame))
    }

    /// Whether the feed is connecting or connected.
    var isUp: Bool {
        state.withLock { state in
            if case .closed = state.phase { return false }
            return true
        }
    }

    /// How many listeners here hear the station through this feed.
    var listenerCount: Int { state.withLock { $0.listeners.count } }

    /// Closes the feed if nobody here listens or is joining; answers whether
    /// it did (a join from then on is told `gone`).
    func closeIfIdle() -> Bool {
        let outbound = state.withLock { state -> WebSocketOutboundWriter?? in
            guard state.listeners.isEmpty, state.joining.isEmpty else { return .none }
            switch state.phase {
            case .connecting(let waiters) where !waiters.isEmpty: return .none
            case .open(let outbound):
                state.phase = .closed
                return .some(outbound)
            case .connecting, .closed:
                state.phase = .closed
                return .some(nil)
            }
        }
        guard let outbound else { return false }
        if let outbound { Task { try? await outbound.close(.normalClosure, reason: nil) } }
        return true
    }

    /// The station runs here now, or is gone: every listener is closed (to
    /// reconnect to its hub) and the feed with them.
    func retire() {
        let outbound = end()
        if let outbound { Task { try? await outbound.close(.goingAway, reason: nil) } }
    }

    // MARK: The link

    private func opened(_ outbound: WebSocketOutboundWriter) -> Bool {
        let waiters = state.withLock { state -> [CheckedContinuation<WebSocketOutboundWriter?, Never>]? in
            guard case .connecting(let waiters) = state.phase else { return nil }
            state.phase = .open(outbound)
            return waiters
        }
        guard let waiters else { return false }  // retired while connecting
        for waiter in waiters { waiter.resume(returning: outbound) }
        return true
    }

    private func writer() async -> WebSocketOutboundWriter? {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> WebSocketOutboundWriter?? in
                switch state.phase {
                case .connecting(var waiters):
                    waiters.append(continuation)
                    state.phase = .connecting(waiters: waiters)
                    return .none
                case .open(let outbound): return .some(outbound)
                case .closed: return .some(nil)
                }
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    private func receive(_ frame: FeedDown) {
        switch frame.kind {
        case .message, .reply:
            let message = EncodedMessage(rest: frame.payload)
            let targets = state.withLock { state in frame.listeners.compactMap { state.listeners[$0] } }
            for target in targets {
                if frame.kind == .reply {
                    target.window.counted()
                    _ = target.outbox.offer(.reply(message))
                } else {
                    _ = target.outbox.offer(.text(message))
                }
            }
        case .admitted:
            for listener in frame.listeners { settle(listener, .admitted) }
        case .refused:
            let refusal = try? JSONDecoder().decode(FeedDown.Refusal.self, from: Data(buffer: frame.payload))
            let code = refusal.flatMap { ErrorCode(rawValue: $0.code) } ?? .serviceUnavailable
            for listener in frame.listeners {
                settle(listener, .refused(code, refusal?.message ?? "The station's server refused the connection."))
            }
        case .closed:
            let gone = state.withLock { state in frame.listeners.compactMap { state.listeners.removeValue(forKey: $0) } }
            for listener in gone { listener.outbox.finish() }
        }
    }

    /// A join's answer; a refused listener is let go here.
    private func settle(_ listener: UInt64, _ admission: Admission) {
        let waiting = state.withLock { state -> CheckedContinuation<Admission, Never>? in
            if admission != .admitted { state.listeners[listener] = nil }
            return state.joining.removeValue(forKey: listener)
        }
        waiting?.resume(returning: admission)
    }

    /// The feed is over: every listener closes, every join is told `gone`.
    @discardableResult
    private func end() -> WebSocketOutboundWriter? {
        let (outbound, waiters, listeners, joins) = state.withLock { state in
            var (outbound, waiters): (WebSocketOutboundWriter?, [CheckedContinuation<WebSocketOutboundWriter?, Never>]) = (nil, [])
            switch state.phase {
            case .open(let writer): outbound = writer
            case .connecting(let waiting): waiters = waiting
            case .closed: break
            }
            state.phase = .closed
            defer {
                state.listeners = [:]
                state.joining = [:]
            }
            // A listener still joining is told `gone`, with its outbox open
            // for wherever the station runs next.
            let seated = state.listeners.filter { state.joining[$0.key] == nil }.values
            return (outbound, waiters, Array(seated), Array(state.joining.values))
        }
        for waiter in waiters { waiter.resume(returning: nil) }
        for join in joins { join.resume(returning: .gone) }
        for listener in listeners { listener.outbox.finish() }
        return outbound
    }

    private static func encode(_ up: FeedUp) -> String? {
        (try? JSONEncoder().encode(up)).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension HTTPField.Name {
    /// The node opening a feed, and its `NodeProof`.
    static let wavelengthNode = Self("X-Wavelength-Node")!
    static let wavelengthNodeProof = Self("X-Wavelength-Node-Proof")!
}
