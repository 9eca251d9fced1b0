import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import WavelengthWire

/// A station WebSocket client for tests: collects every server message and
/// lets a test wait for the next one that matches, without sleeping.
final class LiveClient: Sendable {
    private let inbox = Inbox()
    private let outgoing: AsyncStream<WebSocketOutboundFrame>.Continuation
    private let connection: Task<Void, any Error>

    /// `token` is a bearer access token sent on the upgrade request.
    init(port: Int, path: String, token: String? = nil) {
        let (stream, continuation) = AsyncStream<WebSocketOutboundFrame>.makeStream()
        outgoing = continuation
        let inbox = self.inbox
        connection = Task {
            var logger = Logger(label: "live-client")
            logger.logLevel = .error
            defer { Task { await inbox.close() } }
            var configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20)
            if let token { configuration.additionalHeaders[.authorization] = "Bearer \(token)" }
            let frame: WebSocketCloseFrame?
            do {
                frame = try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)\(path)", configuration: configuration, logger: logger
            ) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await frame in stream {
                            switch frame {
                            case .text(let text): try await outbound.write(.text(text))
                            case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                            case .close: try await outbound.close(.normalClosure, reason: "bye")
                            }
                        }
                    }
                    group.addTask {
                        // Like a real client of protocol version 2: updates
                        // name the tracks of the last window taken by id.
                        var known = KnownTracks()
                        var held: Int64?
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            guard case .text(let text) = message else { continue }
                            let decoder = JSONDecoder()
                            decoder.userInfo[KnownTracks.key] = known
                            do {
                                let decoded = try decoder.decode(SequencedServerMessage.self, from: Data(text.utf8))
                                var window: TimelineWindow?
                                switch decoded.message {
                                case .snapshot(let snapshot): window = snapshot.timeline
                                case .update(let update): window = update
                                default: break
                                }
                                if let window, window.revision >= (held ?? .min) {
                                    known = KnownTracks(window)
                                    held = window.revision
                                }
                                await inbox.append(decoded, text: text)
                            } catch where KnownTracks.isUnknownTrack(error) {
                                // Counted, and healed as the web app heals it.
                                await inbox.unknownTrack(in: text)
                                continuation.yield(.text(#"{"type":"resync"}"#))
                            } catch {}
                        }
                    }
                    _ = try await group.next()
                    group.cancelAll()
                }
            }
            } catch {
                // Never connected, or the connection failed: said by the
                // waits that end because of it.
                await inbox.closedWith("failed: \(error)")
                throw error
            }
            await inbox.closedWith(frame.map { "\($0.closeCode) \($0.reason ?? "")" } ?? "no close frame")
        }
    }

    /// Why the connection ended, once it has.
    func closeReason() async -> String? {
        await inbox.closeReason
    }

    enum WebSocketOutboundFrame: Sendable {
        case text(String)
        case binary([UInt8])
        case close
    }

    func send(_ message: ClientMessage) throws {
        outgoing.yield(.text(String(decoding: try JSONEncoder().encode(message), as: UTF8.self)))
    }

    func sendRaw(_ text: String) {
        outgoing.yield(.text(text))
    }

    func sendBinary(_ bytes: [UInt8]) {
        outgoing.yield(.binary(bytes))
    }

    /// Waits for the first message not yet taken that matches.
    ///
    /// A wait that lasts a minute says so on stderr, with what has arrived,
    /// and goes on waiting: a hung test then shows where it hung.
    func next(
        where predicate: @escaping @Sendable (ServerMessage) -> Bool = { _ in true },
        file: String = #fileID, line: Int = #line
    ) async throws -> ServerMessage {
        let inbox = self.inbox
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            let seen = await inbox.types
            FileHandle.standardError.write(
                Data("LiveClient still waiting at \(file):\(line); received so far: \(seen)\n".utf8))
        }
        defer { watchdog.cancel() }
        guard let message = await inbox.next(where: predicate) else {
            throw ClosedError(reason: await inbox.closeReason, seen: await inbox.types, at: "\(file):\(line)")
        }
        return message
    }

    /// The sequence numbers received so far, in arrival order.
    func seenSequence() async -> [UInt64] {
        await inbox.sequence
    }

    /// The listener counts received so far, in arrival order (taken or not).
    func seenListenerCounts() async -> [Int] {
        await inbox.listenerCounts
    }

    /// The types of the messages received so far, in arrival order (taken or not).
    func seenTypes() async -> [String] {
        await inbox.types
    }

    /// Whether a message that matches has arrived and not been taken yet; never waits.
    func hasPending(where predicate: @escaping @Sendable (ServerMessage) -> Bool) async -> Bool {
        await inbox.hasPending(where: predicate)
    }

    /// Every update as it came, before its tracks were filled in.
    func updateTexts() async -> [String] {
        await inbox.updateTexts
    }

    /// Updates that named a track this client did not hold (the start of each).
    func unknownTracks() async -> [String] {
        await inbox.unknownTracks
    }

    func sequenceIsContiguous() async -> Bool {
        let seen = await inbox.sequence
        return seen == Array(1...UInt64(max(seen.count, 1))).prefix(seen.count).map { $0 }
    }

    /// Waits until the connection has closed.
    func closed() async {
        _ = try? await connection.value
    }

    func close() {
        outgoing.yield(.close)
        outgoing.finish()
    }

    /// The connection ended before the message waited for came: why (the
    /// close frame, or how connecting failed) and what came before, so a
    /// failure on a loaded CI machine says what happened.
    struct ClosedError: Error, CustomStringConvertible {
        var reason: String?
        var seen: [String] = []
        var at: String = ""

        init(reason: String? = nil, seen: [String] = [], at: String = "") {
            self.reason = reason
            self.seen = seen
            self.at = at
        }

        var description: String {
            "the connection closed (\(reason ?? "reason not yet known")) waiting at \(at); received: \(seen)"
        }
    }

    /// The server refused a command the test expected it to apply.
    struct Refused: Error, CustomStringConvertible {
        var code: String
        var message: String
        var description: String { "refused: \(code): \(message)" }
    }
}

