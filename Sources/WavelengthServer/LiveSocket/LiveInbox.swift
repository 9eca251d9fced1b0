import NIOCore
import Synchronization
import WavelengthCore

/// What one client sent, handled in order, one message at a time, by a task
/// that lasts only while there is something to handle.
///
/// Before the listener is admitted its messages wait here; after the
/// connection ends they are dropped. When more than `readAhead` wait, the
/// connection stops reading, so a client that floods the server is slowed
/// by TCP instead of growing this queue.
final class LiveInbox: Sendable {
    static let readAhead = 16

    enum Message: Sendable {
        case text(String)
        case binary
    }

    private struct State {
        var waiting: [(Message, receivedAt: Double)] = []  // at most `readAhead` or so
        var session: (any LiveMessageHandler)?
        var handling = false
        var paused = false
        /// Refused or gone: messages are dropped.
        var ended = false
    }

    private let channel: any Channel
    private let state = Mutex(State())

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Takes a message the client sent; answers whether the connection
    /// should stop reading until `LiveSocketEvent.resumeReading`.
    func receive(_ message: Message, receivedAt: Double) -> Bool {
        let (start, pause) = state.withLock { state -> (Bool, Bool) in
            guard !state.ended else { return (false, false) }
            state.waiting.append((message, receivedAt))
            let start = state.session != nil && !state.handling
            if start { state.handling = true }
            if state.waiting.count >= Self.readAhead { state.paused = true }
            return (start, state.paused)
        }
        if start { handleWaiting() }
        return pause
    }

    /// The listener was admitted: its messages are handled from now on.
    /// False when the connection already ended (the caller lets it go).
    func admit(_ session: any LiveMessageHandler) -> Bool {
        let start = state.withLock { state -> Bool? in
            guard !state.ended else { return nil }
            state.session = session
            guard !state.waiting.isEmpty else { return false }
            state.handling = true
            return true
        }
        guard let start else { return false }
        if start { handleWaiting() }
        return true
    }

    /// No more messages are handled (a refused client, a closed connection).
    /// Answers the admitted session, if there was one, for the caller to end.
    @discardableResult
    func end() -> (any LiveMessageHandler)? {
        state.withLock { state in
            state.ended = true
            state.waiting.removeAll()
            defer { state.session = nil }
            return state.session
        }
    }

    private func handleWaiting() {
        Task {
            while let (message, receivedAt, session) = next() {
                await session.handle(message, receivedAt: receivedAt)
            }
        }
    }

    private func next() -> (Message, Double, any LiveMessageHandler)? {
        let (next, resume) = state.withLock { state -> ((Message, Double, any LiveMessageHandler)?, Bool) in
            var resume = false
            if state.paused, state.waiting.count < Self.readAhead / 2 {
                state.paused = false
                resume = true
            }
            guard !state.ended, let session = state.session, !state.waiting.isEmpty else {
                state.handling = false
                return (nil, resume)
            }
            let (message, at) = state.waiting.removeFirst()
            return ((message, at, session), resume)
        }
        if resume { channel.pipeline.fireUserInboundEventTriggered(LiveSocketEvent.resumeReading) }
        return next
    }
}

/// What handles a live connection's messages once it is admitted: a
/// listener's `LiveSession`, or a relaying node's `FeedLink`.
protocol LiveMessageHandler: Sendable {
    func handle(_ message: LiveInbox.Message, receivedAt: Double) async
    /// The connection closed: let go of what it held.
    func ended() async
}
