import Hummingbird
import NIOCore
import NIOPosix
import WavelengthCore
import WavelengthWire

/// Runs bcrypt on NIO's thread pool a few jobs at a time, sharing the slots
/// fairly between client addresses (`FairQueue`): a flood of signups from
/// one address waits behind itself, and a login from elsewhere gets the
/// next free slot. Too much waiting is refused at once (429, `busy`) rather
/// than queued without bound.
actor PasswordWork {
    private var queue: FairQueue<String, UInt64>
    private var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    private var nextJob: UInt64 = 0

    /// One slot per core: bcrypt is pure CPU, and more at once only makes
    /// every one of them slower.
    init(
        slots: Int = System.coreCount, maxWaitingPerAddress: Int = 8, maxWaiting: Int = 256
    ) {
        queue = FairQueue(slots: slots, maxWaitingPerKey: maxWaitingPerAddress, maxWaiting: maxWaiting)
    }

    /// Runs `work` for `address` when its turn comes.
    func run<T: Sendable>(for address: String, _ work: @escaping @Sendable () -> T) async throws -> T {
        try await admit(address)
        do {
            let result = try await NIOThreadPool.singleton.runIfActive(work)
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    private func admit(_ address: String) async throws {
        nextJob &+= 1
        let job = nextJob
        switch queue.submit(job, for: address) {
        case .start:
            return
        case .refused:
            var error = APIError(
                .tooManyRequests, code: .busy, "The server is busy checking passwords; try again in a few seconds.")
            error.headers[.retryAfter] = "2"
            throw error
        case .queued:
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { waiters[job] = $0 }
            } onCancel: {
                Task { await self.cancel(job, for: address) }
            }
        }
    }

    /// A slot is free: the next address in turn starts its job.
    private func release() {
        if let next = queue.finished() {
            waiters.removeValue(forKey: next)?.resume()
        }
    }

    /// A caller that went away before its turn leaves the line.
    private func cancel(_ job: UInt64, for address: String) {
        if queue.cancel(job, for: address) {
            waiters.removeValue(forKey: job)?.resume(throwing: CancellationError())
        }
    }
}
