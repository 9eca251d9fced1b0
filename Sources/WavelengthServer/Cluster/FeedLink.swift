import Foundation
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import WavelengthCore
import WavelengthStore
import WavelengthWire

/// The node running a station, serving one relaying node's feed of it (see
/// `StationFeed`): each listener there is seated on the hub here like one of
/// this node's own, with a `FeedQueue`, and what they send is handled by a
/// `LiveSession` of their own. What the hub queues for them is written on
/// the feed's event loop, a broadcast once for all of them.
final class FeedLink: LiveMessageHandler {
    let station: StationID
    private let channel: any Channel
    private let seating: ListenerSeating
    private let clock: any ServerClock
    private let logger: Logger

    private enum Pending {
        case outgoing(UInt64, LiveOutgoing)
        case frame(FeedDown)
    }

    private struct State {
        /// Each relayed listener's session, by the relaying node's number.
        var sessions: [UInt64: LiveSession] = [:]
        var pending: [Pending] = []
        var drainScheduled = false
        var ended = false
    }

    private let state = Mutex(State())

    /// A relaying node further behind than this is let go: its listeners
    /// reconnect, as a slow listener here does.
    static let maxUnsentBytes = 64 << 20

    init(channel: any Channel, station: StationID, seating: ListenerSeating, clock: any ServerClock, logger: Logger) {
        self.channel = channel
        self.station = station
        self.seating = seating
        self.clock = clock
        self.logger = logger
        channel.setOption(
            ChannelOptions.writeBufferWaterMark, value: .init(low: Self.maxUnsentBytes / 2, high: Self.maxUnsentBytes)
        ).whenFailure { _ in }
    }

    // MARK: What the relaying node sends

    func handle(_ message: LiveInbox.Message, receivedAt: Double) async {
        guard case .text(let text) = message,
            let up = try? JSONDecoder().decode(FeedUp.self, from: Data(text.utf8))
        else {
            logger.warning("Station \(station)'s feed: a message that isn't one; ignored")
            return
        }
        switch up {
        case .join(let join):
            // Seated side by side (each waits on storage); the relaying node
            // sends nothing else for a listener until it is answered.
            Task { await self.seat(join) }
        case .say(let listener, let text, let receivedAt):
            guard let session = state.withLock({ $0.sessions[listener] }) else { return }
            await session.handle(.text(text), receivedAt: receivedAt)
        case .leave(let listener):
            await state.withLock({ $0.sessions.removeValue(forKey: listener) })?.ended()
        }
    }

    /// The feed closed: its listeners leave the station.
    func ended() async {
        let sessions = state.withLock { state in
            state.ended = true
            state.pending = []
            defer { state.sessions = [:] }
            return Array(state.sessions.values)
        }
        for session in sessions { await session.ended() }
    }

    private func seat(_ join: FeedUp.Join) async {
        let connection = ConnectionIDs.next()
        let queue = FeedQueue(link: self, listener: join.listener, compactUpdates: join.compactUpdates)
        let listener = ListenerSeating.Listener(
            caller: Caller(person: join.person, sessionID: nil, viaCookie: false, isAdministrator: join.administrator),
            device: join.device.flatMap(DeviceKey.init), address: join.address, since: join.since)
        do {
            guard let hub = try await seating.directory.hub(id: station) else {
                return refuse(join.listener, .notFound, "No station with id \(station).")
            }
            try await seating.seat(listener, on: hub, as: connection, queue: queue)
            let session = LiveSession(station: .hub(hub), connection: connection, queue: queue, clock: clock, window: nil)
            let kept = state.withLock { state -> Bool in
                guard !state.ended else { return false }
                state.sessions[join.listener] = session
                return true
            }
            guard kept else { return await hub.disconnect(connection) }
            enqueue(.frame(FeedDown(kind: .admitted, listeners: [join.listener])))
        } catch {
            let (code, message) = ListenerSeating.refusal(error, logger: logger)
            refuse(join.listener, code, message)
            // The station runs on another node now: nobody on this feed can
            // be served here, so it closes, after the refusal, and the
            // relaying node asks again who runs it.
            if error is StationElsewhere { channel.eventLoop.execute { self.channel.close(promise: nil) } }
        }
    }

    private func refuse(_ listener: UInt64, _ code: ErrorCode, _ message: String) {
        let refusal = (try? JSONEncoder().encode(FeedDown.Refusal(code: code.rawValue, message: message))) ?? Data()
        enqueue(.frame(FeedDown(kind: .refused, listeners: [listener], payload: ByteBuffer(bytes: refusal))))
    }

    // MARK: What the hub sends

    /// False once the feed has ended: the hub lets the listener go.
    fileprivate func offer(_ outgoing: LiveOutgoing, to listener: UInt64) -> Bool {
        // A pong is answered on the relaying node, never here.
        if case .pong = outgoing { return true }
        return enqueue(.outgoing(listener, outgoing))
    }

    /// The hub let a relayed listener go: the relaying node closes its
    /// socket, and its `leave` ends the session here (as a socket closing
    /// here does).
    fileprivate func finished(_ listener: UInt64) {
        enqueue(.frame(FeedDown(kind: .closed, listeners: [listener])))
    }

    @discardableResult
    private func enqueue(_ pending: Pending) -> Bool {
        let schedule = state.withLock { state -> Bool? in
            guard !state.ended else { return nil }
            state.pending.append(pending)
            defer { state.drainScheduled = true }
            return !state.drainScheduled
        }
        guard let schedule else { return false }
        if schedule { channel.eventLoop.execute { self.drain() } }
        return true
    }

    /// On the event loop: everything waiting, in order, as few frames as
    /// it takes (one message offered to many listeners in a row is one).
    private func drain() {
        let batch = state.withLock { state -> [Pending] in
            state.drainScheduled = false
            defer { state.pending = [] }
            return state.pending
        }
        guard !batch.isEmpty else { return }
        guard channel.isWritable else {
            logger.warning("Station \(station)'s feed: the relaying node is too far behind; closing the feed")
            channel.close(promise: nil)
            return
        }
        var frames: [FeedDown] = []
        for item in batch {
            switch item {
            case .frame(let frame):
                frames.append(frame)
            case .outgoing(let listener, let outgoing):
                let (kind, message): (FeedDown.Kind, EncodedMessage)
                switch outgoing {
                case .text(let text): (kind, message) = (.message, text)
                case .reply(let text): (kind, message) = (.reply, text)
                case .pong: continue
                }
                if let last = frames.last, last.kind == kind, Self.same(last.payload, message.rest) {
                    frames[frames.count - 1].listeners.append(listener)
                } else {
                    frames.append(FeedDown(kind: kind, listeners: [listener], payload: message.rest))
                }
            }
        }
        for frame in frames {
            channel.write(WebSocketFrame(fin: true, opcode: .binary, data: frame.encoded(channel.allocator)), promise: nil)
        }
        channel.flush()
    }

    /// The same message: the same bytes in memory (a broadcast's one
    /// encoding), which both buffers hold alive while compared.
    private static func same(_ one: ByteBuffer, _ other: ByteBuffer) -> Bool {
        one.readableBytes == other.readableBytes
            && one.withUnsafeReadableBytes { a in other.withUnsafeReadableBytes { b in a.baseAddress == b.baseAddress } }
    }
}

/// A relayed listener's queue on the station's hub: into its feed.
struct FeedQueue: ListenerQueue {
    let link: FeedLink
    let listener: UInt64
    let compactUpdates: Bool

    func offer(_ outgoing: LiveOutgoing) -> Bool { link.offer(outgoing, to: listener) }
    func finish() { link.finished(listener) }
}
