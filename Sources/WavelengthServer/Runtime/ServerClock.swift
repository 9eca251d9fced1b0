import Foundation
import WavelengthCore

/// The server's wall clock. Injected so tests can move time.
public protocol ServerClock: Sendable {
    func now() -> EpochMillis
    /// The same clock with sub-millisecond precision, for clock-sync stamps.
    func preciseNow() -> Double
}

public struct SystemClock: ServerClock {
    public init() {}

    public func now() -> EpochMillis {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return EpochMillis(spec.tv_sec) * 1000 + EpochMillis(spec.tv_nsec) / 1_000_000
    }

    public func preciseNow() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
    }
}

extension Duration {
    /// Whole milliseconds, as the timeline counts them.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
