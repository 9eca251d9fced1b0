import WavelengthCore

/// Where guessing lockouts are kept, so a restart doesn't lift them.
public protocol AttemptRepository: Sendable {
    /// Saves (or replaces) the lockout of `lockout.key` in the named limiter.
    func saveLockout(limiter: String, _ lockout: AttemptLimiter.Lockout) async throws
    /// The lockouts that still matter at `now`: in force, or with escalation
    /// not yet forgotten (an hour after they end). Older ones are deleted.
    func lockouts(activeAt now: EpochMillis) async throws -> [(limiter: String, lockout: AttemptLimiter.Lockout)]
}
