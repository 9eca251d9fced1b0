import Testing
@testable import WavelengthCore

@Suite("Attempt limiter")
struct AttemptLimiterTests {
    /// Small numbers so every step is easy to follow: 3 failures in 1 s →
    /// 100 ms lockout, doubling to 400 ms.
    static let small = AttemptLimiter.Policy(
        maxFailures: 3, window: 1_000, lockout: 100, maxLockout: 400, escalates: true)

    /// Fails `n` times from `start`, 1 ms apart; returns the last decision.
    @discardableResult
    static func fail(_ limiter: inout AttemptLimiter, _ key: String, times n: Int, from start: EpochMillis)
        -> AttemptLimiter.Decision
    {
        var decision = AttemptLimiter.Decision.allowed
        for i in 0..<n { decision = limiter.recordFailure(key, at: start + Int64(i)) }
        return decision
    }

    @Test func locksOutOnExactlyTheMaxFailure() {
        var limiter = AttemptLimiter(policy: Self.small)
        #expect(limiter.recordFailure("k", at: 0) == .allowed)
        #expect(limiter.recordFailure("k", at: 1) == .allowed)
        #expect(limiter.check("k", at: 2) == .allowed)
        #expect(limiter.recordFailure("k", at: 2) == .lockedOut(retryAfter: 100))
        #expect(limiter.check("k", at: 2) == .lockedOut(retryAfter: 100))
        #expect(limiter.check("k", at: 52) == .lockedOut(retryAfter: 50))
        #expect(limiter.check("k", at: 102) == .allowed)
        // Other keys are unaffected.
        #expect(limiter.check("other", at: 2) == .allowed)
    }

    @Test func failuresWhileLockedDoNotExtendTheLockout() {
        var limiter = AttemptLimiter(policy: Self.small)
        Self.fail(&limiter, "k", times: 3, from: 0)  // locked until 102
        #expect(limiter.recordFailure("k", at: 50) == .lockedOut(retryAfter: 52))
        #expect(limiter.recordFailure("k", at: 101) == .lockedOut(retryAfter: 1))
        #expect(limiter.check("k", at: 102) == .allowed)
        // Nothing recorded during the lock counts afterwards: the count starts fresh.
        #expect(limiter.recordFailure("k", at: 102) == .allowed)
        #expect(limiter.recordFailure("k", at: 103) == .allowed)
    }

    @Test func failuresOlderThanTheWindowDoNotCount() {
        var limiter = AttemptLimiter(policy: Self.small)
        limiter.recordFailure("k", at: 0)
        limiter.recordFailure("k", at: 1)
        // At 1000 the failure at 0 is a full window old: only 1 and 1000 count.
        #expect(limiter.recordFailure("k", at: 1_000) == .allowed)
        // At 1001 the failure at 1 has gone too: only 1000 and 1001 count.
        #expect(limiter.recordFailure("k", at: 1_001) == .allowed)
        #expect(limiter.recordFailure("k", at: 1_002) == .lockedOut(retryAfter: 100))
    }

    @Test func consecutiveLockoutsDoubleUpToTheCap() {
        var limiter = AttemptLimiter(policy: Self.small)
        var now: EpochMillis = 0
        for expected: Int64 in [100, 200, 400, 400, 400] {
            // Each run needs the full count again, not a single failure.
            #expect(Self.fail(&limiter, "k", times: 2, from: now) == .allowed)
            #expect(limiter.recordFailure("k", at: now + 2) == .lockedOut(retryAfter: expected))
            now += 2 + expected
        }
    }

    @Test func escalationIsForgottenAfterAQuietMaxLockout() {
        var limiter = AttemptLimiter(policy: Self.small)
        #expect(Self.fail(&limiter, "k", times: 3, from: 0) == .lockedOut(retryAfter: 100))  // until 102
        #expect(Self.fail(&limiter, "k", times: 3, from: 102) == .lockedOut(retryAfter: 200))  // until 304
        // Quiet for 399 ms after the lock ends: not long enough, it keeps doubling.
        #expect(Self.fail(&limiter, "k", times: 3, from: 304 + 399) == .lockedOut(retryAfter: 400))  // until 1105
        // Quiet for a full maxLockout (400 ms): back to the first lockout.
        #expect(Self.fail(&limiter, "k", times: 3, from: 1_105 + 400) == .lockedOut(retryAfter: 100))
    }

