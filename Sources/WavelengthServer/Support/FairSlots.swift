import WavelengthCore

/// A few slots of slow work (bcrypt, ffmpeg) shared fairly between clients:
/// the pure `FairQueue` decides who goes next, this actor does the waiting.
/// Too much waiting is refused at once with `refusal`, never queued without
/// bound; a caller that goes away leaves the line.
actor FairSlots {
    private var queue: FairQueue<String, UInt64>
    private var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    private var nextJob: UInt64 = 0
    private let refusal: @Sendable () -> any Error

    init(slots: Int, maxWaitingPerClient: Int, maxWaiting: Int, refusal: @escaping @Sendable () -> any Error) {
        queue = FairQueue(slots: slots, maxWaitingPerKey: maxWaitingPerClient, maxWaiting: maxWaiting)
        self.refusal = refusal
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
            throw refusal()
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
