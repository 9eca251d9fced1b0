import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
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
        /// Each `party` message's first request's upvotes and arrival (bounded).
        var parties: [(upvotes: Int64?, at: UInt64)] = []
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
                // Frames, not messages: the server sends each message as one
                // frame, and turning 10,000 copies of every update into
                // Strings would be measured as latency.
                for try await frame in inbound {
                    let arrived = DispatchTime.now().uptimeNanoseconds
                    guard frame.opcode == .text, frame.fin else { continue }
                    let peek = LivePeek(frame.data)
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
                    case "party":
                        let upvotes = LivePeek.integer(#""upvotes":"#, in: frame.data)
                        self.seen.withLock {
                            $0[index].parties.append((upvotes, arrived))
                            if $0[index].parties.count > 32 { $0[index].parties.removeFirst() }
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
/// its JSON bytes without decoding it (or making a String of it).
struct LivePeek {
    var type: String?
    var revision: Int64?

    init(_ buffer: ByteBuffer) {
        (type, revision) = buffer.withUnsafeReadableBytes { bytes in
            (Self.string(after: Array(#""type":""#.utf8), in: bytes),
             Self.integer(after: Array(#""revision":"#.utf8), in: bytes))
        }
    }

    /// The first integer after `key` in a message's bytes.
    static func integer(_ key: String, in buffer: ByteBuffer) -> Int64? {
        buffer.withUnsafeReadableBytes { integer(after: Array(key.utf8), in: $0) }
    }

    private static func end(of key: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= key.count else { return nil }
        var start = 0
        while start <= bytes.count - key.count {
            if bytes[start] == key[0] {
                var matched = 1
                while matched < key.count, bytes[start + matched] == key[matched] { matched += 1 }
                if matched == key.count { return start + key.count }
            }
            start += 1
        }
        return nil
    }

    private static func string(after key: [UInt8], in bytes: UnsafeRawBufferPointer) -> String? {
        guard let start = end(of: key, in: bytes) else { return nil }
        var stop = start
        while stop < bytes.count, bytes[stop] != UInt8(ascii: "\"") { stop += 1 }
        guard stop < bytes.count else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
    }

    private static func integer(after key: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int64? {
        guard var index = end(of: key, in: bytes) else { return nil }
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: Int64 = 0
        var digits = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), digits < 18 {
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
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