    @Test func nonEscalatingPolicyRepeatsTheSameLockout() {
        let policy = AttemptLimiter.Policy(maxFailures: 3, window: 1_000, lockout: 100, maxLockout: 400, escalates: false)
        var limiter = AttemptLimiter(policy: policy)
        var now: EpochMillis = 0
        for _ in 0..<5 {
            #expect(Self.fail(&limiter, "k", times: 3, from: now) == .lockedOut(retryAfter: 100))
            now += 2 + 100
        }
    }

    @Test func resetForgetsFailuresButNotEscalation() {
        var limiter = AttemptLimiter(policy: Self.small)
        Self.fail(&limiter, "k", times: 2, from: 0)
        limiter.reset("k")
        #expect(limiter.trackedKeys == 0)
        #expect(Self.fail(&limiter, "k", times: 2, from: 10) == .allowed)
        #expect(limiter.recordFailure("k", at: 12) == .lockedOut(retryAfter: 100))  // until 112

        // A success after the lockout clears the count but keeps the level, so
        // the next lockout is still doubled.
        Self.fail(&limiter, "k", times: 2, from: 112)
        limiter.reset("k")
        #expect(limiter.trackedKeys == 1)
        #expect(Self.fail(&limiter, "k", times: 2, from: 120) == .allowed)
        #expect(limiter.recordFailure("k", at: 122) == .lockedOut(retryAfter: 200))

        limiter.reset("never-seen")  // harmless
        #expect(limiter.trackedKeys == 1)
    }

    @Test func resetDoesNotLiftALockoutInForce() {
        var limiter = AttemptLimiter(policy: Self.small)
        Self.fail(&limiter, "k", times: 3, from: 0)
        limiter.reset("k")
        #expect(limiter.check("k", at: 50) == .lockedOut(retryAfter: 52))
    }

    @Test func pruneDropsExpiredFailures() {
        var limiter = AttemptLimiter(policy: Self.small)
        limiter.recordFailure("stale", at: 0)
        limiter.recordFailure("fresh", at: 900)
        limiter.prune(at: 999)
        #expect(limiter.trackedKeys == 2)  // both are inside their window
        limiter.prune(at: 1_000)
        #expect(limiter.trackedKeys == 1)  // "stale" is a full window old
        limiter.prune(at: 1_900)
        #expect(limiter.trackedKeys == 0)
    }

    @Test func pruneKeepsLockoutsAndEscalationUntilTheyDecay() {
        var limiter = AttemptLimiter(policy: Self.small)
        Self.fail(&limiter, "k", times: 3, from: 0)  // locked until 102, level 1
        limiter.prune(at: 101)
        #expect(limiter.trackedKeys == 1)  // locked
        limiter.prune(at: 102 + 399)
        #expect(limiter.trackedKeys == 1)  // unlocked, but the level is still remembered
        limiter.prune(at: 102 + 400)
        #expect(limiter.trackedKeys == 0)  // quiet for maxLockout: nothing left to remember
    }

    @Test func memoryStaysBoundedUnderAFloodOfKeys() {
        // A long window keeps every key live, so only eviction can bound memory.
        let policy = AttemptLimiter.Policy(
            maxFailures: 5, window: 3_600_000, lockout: 3_600_000, maxLockout: 3_600_000, escalates: false)
        var limiter = AttemptLimiter(policy: policy, maxKeys: 1_000)
        Self.fail(&limiter, "victim", times: 5, from: 0)  // locked for an hour
        var largest = 0
        for i in 0..<200_000 {
            limiter.recordFailure("flood-\(i)", at: EpochMillis(10 + i))
            largest = max(largest, limiter.trackedKeys)
        }
        #expect(largest <= 1_000)
        // The oldest activity goes first; a lockout in force counts as activity
        // until it ends, so flooding can't free a locked key.
        #expect(limiter.check("victim", at: 200_010) != .allowed)
        // The most recent keys are still tracked.
        #expect(limiter.recordFailure("flood-199999", at: 200_011) == .allowed)
        #expect(limiter.trackedKeys <= 1_000)
    }

