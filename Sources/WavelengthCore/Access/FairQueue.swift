/// Shares a few slots of slow work (bcrypt) fairly between keys (client
/// addresses): waiting jobs are started round-robin, one key at a time, so
/// eighty signups from one address hold a login from another back by one
/// job at most, not by eighty.
///
/// A pure state machine in swift-websocket's style: each `mutating` method
/// returns what to do (start a job, refuse it). The caller owns the jobs.
public struct FairQueue<Key: Hashable & Sendable, Job: Hashable & Sendable>: Sendable {
    public enum Admission: Sendable, Equatable {
        /// Run it now.
        case start
        /// Wait: `finished` will return it.
        case queued
        /// Too much is waiting already (for this key, or in all).
        case refused
    }

    public let slots: Int
    public let maxWaitingPerKey: Int
    public let maxWaiting: Int
    public private(set) var running = 0
    /// Waiting jobs by key, and the keys in the order they get their turn.
    private var waiting: [Key: [Job]] = [:]
    private var turns: [Key] = []
    public private(set) var waitingCount = 0

    public init(slots: Int, maxWaitingPerKey: Int, maxWaiting: Int) {
        self.slots = max(1, slots)
        self.maxWaitingPerKey = max(0, maxWaitingPerKey)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// A new job for `key`.
    public mutating func submit(_ job: Job, for key: Key) -> Admission {
        if running < slots && waitingCount == 0 {
            running += 1
            return .start
        }
        let queue = waiting[key] ?? []
        guard queue.count < maxWaitingPerKey, waitingCount < maxWaiting else { return .refused }
        if queue.isEmpty { turns.append(key) }
        waiting[key] = queue + [job]
        waitingCount += 1
        return .queued
    }

    /// A running job ended; returns the waiting job to start in its slot,
    /// taken from the next key in turn.
    public mutating func finished() -> Job? {
        guard !turns.isEmpty else {
            running = max(0, running - 1)
            return nil
        }
        let key = turns.removeFirst()
        var queue = waiting[key]!
        let job = queue.removeFirst()
        waitingCount -= 1
        if queue.isEmpty {
            waiting[key] = nil
        } else {
            waiting[key] = queue
            turns.append(key)  // back of the line
        }
        return job
    }

    /// Takes a waiting job out (its caller went away). Returns whether it
    /// was waiting.
    public mutating func cancel(_ job: Job, for key: Key) -> Bool {
        guard var queue = waiting[key], let index = queue.firstIndex(of: job) else { return false }
        queue.remove(at: index)
        waitingCount -= 1
        if queue.isEmpty {
            waiting[key] = nil
            turns.removeAll { $0 == key }
        } else {
            waiting[key] = queue
        }
        return true
    }
}
