import Foundation
import HummingbirdWSClient
import Logging
import Synchronization

/// Many WebSocket listeners on one station, each a real client connection
/// (SwiftNIO, through HummingbirdWSClient) that reads every message the
/// server sends, as an app would, and notes when the ones that matter came.
///
/// Listeners only peek at a message's type and revision rather than decode
/// it: the load generator shares the machine's two cores with the server,
/// and decoding 10,000 copies of each update would be measured as latency.
final class ListenerCrowd: Sendable {
    /// What one listener saw, in `DispatchTime` nanoseconds.
    struct Seen: Sendable {
        var joinedAt: UInt64?
        var closed: String?
        /// Whether this listener's handshake slot was given back.
        var slotFreed = false
        /// Each update's revision and arrival, oldest first (bounded).
        var updates: [(revision: Int64, at: UInt64)] = []
    }

    let url: String
    private let seen: Mutex<[Seen]>

    init(url: String, size: Int) {
        self.url = url
        self.seen = Mutex(Array(repeating: Seen(), count: size))
    }

    var size: Int { seen.withLock { $0.count } }

    func snapshot() -> [Seen] { seen.withLock { $0 } }

    /// Whether every listener satisfies `condition`, checked in place (no copy).
    func all(_ condition: (Seen) -> Bool) -> Bool { seen.withLock { $0.allSatisfy(condition) } }

    /// Connects every listener, at most `connecting` handshakes in flight, and
    /// keeps them all connected until the task is cancelled.
    func run(connecting: Int) async {
        let logger = Logger(label: "bench-listener", factory: { _ in SwiftLogNoOpLogHandler() })
        let slots = AsyncSemaphore(connecting)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<size {
                await slots.wait()
                if Task.isCancelled { slots.signal(); break }
                group.addTask { await self.listen(index: index, slots: slots, logger: logger) }
            }
            await group.waitForAll()
        }
    }

    private func listen(index: Int, slots: AsyncSemaphore, logger: Logger) async {
        // A handshake slot is free again once the listener has its snapshot,
        // or has failed: whichever comes first, once.
        let release = { @Sendable in
            let first = self.seen.withLock { seen in
                defer { seen[index].slotFreed = true }
                return !seen[index].slotFreed
            }
            if first { slots.signal() }
        }
        do {
            let closeFrame = try await WebSocketClient.connect(
                url: url, configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 20), logger: logger
            ) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 4 << 20) {
                    let arrived = DispatchTime.now().uptimeNanoseconds
                    guard case .text(let text) = message else { continue }
                    let peek = LivePeek(text)
                    switch peek.type {
                    case "snapshot":
                        self.seen.withLock { if $0[index].joinedAt == nil { $0[index].joinedAt = arrived } }
                        release()
                    case "update":
                        if let revision = peek.revision {
                            self.seen.withLock {
                                $0[index].updates.append((revision, arrived))
                                if $0[index].updates.count > 32 { $0[index].updates.removeFirst() }
                            }
                        }
                    default:
                        break
                    }
                }
            }
            release()
            if !Task.isCancelled {
                let reason = "closed by the server (\(closeFrame.map { "\($0.closeCode)" } ?? "no close frame"))"
                seen.withLock { $0[index].closed = reason }
            }
        } catch {
            release()
            if !Task.isCancelled { seen.withLock { $0[index].closed = "\(error)" } }
        }
    }
}

/// The `type` and first `revision` of a server message, read straight from
/// its JSON text without decoding it.
struct LivePeek {
    var type: Substring?
    var revision: Int64?

    init(_ text: String) {
        type = Self.string(after: #""type":""#, in: text)
        revision = Self.integer(after: #""revision":"#, in: text)
    }

    private static func string(after key: String, in text: String) -> Substring? {
        guard let start = text.range(of: key)?.upperBound,
              let end = text[start...].firstIndex(of: "\"") else { return nil }
        return text[start..<end]
    }

    private static func integer(after key: String, in text: String) -> Int64? {
        guard let start = text.range(of: key)?.upperBound else { return nil }
        return Int64(text[start...].prefix(while: { $0.isNumber || $0 == "-" }))
    }
}

/// A counting semaphore for tasks: `wait` suspends (never blocks a thread)
/// until a slot is free.
final class AsyncSemaphore: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(_ slots: Int) { state = Mutex(State(free: slots)) }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.free > 0 { state.free -= 1; return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func signal() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty { state.free += 1; return nil }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