    // Guessing cost: an attacker failing every 1 ms whenever allowed.
    //
    // joinPerAddress / loginPerAddress (10 per 15 min, 15 min doubling to 24 h):
    // bursts of 10 start at 0, 15, 45, 105, 225, 465 and 945 min (each lock is
    // twice the last: 15, 30, 60, 120, 240, 480, 960 min, plus a few ms for the
    // burst itself). Within 1 h: bursts at 0, 15, 45 min = 30. Within 24 h
    // (1440 min): 7 bursts = 70; the 8th would start at 1905 min.
    //
    // joinPerStation (20 per hour, 1 h lockout, no escalation): a burst of 20
    // every 3,600,019 ms (19 ms of burst + 1 h). Within 1 h: 20. Within 24 h:
    // bursts start at k · 3,600,019 for k = 0…23 (k = 24 starts at
    // 86,400,456 > 86,400,000) = 24 · 20 = 480.
    //
    // loginPerHandle (5 per 15 min, same lockouts as per address): the same
    // 3 bursts in 1 h = 15, and 7 bursts in 24 h = 35.
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 24 * hour

    @Test func maxFailuresForTheShippedPolicies() {
        #expect(AttemptLimiter.maxFailures(policy: .joinPerAddress, over: Self.hour) == 30)
        #expect(AttemptLimiter.maxFailures(policy: .joinPerAddress, over: Self.day) == 70)
        #expect(AttemptLimiter.maxFailures(policy: .joinPerStation, over: Self.hour) == 20)
        #expect(AttemptLimiter.maxFailures(policy: .joinPerStation, over: Self.day) == 480)
        #expect(AttemptLimiter.maxFailures(policy: .loginPerAddress, over: Self.hour) == 30)
        #expect(AttemptLimiter.maxFailures(policy: .loginPerAddress, over: Self.day) == 70)
        #expect(AttemptLimiter.maxFailures(policy: .loginPerHandle, over: Self.hour) == 15)
        #expect(AttemptLimiter.maxFailures(policy: .loginPerHandle, over: Self.day) == 35)
    }

    @Test func maxFailuresForTheSmallPolicy() {
        // Bursts of 3 at 0, 102 (after 100), 304 (after 200), 706 (after 400): 4 bursts start before 800.
        #expect(AttemptLimiter.maxFailures(policy: Self.small, over: 800) == 12)
        // Only the burst at 0 fits in 102 ms (the next starts at 102).
        #expect(AttemptLimiter.maxFailures(policy: Self.small, over: 102) == 3)
        #expect(AttemptLimiter.maxFailures(policy: Self.small, over: 103) == 4)
        #expect(AttemptLimiter.maxFailures(policy: Self.small, over: 0) == 0)
    }

    @Test func shippedPoliciesMatchTheirDescriptions() {
        let minute: Int64 = 60_000
        #expect(
            AttemptLimiter.Policy.joinPerAddress
                == .init(maxFailures: 10, window: 15 * minute, lockout: 15 * minute, maxLockout: Self.day, escalates: true))
        #expect(
            AttemptLimiter.Policy.joinPerStation
                == .init(maxFailures: 20, window: Self.hour, lockout: Self.hour, maxLockout: Self.hour, escalates: false))
        #expect(AttemptLimiter.Policy.loginPerAddress == .joinPerAddress)
        #expect(
            AttemptLimiter.Policy.loginPerHandle
                == .init(maxFailures: 5, window: 15 * minute, lockout: 15 * minute, maxLockout: Self.day, escalates: true))
    }
}
