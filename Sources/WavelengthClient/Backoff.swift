/// Exponential backoff with jitter for reconnecting: 0.25 s, 0.5 s, 1 s, …
/// up to `maximum`, each randomised by ±20% so many clients that lost the
/// same server don't all return in the same instant.
public struct Backoff: Sendable, Equatable {
    public var initial: Double
    public var maximum: Double
    public var jitter: Double

    public init(initial: Double = 250, maximum: Double = 10_000, jitter: Double = 0.2) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The delay in ms before reconnect attempt `attempt` (1-based).
    public func delay(attempt: Int, using rng: inout some RandomNumberGenerator) -> Double {
        let exponent = min(max(attempt - 1, 0), 30)
        let base = min(maximum, initial * Double(1 << exponent))
        return base * Double.random(in: (1 - jitter)...(1 + jitter), using: &rng)
    }
}
