/// The clock a server part sleeps on and reads elapsed time from: the
/// stream's grace and stall sweeps, the encoder's pace, the live sources'
/// renewals. Injected like the hub's timers (`StationContext.sleeper`), so a
/// test moves time instead of waiting for it; `system` is the continuous clock.
///
/// A struct of two closures rather than `any Clock<Duration>`: an existential
/// clock's `Instant` is hidden, so elapsed time could not be read through it.
public struct Pacing: Sendable {
    /// Sleeps for the duration on the clock; throws when cancelled.
    public let sleep: @Sendable (Duration) async throws -> Void
    /// Time since this pacing was made, on its clock.
    public let elapsed: @Sendable () -> Duration

    public init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        sleep = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
        elapsed = { origin.duration(to: clock.now) }
    }

    public static let system = Pacing(ContinuousClock())
}
