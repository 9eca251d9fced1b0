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
        // Twenty times the table: it fills, and is evicted from, 160 times.
        // (Kept small: a pure test holds one of the cooperative pool's
        // threads until it ends, and live tests' servers wait for them.)
        for i in 0..<20_000 {
            limiter.recordFailure("flood-\(i)", at: EpochMillis(10 + i))
            largest = max(largest, limiter.trackedKeys)
        }
        #expect(largest <= 1_000)
        // The oldest activity goes first; a lockout in force counts as activity
        // until it ends, so flooding can't free a locked key.
        #expect(limiter.check("victim", at: 20_010) != .allowed)
        // The most recent keys are still tracked.
        #expect(limiter.recordFailure("flood-19999", at: 20_011) == .allowed)
        #expect(limiter.trackedKeys <= 1_000)
    }

    // Guessing cost: an attacker failing every 1 ms whenever allowed. Every
    // shipped policy waits 1 min (15 min for the crowd-wide ones) after its
    // burst, doubling to 1 h; after a wait the count starts fresh.
    //
    // joinPerStationPerson / loginPerHandleAddress (5 per 15 min): bursts of 5
    // at 0, 1, 3, 7, 15 and 31 min (waits of 1, 2, 4, 8, 16, 32 min), then
    // every 60 min from 63: 6 bursts in the first hour = 30; 6 + 23 = 29
    // bursts in a day = 145.
    //
    // joinPerStation / loginPerHandle (200 or 100 per hour, waits of 15, 30,
    // 60 min): bursts at 0, 15, 45 min, then hourly from 105.
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 24 * hour

    /// The guessing cost of each shipped policy: what an attacker who fails
    /// as fast as allowed gets through in an hour and in a day.
    @Test func maxFailuresForTheShippedPolicies() {
        let figures: [(AttemptLimiter.Policy, Int, Int)] = [
            (.joinPerAddress, 300, 1450),
            (.joinPerStationAddress, 180, 870),
            (.joinPerStationPerson, 30, 145),
            (.joinPerStation, 600, 5200),
            (.loginPerAddress, 300, 1450),
            (.loginPerHandleAddress, 30, 145),
            (.loginPerHandle, 300, 2600),
        ]
        for (policy, hour, day) in figures {
            #expect(AttemptLimiter.maxFailures(policy: policy, over: Self.hour) == hour, "\(policy)")
            #expect(AttemptLimiter.maxFailures(policy: policy, over: Self.day) == day, "\(policy)")
        }
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
        func growing(_ failures: Int, in window: Int64, from lockout: Int64) -> AttemptLimiter.Policy {
            .init(maxFailures: failures, window: window, lockout: lockout, maxLockout: Self.hour, escalates: true)
        }
        #expect(AttemptLimiter.Policy.joinPerAddress == growing(50, in: 15 * minute, from: minute))
        #expect(AttemptLimiter.Policy.joinPerStationAddress == growing(30, in: 15 * minute, from: minute))
        #expect(AttemptLimiter.Policy.joinPerStationPerson == growing(5, in: 15 * minute, from: minute))
        #expect(AttemptLimiter.Policy.joinPerStation == growing(200, in: Self.hour, from: 15 * minute))
        #expect(AttemptLimiter.Policy.loginPerAddress == .joinPerAddress)
        #expect(AttemptLimiter.Policy.loginPerHandleAddress == growing(5, in: 15 * minute, from: minute))
        #expect(AttemptLimiter.Policy.loginPerHandle == growing(100, in: Self.hour, from: 15 * minute))
    }

    @Test func reservationsInFlightCountAgainstTheLimit() {
        var limiter = AttemptLimiter(policy: Self.small)
        #expect(limiter.reserve("k", at: 0) == .allowed)
        #expect(limiter.reserve("k", at: 0) == .allowed)
        #expect(limiter.reserve("k", at: 0) == .allowed)
        // Three in flight with a limit of three: the fourth waits a second.
        #expect(limiter.reserve("k", at: 0) == .lockedOut(retryAfter: 1_000))
        // One succeeds: room for another.
        limiter.finish("k", reservedAt: 0, failed: false, at: 1)
        #expect(limiter.reserve("k", at: 1) == .allowed)
        // Three fail: the third trips the lockout.
        limiter.finish("k", reservedAt: 0, failed: true, at: 2)
        limiter.finish("k", reservedAt: 0, failed: true, at: 2)
        #expect(limiter.finish("k", reservedAt: 1, failed: true, at: 2) == .lockedOut(retryAfter: 100))
        #expect(limiter.reserve("k", at: 3) == .lockedOut(retryAfter: 99))
    }

    @Test func aReservationThatNeverFinishesStopsCountingAfterAMinute() {
        var limiter = AttemptLimiter(policy: Self.small)
        for _ in 0..<3 { #expect(limiter.reserve("k", at: 0) == .allowed) }
        #expect(limiter.reserve("k", at: AttemptLimiter.reservationTimeout - 1) != .allowed)
        #expect(limiter.reserve("k", at: AttemptLimiter.reservationTimeout) == .allowed)
    }

    @Test func aLockoutCanBeKeptAndPutBack() {
        var limiter = AttemptLimiter(policy: Self.small)
        Self.fail(&limiter, "k", times: 3, from: 0)
        let lockout = limiter.lockout(of: "k")
        #expect(lockout == .init(key: "k", lockedUntil: 102, level: 1, lastFailure: 2))
        var restarted = AttemptLimiter(policy: Self.small)
        restarted.restore([lockout!])
        #expect(restarted.check("k", at: 50) == .lockedOut(retryAfter: 52))
        // The escalation came back too: the next lockout is twice as long.
        #expect(Self.fail(&restarted, "k", times: 3, from: 200) == .lockedOut(retryAfter: 200))
    }

    @Test func hasFailedSaysWhetherAKeyGuessedWrongLately() {
        var limiter = AttemptLimiter(policy: Self.small)
        #expect(!limiter.hasFailed("k", at: 0))
        limiter.recordFailure("k", at: 0)
        #expect(limiter.hasFailed("k", at: 999))
        #expect(!limiter.hasFailed("k", at: 1_000))
    }
}
