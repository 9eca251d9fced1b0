/// Counts failures per key (an address, a station, a handle at an address)
/// and makes a key wait after too many, longer each time.
///
/// An attempt is *reserved* before it is checked (`reserve`) and settled
/// after (`finish`): attempts in flight count against the limit, so a
/// hundred concurrent guesses get no more checks than a hundred in a row.
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

        /// One address, every station: 50 misses in 15 min → a 1 min wait,
        /// doubling to 1 h. Sized for a party behind one NAT, where a dozen
        /// guests may each fumble the code.
        public static let joinPerAddress = Policy(
            maxFailures: 50, window: 15 * minute, lockout: minute, maxLockout: hour, escalates: true)
        /// Stream keys from one address: 10 wrong in 15 min → 1 min,
        /// doubling to 1 h. A key is 144 random bits, so this is for the
        /// load, not the odds; a studio's software retries one key at most.
        public static let streamKeyPerAddress = Policy(
            maxFailures: 10, window: 15 * minute, lockout: minute, maxLockout: hour, escalates: true)
        /// One address at one station: 30 wrong codes in 15 min → 1 min,
        /// doubling to 1 h.
        public static let joinPerStationAddress = Policy(
            maxFailures: 30, window: 15 * minute, lockout: minute, maxLockout: hour, escalates: true)
        /// One person (a guest or a user) at one station: 5 wrong codes in
        /// 15 min → 1 min, doubling to 1 h. The guest beside them on the
        /// same Wi-Fi is not held back.
        public static let joinPerStationPerson = Policy(
            maxFailures: 5, window: 15 * minute, lockout: minute, maxLockout: hour, escalates: true)
        /// One station, every address: 200 wrong codes in 1 h → 15 min,
        /// doubling to 1 h; the wait applies only to addresses that have
        /// guessed wrong there, so the station's real guests still join.
        public static let joinPerStation = Policy(
            maxFailures: 200, window: hour, lockout: 15 * minute, maxLockout: hour, escalates: true)
        /// One address, every handle: 50 failed logins in 15 min → 1 min,
        /// doubling to 1 h.
        public static let loginPerAddress = joinPerAddress
        /// One handle from one address: 5 failed logins in 15 min → 1 min,
        /// doubling to 1 h. Someone else's guessing never locks you out.
        public static let loginPerHandleAddress = Policy(
            maxFailures: 5, window: 15 * minute, lockout: minute, maxLockout: hour, escalates: true)
        /// One handle, every address: 100 failed logins in 1 h → 15 min,
        /// doubling to 1 h, for addresses that have failed on it.
        public static let loginPerHandle = Policy(
            maxFailures: 100, window: hour, lockout: 15 * minute, maxLockout: hour, escalates: true)
        /// New accounts or guests from one address: `perHour` in an hour →
        /// 15 min, doubling to 1 h. Every one counts, made or not.
        public static func newPeoplePerAddress(_ perHour: Int) -> Policy {
            Policy(maxFailures: perHour, window: hour, lockout: 15 * minute, maxLockout: hour, escalates: true)
        }
    }

    /// How long an attempt may stay in flight before it stops counting: a
    /// reservation whose request died without finishing can't hold the key
    /// forever.
    public static let reservationTimeout: Int64 = 60 * 1000

    /// A lockout worth keeping across a restart.
    public struct Lockout: Sendable, Equatable {
        public var key: String
        public var lockedUntil: EpochMillis
        public var level: Int
        public var lastFailure: EpochMillis

        public init(key: String, lockedUntil: EpochMillis, level: Int, lastFailure: EpochMillis) {
            self.key = key
            self.lockedUntil = lockedUntil
            self.level = level
            self.lastFailure = lastFailure
        }
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
        /// Lockouts so far; the next one lasts `lockout · 2^level`.
        var level = 0
        /// When each attempt still in flight was reserved.
        var pending: [EpochMillis] = []

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

    /// Whether the key has failed lately: a failure in the window, a
    /// lockout in force, or escalation not yet forgotten.
    public func hasFailed(_ key: String, at now: EpochMillis) -> Bool {
        guard var entry = entries[key] else { return false }
        settle(&entry, at: now)
        return !entry.failures.isEmpty || entry.isLocked(at: now) || entry.level > 0
    }

    /// Reserves one attempt before it is checked. Refused while the key is
    /// locked out, or when the failures so far plus the attempts in flight
    /// would reach the limit (then for a second: one of them may succeed).
    /// An allowed reservation must be settled with `finish`.
    public mutating func reserve(_ key: String, at now: EpochMillis) -> Decision {
        if entries[key] == nil, entries.count >= maxKeys {
            makeRoom(at: now)
        }
        var entry = entries[key] ?? Entry()
        settle(&entry, at: now)
        if let lockedUntil = entry.lockedUntil, now < lockedUntil {
            entries[key] = entry
            return .lockedOut(retryAfter: lockedUntil - now)
        }
        guard entry.failures.count + entry.pending.count < policy.maxFailures else {
            entries[key] = entry
            return .lockedOut(retryAfter: 1_000)
        }
        entry.pending.append(now)
        entries[key] = entry
        return .allowed
    }

    /// Settles an attempt reserved at `reservedAt`: it no longer counts as in
    /// flight, and a failure is recorded. Returns the decision after it.
    @discardableResult
    public mutating func finish(_ key: String, reservedAt: EpochMillis, failed: Bool, at now: EpochMillis) -> Decision {
        if var entry = entries[key], let index = entry.pending.firstIndex(of: reservedAt) {
            entry.pending.remove(at: index)
            entries[key] = entry
        }
        return failed ? recordFailure(key, at: now) : check(key, at: now)
    }

    /// The lockout of a key, when it has one worth keeping.
    public func lockout(of key: String) -> Lockout? {
        guard let entry = entries[key], let lockedUntil = entry.lockedUntil else { return nil }
        return Lockout(key: key, lockedUntil: lockedUntil, level: entry.level, lastFailure: entry.lastFailure)
    }

    /// Puts back lockouts saved before a restart.
    public mutating func restore(_ lockouts: [Lockout]) {
        for lockout in lockouts.prefix(maxKeys) {
            var entry = entries[lockout.key] ?? Entry()
            entry.lockedUntil = max(entry.lockedUntil ?? .min, lockout.lockedUntil)
            entry.level = max(entry.level, lockout.level)
            entry.lastFailure = max(entry.lastFailure, lockout.lastFailure)
            entries[lockout.key] = entry
        }
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
            return !(entry.failures.isEmpty && entry.pending.isEmpty && !entry.isLocked(at: now) && entry.level == 0)
        }
    }

    /// Brings an entry up to `now`: forgets failures outside the window, an
    /// expired lockout, and the escalation once the key has been quiet long enough.
    private func settle(_ entry: inout Entry, at now: EpochMillis) {
        entry.failures.removeAll { now - $0 >= policy.window }
        entry.pending.removeAll { now - $0 >= Self.reservationTimeout }
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
