import Synchronization

/// Backpressure for what one client sends: at most `limit` answers may wait
/// in its queue. Past that the connection stops reading until the writer
/// catches up, so a client that floods the server slows itself down (TCP
/// pushes back) instead of filling its queue and being dropped as too slow.
final class ReplyWindow: Sendable {
    static let limit = 64

    private struct State {
        var outstanding = 0
        var waiter: CheckedContinuation<Void, Never>?
        var closed = false
    }

    private let state = Mutex(State())

    /// Called after queueing an answer; waits while too many are queued.
    func queued() async {
        let full = state.withLock { state in
            state.outstanding += 1
            return state.outstanding >= Self.limit && !state.closed
        }
        guard full else { return }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.outstanding < Self.limit || state.closed { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Counts an answer queued by whoever can't wait for the writer (a
    /// relaying node, whose reader is the station's node: see `StationFeed`).
    func counted() {
        state.withLock { $0.outstanding += 1 }
    }

    /// Called by the writer for each answer it wrote.
    func written() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.outstanding -= 1
            guard state.outstanding < Self.limit / 2 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Whether a reader is waiting for answers to be written.
    var readerWaits: Bool { state.withLock { $0.waiter != nil } }

    /// The connection ended: never leave a reader waiting.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