extension LiveClient {
    func snapshot(file: String = #fileID, line: Int = #line) async throws -> ServerMessage.Snapshot {
        guard case .snapshot(let snapshot) = try await next(where: { $0.type == "snapshot" }, file: file, line: line) else { throw ClosedError() }
        return snapshot
    }

    func ack(_ id: String, file: String = #fileID, line: Int = #line) async throws -> CommandAck {
        // The command's refusal ends the wait too: a test that expected an
        // ack fails with the server's reason instead of waiting forever.
        let message = try await next(
            where: {
                switch $0 {
                case .ack(let ack): ack.id == id
                case .error(let errorID, _, _): errorID == id
                default: false
                }
            }, file: file, line: line)
        switch message {
        case .ack(let ack): return ack
        case .error(_, let code, let text): throw Refused(code: code, message: text)
        default: throw ClosedError()
        }
    }

    func error(file: String = #fileID, line: Int = #line) async throws -> (id: String?, code: String, message: String) {
        guard case .error(let id, let code, let message) = try await next(where: { $0.type == "error" }, file: file, line: line) else {
            throw ClosedError()
        }
        return (id, code, message)
    }

    func update(atLeast revision: Int64, file: String = #fileID, line: Int = #line) async throws -> TimelineWindow {
        let message = try await next(where: { if case .update(let window) = $0 { window.revision >= revision } else { false } }, file: file, line: line)
        guard case .update(let window) = message else { throw ClosedError() }
        return window
    }

    func listeners(_ count: Int, file: String = #fileID, line: Int = #line) async throws {
        _ = try await next(where: { if case .listeners(let n) = $0 { n == count } else { false } }, file: file, line: line)
    }

    /// The `access` message: what this connection's person may do here.
    func access(file: String = #fileID, line: Int = #line) async throws -> StationRole {
        guard case .access(let role) = try await next(where: { $0.type == "access" }, file: file, line: line) else { throw ClosedError() }
        return role
    }

    /// The next `role` message (the live DJ role): "dj" or "listener", with the epoch.
    func role(file: String = #fileID, line: Int = #line) async throws -> (role: String, epoch: Int64) {
        guard case .role(let role, let epoch) = try await next(where: { $0.type == "role" }, file: file, line: line) else { throw ClosedError() }
        return (role, epoch)
    }
}

/// Messages in arrival order. `next(where:)` takes out the first match and
/// leaves the others for later questions.
actor Inbox {
    private var messages: [ServerMessage] = []
    private(set) var sequence: [UInt64] = []
    private(set) var types: [String] = []
    private(set) var closeReason: String?

    func closedWith(_ reason: String) {
        closeReason = reason
    }
    private var isClosed = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Updates that named a track this client did not hold.
    private(set) var unknownTracks: [String] = []

    func unknownTrack(in text: String) {
        unknownTracks.append(String(text.prefix(300)))
        // Its place in the sequence still counts.
        if let data = text.data(using: .utf8),
            let seq = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["seq"] as? Int
        {
            sequence.append(UInt64(seq))
            types.append("update")
        }
        wakeAll()
    }

    /// Every update as it came, before its tracks were filled in.
    private(set) var updateTexts: [String] = []
    /// Every listener count as it came (taken or not).
    private(set) var listenerCounts: [Int] = []

    func append(_ message: SequencedServerMessage, text: String? = nil) {
        if case .update = message.message, let text { updateTexts.append(text) }
        if case .listeners(let count) = message.message { listenerCounts.append(count) }
        sequence.append(message.seq)
        types.append(message.message.type)
        messages.append(message.message)
        wakeAll()
    }

    func close() {
        isClosed = true
        wakeAll()
    }

    func hasPending(where predicate: @Sendable (ServerMessage) -> Bool) -> Bool {
        messages.contains(where: predicate)
    }

    func next(where predicate: @Sendable (ServerMessage) -> Bool) async -> ServerMessage? {
        while true {
            if let index = messages.firstIndex(where: predicate) {
                return messages.remove(at: index)
            }
            if isClosed { return nil }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    private func wakeAll() {
        let current = waiters
        waiters.removeAll()
        current.forEach { $0.resume() }
    }
}
