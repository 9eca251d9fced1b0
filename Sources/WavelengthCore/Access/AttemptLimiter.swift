/// Counts failures per key (e.g. "join-addr:1.2.3.4", "join-station:s123",
/// "login-handle:ana") and locks a key out after too many.
///
/// A pure value type: time is passed in, nothing sleeps, and memory stays
/// bounded by `maxKeys` however many keys an attacker invents.
public struct AttemptLimiter: Sendable {
    public struct Policy: Sendable, Equatable {
        /// Failures allowed within `window` before lockout; the one that
        /// reaches this count trips the lockout.
        public var maxFailures: Int
        /// ms. Failures older than this don't count.
        public var window: Int64
        /// ms, the first lockout.
        public var lockout: Int64
        /// ms; each consecutive lockout doubles, up to this. Also how long a
        /// key must stay quiet before its escalation is forgotten.
        public var maxLockout: Int64
        /// false = every lockout is `lockout` long.
        public var escalates: Bool

        public init(maxFailures: Int, window: Int64, lockout: Int64, maxLockout: Int64, escalates: Bool) {
            self.maxFailures = maxFailures
            self.window = window
            self.lockout = lockout
            self.maxLockout = maxLockout
            self.escalates = escalates
        }

        private static let minute: Int64 = 60 * 1000
        private static let hour: Int64 = 60 * minute

        /// 10 failures in 15 min → 15 min lockout, doubling up to 24 h.
        public static let joinPerAddress = Policy(
            maxFailures: 10, window: 15 * minute, lockout: 15 * minute, maxLockout: 24 * hour, escalates: true)
        /// 20 wrong access codes in 1 h → locked for 1 h, no escalation.
        ///
        /// Per station, so many addresses guessing together still can't sweep the
        /// code space; it doesn't escalate because the station's real members
        /// share this key and would be shut out by someone else's guessing.
        public static let joinPerStation = Policy(
            maxFailures: 20, window: hour, lockout: hour, maxLockout: hour, escalates: false)
        /// 10 failed logins in 15 min → 15 min, doubling to 24 h.
        public static let loginPerAddress = Policy(
            maxFailures: 10, window: 15 * minute, lockout: 15 * minute, maxLockout: 24 * hour, escalates: true)
        /// 5 failed logins for one handle in 15 min → 15 min, doubling to 24 h.
        public static let loginPerHandle = Policy(
            maxFailures: 5, window: 15 * minute, lockout: 15 * minute, maxLockout: 24 * hour, escalates: true)
    }

    public enum Decision: Sendable, Equatable {
        case allowed
        /// ms until the key may try again.
        case lockedOut(retryAfter: Int64)
    }

    /// What is remembered about one key.
    struct Entry: Sendable {
        /// Failure times inside the window, oldest first; never more than `maxFailures`.
        var failures: [EpochMillis] = []
        var lastFailure: EpochMillis = .min
        var lockedUntil: EpochMillis?
        /// Lockouts so far in this run; the next one lasts `lockout · 2^level`.
        var level = 0

        /// When the key last did something that matters: its last failure, or
        /// the end of its lockout (a lockout is ongoing activity until it ends).
        var lastActivity: EpochMillis { max(lastFailure, lockedUntil ?? .min) }

        func isLocked(at now: EpochMillis) -> Bool {
            guard let lockedUntil else { return false }
            return now < lockedUntil
        }
    }

    public let policy: Policy
    public let maxKeys: Int
    private var entries: [String: Entry] = [:]

    public init(policy: Policy, maxKeys: Int = 100_000) {
        self.policy = policy
        self.maxKeys = max(1, maxKeys)
    }

    public var trackedKeys: Int { entries.count }

    /// Whether the key may try now (does not count anything).
    public func check(_ key: String, at now: EpochMillis) -> Decision {
        guard let entry = entries[key], let lockedUntil = entry.lockedUntil, now < lockedUntil else { return .allowed }
        return .lockedOut(retryAfter: lockedUntil - now)
    }

    /// Records a failure; returns the decision after it (lockedOut when this
    /// failure tripped the limit).
    ///
    /// While locked out this changes nothing: a locked caller is refused before
    /// trying, so a failure here can't be a real attempt and mustn't extend the lock.
    @discardableResult
    public mutating func recordFailure(_ key: String, at now: EpochMillis) -> Decision {
        if entries[key] == nil, entries.count >= maxKeys {
            makeRoom(at: now)
        }
        var entry = entries[key] ?? Entry()
        if entry.isLocked(at: now) {
            return check(key, at: now)
        }
        settle(&entry, at: now)
        entry.failures.append(now)
        entry.lastFailure = max(entry.lastFailure, now)
        var decision = Decision.allowed
        if entry.failures.count >= policy.maxFailures {
            let duration = lockoutDuration(level: entry.level)
            let (until, overflow) = now.addingReportingOverflow(duration)
            entry.lockedUntil = overflow ? .max : until
            // Only climb while doubling still changes something, so the level stays small.
            if policy.escalates && duration < policy.maxLockout { entry.level += 1 }
            // After the lockout the count starts fresh.
            entry.failures.removeAll()
            decision = .lockedOut(retryAfter: duration)
        }
        entries[key] = entry
        return decision
    }

