import WavelengthCore
import WavelengthWire

/// A few slots of slow work (bcrypt, ffmpeg) shared fairly between clients:
/// the pure `FairQueue` decides who goes next, this actor does the waiting.
/// Too much waiting is refused at once (429 `busy` with `Retry-After`), never
/// queued without bound; a caller that goes away leaves the line.
actor FairSlots {
    private var queue: FairQueue<String, UInt64>
    private var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    private var nextJob: UInt64 = 0
    private let busyMessage: String
    private let retryAfterSeconds: Int

    init(slots: Int, maxWaitingPerClient: Int, maxWaiting: Int, busy message: String, retryAfterSeconds: Int) {
        queue = FairQueue(slots: slots, maxWaitingPerKey: maxWaitingPerClient, maxWaiting: maxWaiting)
        busyMessage = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// Runs `work` in a slot, in `client`'s turn.
    func run<T: Sendable>(for client: String, _ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire(for: client)
        do {
            let result = try await work()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    private func acquire(for client: String) async throws {
        nextJob &+= 1
        let job = nextJob
        switch queue.submit(job, for: client) {
        case .start:
            return
        case .refused:
            var error = APIError(.tooManyRequests, code: .busy, busyMessage)
            error.headers[.retryAfter] = String(retryAfterSeconds)
            throw error
        case .queued:
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { waiters[job] = $0 }
            } onCancel: {
                Task { await self.cancel(job, for: client) }
            }
        }
    }

    /// A slot is free: the next client in turn starts its job.
    private func release() {
        if let next = queue.finished() { waiters.removeValue(forKey: next)?.resume() }
    }

    /// A caller that went away before its turn leaves the line.
    private func cancel(_ job: UInt64, for client: String) {
        if queue.cancel(job, for: client) { waiters.removeValue(forKey: job)?.resume(throwing: CancellationError()) }
    }
}