    /// Forgets a key's failures (used after a successful login, for the
    /// per-handle key only).
    ///
    /// The escalation level and any lockout in force are kept: the level decays
    /// only once the key has been quiet (no failures, not locked) for
    /// `maxLockout`. Otherwise an attacker could ride on the real owner's
    /// logins to get short first-time lockouts forever.
    public mutating func reset(_ key: String) {
        guard var entry = entries[key] else { return }
        entry.failures.removeAll()
        if entry.level == 0 && entry.lockedUntil == nil {
            entries[key] = nil
        } else {
            entries[key] = entry
        }
    }

    /// Drops state that no longer matters: keys with no failures in the
    /// window, no lockout in force and no escalation left to remember.
    public mutating func prune(at now: EpochMillis) {
        entries = entries.filter { _, entry in
            var entry = entry
            settle(&entry, at: now)
            return !(entry.failures.isEmpty && !entry.isLocked(at: now) && entry.level == 0)
        }
    }

    /// Brings an entry up to `now`: forgets failures outside the window, an
    /// expired lockout, and the escalation once the key has been quiet long enough.
    private func settle(_ entry: inout Entry, at now: EpochMillis) {
        entry.failures.removeAll { now - $0 >= policy.window }
        if let lockedUntil = entry.lockedUntil, now >= lockedUntil {
            entry.lockedUntil = nil
            // Quiet since the lockout ended (or the last failure, if later).
            if entry.level > 0, now - max(lockedUntil, entry.lastFailure) >= policy.maxLockout {
                entry.level = 0
            }
        } else if entry.lockedUntil == nil, entry.level > 0, now - entry.lastFailure >= policy.maxLockout {
            entry.level = 0
        }
    }

    /// `lockout · 2^level`, capped at `maxLockout`, without overflowing.
    private func lockoutDuration(level: Int) -> Int64 {
        guard policy.escalates else { return policy.lockout }
        var duration = policy.lockout
        for _ in 0..<level where duration < policy.maxLockout {
            let (doubled, overflow) = duration.multipliedReportingOverflow(by: 2)
            duration = overflow ? policy.maxLockout : doubled
        }
        return min(duration, max(policy.lockout, policy.maxLockout))
    }

    /// Called before a new key is added to a full table: drop what no longer
    /// matters, and if that isn't enough, evict the keys whose last activity is
    /// oldest. It evicts down to 7/8 of `maxKeys` so a flood of new keys pays
    /// for a scan once every `maxKeys/8` inserts rather than on every one.
    private mutating func makeRoom(at now: EpochMillis) {
        prune(at: now)
        guard entries.count >= maxKeys else { return }
        let excess = entries.count - (maxKeys - max(1, maxKeys / 8))
        // Selecting the excess-th oldest time is linear; sorting the table on
        // every overflow made a flood of new keys crawl (painfully so in debug builds).
        var activities = entries.values.map { $0.lastActivity }
        let cutoff = activities.nthSmallest(excess - 1)
        var doomed: [String] = []
        var ties: [String] = []
        for (key, entry) in entries {
            if entry.lastActivity < cutoff {
                doomed.append(key)
            } else if entry.lastActivity == cutoff {
                ties.append(key)
            }
        }
        doomed += ties.prefix(excess - doomed.count)
        for key in doomed { entries[key] = nil }
    }

    /// Simulates an attacker who fails as fast as allowed (one failure every
    /// 1 ms whenever not locked out) for `duration` ms, starting with a fresh
    /// key, and returns how many failures were let through: the number of
    /// guesses the policy concedes over that time.
    public static func maxFailures(policy: Policy, over duration: Int64) -> Int {
        var limiter = AttemptLimiter(policy: policy, maxKeys: 1)
        var now: EpochMillis = 0
        var count = 0
        while now < duration {
            switch limiter.check("attacker", at: now) {
            case .allowed:
                limiter.recordFailure("attacker", at: now)
                count += 1
                now += 1
            case .lockedOut(let retryAfter):
                // Nothing changes while locked, so jump to the end instead of
                // polling every millisecond.
                now += retryAfter
            }
        }
        return count
    }
}

extension Array where Element == EpochMillis {
    /// The element that would sit at `index` if the array were sorted
    /// (Hoare's quickselect; reorders the array). Expected linear time.
    fileprivate mutating func nthSmallest(_ index: Int) -> EpochMillis {
        precondition(indices.contains(index))
        var low = 0
        var high = count - 1
        while low < high {
            let pivot = self[low + (high - low) / 2]
            var i = low
            var j = high
            while i <= j {
                while self[i] < pivot { i += 1 }
                while self[j] > pivot { j -= 1 }
                if i <= j {
                    swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            // Now [low...j] ≤ pivot ≤ [i...high], and everything strictly between equals the pivot.
            if index <= j {
                high = j
            } else if index >= i {
                low = i
            } else {
                return self[index]
            }
        }
        return self[index]
    }
}
